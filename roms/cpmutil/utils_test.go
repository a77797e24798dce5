package cpmutil_test

import (
	"fmt"
	"regexp"
	"strconv"
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
	require.NoError(t, m.Save("TEST.SUB", []byte("dir $1\r\n\r\ntype $2\r\ndump $2\r\nera $2\r\nREM costs $$5\r\ndir\r\n\x1a")))
	m.Out.Reset()
	m.Type("SUBMIT TEST *.TXT HELLO.TXT\r", "DIR\r", "DUMP TEST.SUB\r", "SUBMIT NONE\r", "DUMP\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "A>dir *.TXT\nA: HELLO    TXT\nA>type HELLO.TXT\nHello, batch.\n")
	assert.Contains(t, out, "A>dump HELLO.TXT\n0000: 48 65", "a program run from the batch starts on a new line")
	assert.Contains(t, out, "A>REM costs $5\nREM?")
	assert.Contains(t, out, "A>DIR\nA: SUBMIT   COM : DUMP     COM : TEST     SUB\nA>", "$$$.SUB is gone after the batch")
	assert.Contains(t, out, "0000: 64 69 72 20 24 31 0D 0A 0D 0A 74 79 70 65 20 24  dir $1....type $")
	assert.Equal(t, 1, strings.Count(out, "HELLO    TXT"), "ERA in the batch deleted it")
	golden(t, "submit.txt", out)
	// A terminal moves down on LF and back on CR: a batch line's echo must
	// end as a typed line does, or what the program prints next starts in
	// the column after the echo.
	raw := m.Out.String()
	for i := strings.Index(raw, "\n"); i >= 0; i = strings.Index(raw, "\n") {
		require.Positive(t, i, "output starts with a bare LF")
		require.Equal(t, "\r", raw[i-1:i], "bare LF after %q", raw[max(0, i-20):i])
		raw = raw[i+1:]
	}
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

// COPY onto a disk that fills up says so and leaves no partial (or empty)
// destination file behind; the space it took is free again.
func TestCopyDiskFull(t *testing.T) {
	m := machine(t, "COPY", "STAT")
	require.NoError(t, m.Save("HUGE.DAT", make([]byte, 45*1024)))
	require.NoError(t, m.Save("SMALL.TXT", []byte("small\r\n\x1a")))
	m.Out.Reset()
	// B: (amp1) holds 190K: four copies leave 10K, the fifth does not fit.
	m.Type("COPY B:H1.DAT=HUGE.DAT\r", "COPY B:H2.DAT=HUGE.DAT\r", "COPY B:H3.DAT=HUGE.DAT\r",
		"COPY B:H4.DAT=HUGE.DAT\r", "STAT B:\r", "COPY B:H5.DAT=HUGE.DAT\r", "DIR B:\r", "STAT B:\r",
		"COPY B:=SMALL.TXT\r", "DIR B:\r")
	require.ErrorIs(t, m.Run(4_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "A0:HUGE.DAT -> B0:H5.DAT\nDISK FULL, NOT COPIED")
	assert.Contains(t, out, "A>DIR B:\nB: H1       DAT : H2       DAT : H3       DAT : H4       DAT\nA>", "no H5.DAT left behind")
	free := regexp.MustCompile(`B: R/W, (\d+)K free of 190K`).FindAllStringSubmatch(out, -1)
	require.Len(t, free, 2)
	assert.Equal(t, free[0][1], free[1][1], "the partial copy's space is free again")
	k, err := strconv.Atoi(free[0][1])
	require.NoError(t, err)
	assert.Less(t, k, 45, "the fifth copy cannot fit")
	assert.Contains(t, out, "SMALL    TXT\n", "the disk is usable after")
}

// COPY onto a disk whose directory is full says so and stops: B: (amp1)
// has 64 directory entries, so of 65 one-record files the 65th finds no
// entry; the wildcard copy stops there and the 64 already copied stay.
func TestCopyDirectoryFull(t *testing.T) {
	m := machine(t, "COPY", "STAT")
	for i := range 65 {
		require.NoError(t, m.Save(fmt.Sprintf("F%02d.DAT", i), []byte(fmt.Sprintf("file %02d\r\n\x1a", i))))
	}
	m.Out.Reset()
	m.Type("COPY B:=F*.DAT\r", "STAT B:*.*\r", "COPY B:F99.DAT=F00.DAT\r")
	require.ErrorIs(t, m.Run(4_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "A0:F63.DAT -> B0:F63.DAT\nA0:F64.DAT -> B0:F64.DAT\nDIRECTORY FULL\nA>")
	assert.Contains(t, out, "A0:F00.DAT -> B0:F99.DAT\nDIRECTORY FULL\nA>")
	assert.Contains(t, out, "Total: 128 records\n", "64 files of two records on B:")
	assert.NotContains(t, out, "NO FILE")
	assert.Regexp(t, `(?s)A>STAT B:\*\.\*\n.*F63 +\.DAT`, out, "the copied files are on B:")
	assert.NotRegexp(t, `F64 +\.DAT`, out[strings.Index(out, "A>STAT B:"):], "no entry for the file that did not fit")
}

// The CCP's SAVE writes two records a page for any count up to 255 pages
// (DR's CCP counts pages too); a count doubled into a byte saved 104
// records for SAVE 180.
func TestSaveOver127Pages(t *testing.T) {
	m := machine(t, "STAT")
	data := make([]byte, 200*256)
	for i := range data {
		data[i] = byte(i >> 8)
	}
	require.NoError(t, m.Save("BIG.DAT", data))
	m.Out.Reset()
	m.Type("STAT BIG.DAT\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	assert.Contains(t, m.Transcript(), "  400   50  A:BIG     .DAT\n")
}

// STAT DSK: and STAT d:DSK: print the drive's parameters from its DPB (an
// amp2 floppy, an amp1 and a hard-disk partition here), where STAT once
// looked for a file named DSK.
func TestStatDsk(t *testing.T) {
	m := machine(t, "STAT")
	m.Out.Reset()
	m.Type("STAT DSK:\r", "STAT B:DSK:\r", "STAT C:DSK:\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.NotContains(t, out, "NO FILE")
	for _, want := range []string{
		"A: drive parameters\n  390  kilobytes of data\n  128  directory entries\n  128  directory entries checked for a disk change\n  256  records an extent\n   16  records a block\n   40  records a track\n    2  reserved tracks\n",
		"B: drive parameters\n  190  kilobytes of data\n   64  directory entries\n",
		"C: drive parameters\n 7680  kilobytes of data\n 1024  directory entries\n    0  directory entries checked for a disk change\n",
	} {
		assert.Contains(t, out, want)
	}
}

// COPY takes PIP's device names on either side: typed lines into a file
// up to ^Z (each CR stored as CR LF, the file ending in ^Z), a file to the
// printer and to the console up to its ^Z, the console to the printer;
// a device on the wrong side is a usage error.
func TestCopyDevices(t *testing.T) {
	m := machine(t, "COPY", "DUMP")
	m.Out.Reset()
	m.Type("COPY B:NOTES.TXT=CON:\r", "first line\r", "second\r\x1a",
		"COPY LST:=B:NOTES.TXT\r", "COPY CON:=B:NOTES.TXT\r", "COPY LST:=CON:\r", "to the printer\x1a",
		"COPY RDR:=B:NOTES.TXT\r", "COPY X.TXT=LST:\r", "DUMP B:NOTES.TXT\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	text := "first line\r\nsecond\r\n"
	assert.Contains(t, out, "COPY B:NOTES.TXT=CON:\nfirst line\nsecond\n\nA>")
	assert.Equal(t, text+"to the printer", m.List.String())
	assert.Contains(t, out, "A>COPY CON:=B:NOTES.TXT\nfirst line\nsecond\n")
	assert.Equal(t, 2, strings.Count(out, "USAGE: COPY"), "RDR: cannot be written, LST: cannot be read")
	i := strings.LastIndex(out, "A>DUMP B:NOTES.TXT\n")
	require.Positive(t, i)
	file := undump(t, out[i:])
	require.Len(t, file, 128, "one record")
	assert.Equal(t, text, string(file[:len(text)]))
	assert.Equal(t, strings.Repeat("\x1a", 128-len(text)), string(file[len(text):]), "^Z, then padded with ^Z")
}
