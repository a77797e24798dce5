package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floppy create --system and disk create --system, run as a user runs
// them, make media that boot our CP/M to A>; a file saved there is seen
// by lbplus cpm ls afterwards.
func TestCreateSystemMediaBoots(t *testing.T) {
	for _, tc := range []struct {
		name   string
		create []string
		floppy bool
		banner string
	}{
		{"floppy amp1", []string{"floppy", "create", "--format", "amp1", "--system", "m.imd"}, true, "5 hard disk partition(s)"},
		{"floppy amp2", []string{"floppy", "create", "--format", "amp2", "--system", "m.imd"}, true, "5 hard disk partition(s)"},
		{"floppy amp3", []string{"floppy", "create", "--format", "amp3", "--system", "m.imd"}, true, "5 hard disk partition(s)"},
		{"floppy amp4", []string{"floppy", "create", "--format", "amp4", "--system", "m.imd"}, true, "5 hard disk partition(s)"},
		{"hard disk", []string{"disk", "create", "--system", "m.img"}, false, "5 hard disk partition(s)"},
		{"hard disk, bursts", []string{"disk", "create", "--system", "--transfer", "burst", "m.img"}, false, "5 hard disk partition(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "work")
			require.NoError(t, os.MkdirAll(dir, 0o755))
			r := runCLI(t, dir, "", 60*time.Second, tc.create...)
			require.Zero(t, r.code, r.stderr)
			img := filepath.Join(dir, tc.create[len(tc.create)-1])
			drive := "--hd0"
			if tc.floppy {
				drive = "--fd0"
			}
			got := runScriptWith(t, []string{drive, img}, []string{"A>", "RESTORE  COM\r\nA>", "A>", "X        COM\r\nA>"},
				[]string{"DIR\r", "SAVE 1 X.COM\r", "DIR\r"})
			assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")
			assert.Contains(t, got, tc.banner)
			r = runCLI(t, dir, "", 60*time.Second, "cpm", "ls", img)
			require.Zero(t, r.code, r.stderr)
			assert.Contains(t, r.stdout, "X.COM")
		})
	}
}
