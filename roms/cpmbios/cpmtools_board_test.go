package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

func needCpmtools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cpmcp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cpmtools missing (make debs)")
		}
		t.Skip("cpmtools not installed (make debs)")
	}
}

// cpmtools both ways on the board: a program put with cpmcp is loaded by
// the CCP byte for byte and a text file typed exactly, and a file CP/M
// saves is read back by cpmcp byte for byte, on each Ampro floppy format
// and on a hard disk partition (cpmtools' format from docs/diskdefs).
func TestCpmtoolsBothWaysOnTheBoard(t *testing.T) {
	needCpmtools(t)
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	var text strings.Builder
	for i := 0; text.Len() < 3000; i++ {
		text.WriteString("line ")
		text.WriteString(strings.Repeat("x", i%50))
		text.WriteString("\r\n")
	}
	pattern := make([]byte, 8*256)
	for i := range pattern {
		pattern[i] = byte(i*7 + i>>8)
	}
	for _, tc := range []struct{ format, drive string }{
		{"amp1", "A"}, {"amp2", "A"}, {"amp3", "A"}, {"amp4", "A"}, {"lbplus-hd0", "A"}, {"lbplus-hd1", "B"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			dir := t.TempDir()
			var img string
			var r *rig
			hd := strings.HasPrefix(tc.format, "lbplus")
			if hd {
				img = systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
				require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
			} else {
				img = systemFloppy(t, tc.format, ourSystem(t))
			}
			cpm := func(args ...string) string {
				cmd := exec.Command(args[0], args[1:]...)
				if hd {
					cmd.Dir = dir // ./diskdefs
				}
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%v: %s", args, out)
				return string(out)
			}
			src := filepath.Join(t.TempDir(), "hello.txt")
			require.NoError(t, os.WriteFile(src, []byte(text.String()+"\x1a"), 0o644))
			cpm("cpmcp", "-f", tc.format, img, src, "0:HELLO.TXT")
			// A program of 40 records: RET, then bytes of every value; the
			// CCP loads it at 0100h through BDOS and BIOS and runs it.
			prog := make([]byte, 40*128)
			for i := range prog {
				prog[i] = byte(i*13 + i>>7)
			}
			prog[0] = 0xC9
			bin := filepath.Join(t.TempDir(), "bin.com")
			require.NoError(t, os.WriteFile(bin, prog, 0o644))
			cpm("cpmcp", "-f", tc.format, img, bin, "0:BIN.COM")

			if hd {
				r = bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{img}}})
			} else {
				r = bootMachine(t, []emu.Floppy{{Drive: 0, Image: img, Format: tc.format}}, nil)
			}
			require.NoError(t, r.ty.WaitFor("A>"))
			if tc.drive != "A" {
				r.cmd(t, tc.drive+":", tc.drive+">")
			}
			r.cmd(t, "BIN", tc.drive+">")
			loaded := make([]byte, len(prog))
			for i := range loaded {
				loaded[i] = r.b.RAM(uint16(0x100 + i))
			}
			require.Equal(t, prog, loaded, "the CCP loads the file cpmcp put, byte for byte")
			r.b.LoadRAM(0x100, pattern)
			r.cmd(t, "SAVE 8 P.COM", tc.drive+">")
			start := r.tr.Len()
			r.cmd(t, "TYPE HELLO.TXT", tc.drive+">")
			got := string(r.tr.Bytes()[start:])
			assert.True(t, strings.Contains(got, "\r\n"+text.String()), "TYPE shows the file as cpmcp put it: %q", got[:min(len(got), 200)])
			require.NoError(t, r.b.Close())

			out := filepath.Join(t.TempDir(), "p.com")
			cpm("cpmcp", "-f", tc.format, img, "0:P.COM", out)
			back, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Equal(t, len(pattern), len(back), "cpmcp reads a file of the saved length")
			for i := range pattern {
				if pattern[i] != back[i] {
					t.Fatalf("cpmcp reads what CP/M saved: first difference at byte %d: %02X, want %02X", i, back[i], pattern[i])
				}
			}
		})
	}
}
