package cpmutil_test

import (
	"strings"
	"testing"

	"github.com/lbplus/lbplus/roms/cpm/cpmtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SUBMIT makes $$$.SUB and the CCP runs it line by line with the
// parameters substituted, then deletes it; DUMP shows a file in hex.
func TestSubmitAndDump(t *testing.T) {
	m := machine(t, "SUBMIT", "DUMP")
	require.NoError(t, m.Save("HELLO.TXT", []byte("Hello, batch.\r\n\x1a")))
	require.NoError(t, m.Save("TEST.SUB", []byte("dir $1\r\n\r\ntype $2\r\nera $2\r\nREM costs $$5\r\ndir\r\n\x1a")))
	m.Out.Reset()
	m.Type("SUBMIT TEST *.TXT HELLO.TXT\r", "DIR\r", "DUMP TEST.SUB\r", "SUBMIT NONE\r", "DUMP\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "A>dir *.TXT\nA: HELLO    TXT\nA>type HELLO.TXT\nHello, batch.\n")
	assert.Contains(t, out, "A>REM costs $5\nREM?")
	assert.Contains(t, out, "A>DIR\nA: SUBMIT   COM : DUMP     COM : TEST     SUB\nA>", "$$$.SUB is gone after the batch")
	assert.Contains(t, out, "0000: 64 69 72 20 24 31 0D 0A 0D 0A 74 79 70 65 20 24  dir $1....type $")
	assert.Equal(t, 1, strings.Count(out, "HELLO    TXT"), "ERA in the batch deleted it")
	golden(t, "submit.txt", out)
}

// COPY copies with wildcards across drives and user areas (the copies are
// byte-identical, as DUMP shows); STAT shows free space and file sizes.
func TestCopyAndStat(t *testing.T) {
	m := machine(t, "COPY", "STAT", "DUMP")
	data := make([]byte, 60*256) // four extents
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	require.NoError(t, m.Save("BIG.DAT", data))
	require.NoError(t, m.Save("SMALL.TXT", []byte("small\r\n\x1a")))
	m.Out.Reset()
	m.Type("STAT\r", "STAT *.*\r", "COPY B:=*.DAT\r", "COPY B3:=A:*.TXT\r", "COPY C:COPY2.DAT=B:BIG.DAT\r",
		"COPY A:=A:BIG.DAT\r", "COPY =NONE.DAT\r", "COPY\r", "STAT B:\r", "STAT B:*.*\r", "USER 3\r", "DIR B:\r", "USER 0\r",
		"DUMP C:COPY2.DAT\r")
	require.ErrorIs(t, m.Run(2_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	i := strings.LastIndex(out, "A>DUMP C:COPY2.DAT\n")
	require.Positive(t, i)
	assert.Equal(t, data, undump(t, out[i:]))
	assert.Contains(t, out, "A0:BIG.DAT -> B0:BIG.DAT")
	assert.Contains(t, out, "A>DIR B:\nB: SMALL    TXT\n")
	assert.Contains(t, out, "SAME FILE, SKIPPED")
	golden(t, "copystat.txt", out[:i])
}
