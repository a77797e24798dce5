package cpmtest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The console's control keys as CP/M 2.2 has them: ^C warm boots only as
// the first key of a line (elsewhere it is a character, echoed as ^C);
// ^S stops output until the next key, which is dropped unless it is ^C
// (a warm boot); another key during TYPE stops it (the CCP reads it with
// function 1, which echoes it); ^P copies the console to the printer until
// the next ^P.
func TestControlKeys(t *testing.T) {
	line := "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\r\n"
	big := []byte(strings.Repeat(line, 40) + "\x1a")
	for _, tc := range []struct {
		name      string
		keys      []string
		warmBoots int
		want      string // the whole console output after the keys
		list      string
	}{
		{"^C first", []string{"\x03"}, 1, "\r\nA>", ""},
		{"^C inside a line", []string{"DI\x03R\r"}, 0, "DI^CR\r\r\nDI\x03R?\r\nA>", ""},
		{"^C ends a line", []string{"DIR\x03\r"}, 0, "DIR^C\r\r\nDIR\x03?\r\nA>", ""},
		// Typed ahead, ^S is seen at the first character printed after the
		// line: the echo of its CR.
		{"^S ^C", []string{"TYPE BIG.TXT\r\x13\x03"}, 1, "TYPE BIG.TXT\r\nA>", ""},
		{"^S then a key", []string{"TYPE BIG.TXT\r\x13q", "DIR\r"}, 0,
			"TYPE BIG.TXT\r\r\n" + strings.Repeat(line, 40) + "\r\nA>DIR\r\r\nA: BIG      TXT\r\nA>", ""},
		{"a key stops TYPE", []string{"TYPE BIG.TXT\rx", "DIR\r"}, 0,
			"TYPE BIG.TXT\r\r\n0x\r\nA>DIR\r\r\nA: BIG      TXT\r\nA>", ""},
		{"^P", []string{"\x10DIR\r", "\x10DIR\r"}, 0,
			"DIR\r\r\nA: BIG      TXT\r\nA>DIR\r\r\nA: BIG      TXT\r\nA>", "DIR\r\r\nA: BIG      TXT\r\nA>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := boot(t, NewDisk(Amp2))
			m.Poke(0x100, big)
			m.Type("SAVE 12 BIG.TXT\r")
			require.ErrorIs(t, m.Run(200_000_000), ErrInput)
			m.Out.Reset()
			m.Type(tc.keys...)
			require.ErrorIs(t, m.Run(200_000_000), ErrInput)
			assert.Equal(t, tc.want, m.Out.String())
			assert.Equal(t, tc.warmBoots, m.WarmBoots)
			assert.Equal(t, tc.list, m.List.String())
		})
	}
}

// Another floppy in B: is noticed at its next directory read (the
// checksums differ): the drive turns read-only, so a write to it ends in
// BDOS ERR ON B: R/O and a warm boot; the warm boot's disk reset logs the
// new disk in and it takes writes again.
func TestDiskChangeAndReset(t *testing.T) {
	m := boot(t, NewDisk(Amp2), NewDisk(Amp1))
	m.Type("SAVE 1 B:FIRST.COM\r", "DIR B:\r")
	require.ErrorIs(t, m.Run(200_000_000), ErrInput)
	require.Contains(t, m.Out.String(), "B: FIRST    COM\r\nA>")

	other := NewDisk(Amp1)
	entry := make([]byte, 32) // user 0, no records
	copy(entry[1:], "OTHER   DAT")
	copy(other.Data[other.F.BootTrk*other.F.SPT()*128:], entry)
	copy(m.Disks[1].Data, other.Data)
	m.Out.Reset()
	m.Type("DIR B:\r", "SAVE 1 B:X.COM\r", "x", "DIR B:\r", "SAVE 1 B:X.COM\r", "DIR B:\r")
	require.ErrorIs(t, m.Run(200_000_000), ErrInput)
	assert.Equal(t, "DIR B:\r\r\nB: OTHER    DAT\r\n"+
		"A>SAVE 1 B:X.COM\r\r\nBDOS ERR ON B: R/O\r\n\r\n"+
		"A>DIR B:\r\r\nB: OTHER    DAT\r\n"+
		"A>SAVE 1 B:X.COM\r\r\n"+
		"A>DIR B:\r\r\nB: OTHER    DAT : X        COM\r\nA>", m.Out.String())
	assert.Equal(t, 1, m.WarmBoots)
	assert.NotContains(t, string(m.Disks[1].Data), "FIRST", "the old disk's directory was never written to the new one")
}
