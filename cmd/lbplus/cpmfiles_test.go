package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lbplus cpm put/ls/get/rm on a hard disk partition and a floppy; the
// emulated CP/M sees what put wrote.
func TestCPMFiles(t *testing.T) {
	dir := t.TempDir()
	hd := filepath.Join(dir, "hd.img")
	var out bytes.Buffer
	require.NoError(t, diskCreate(&out, hd, "st125", 3, false))
	require.NoError(t, diskCreateSystem(&out, hd, false, systemFlags{on: true, transfer: "byte"}))
	fd := filepath.Join(dir, "fd.imd")
	require.NoError(t, floppyCreate(&out, fd, "amp4", 0, systemFlags{}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)))

	text := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("Notes put by lbplus cpm put.\r\n"), 0o644))
	big := filepath.Join(dir, "big.bin")
	data := make([]byte, 50000)
	for i := range data {
		data[i] = byte(i * 13)
	}
	require.NoError(t, os.WriteFile(big, data, 0o644))
	for _, tc := range []struct {
		image string
		part  int
	}{{hd, 0}, {hd, 3}, {fd, 0}} {
		o := cpmOptions{part: tc.part, user: 2}
		out.Reset()
		require.NoError(t, o.put(&out, tc.image, []string{text, big}))
		require.NoError(t, o.list(&out, tc.image))
		assert.Contains(t, out.String(), " 2:BIG.BIN         50048\n")
		got := filepath.Join(t.TempDir(), "big")
		require.NoError(t, o.get(&out, tc.image, "2:big.bin", got))
		back, err := os.ReadFile(got)
		require.NoError(t, err)
		assert.Equal(t, data, back[:len(data)])
		// A host file is never overwritten unless asked.
		require.NoError(t, os.WriteFile(got, []byte("mine"), 0o644))
		assert.EqualError(t, o.get(&out, tc.image, "2:big.bin", got), got+": exists (--force replaces it)")
		mine, err := os.ReadFile(got)
		require.NoError(t, err)
		assert.Equal(t, "mine", string(mine))
		force := o
		force.force = true
		require.NoError(t, force.get(&out, tc.image, "2:big.bin", got))
		back, err = os.ReadFile(got)
		require.NoError(t, err)
		assert.Equal(t, data, back[:len(data)])
		require.NoError(t, o.remove(tc.image, []string{"2:BIG.BIN"}))
		assert.ErrorContains(t, o.remove(tc.image, []string{"2:BIG.BIN"}), "no such file")
		assert.ErrorContains(t, o.get(&out, tc.image, "16:X", ""), "0-15")
	}
	assert.ErrorContains(t, cpmOptions{part: 5}.list(&out, hd), "partition 5: the disk has 5")
	// The flags reach the files: --part and --user on put, --part on ls.
	_, _, err := execute("cpm", "put", "--part", "1", "--user", "3", hd, text)
	require.NoError(t, err)
	stdout, _, err := execute("cpm", "ls", "--part", "1", hd)
	require.NoError(t, err)
	assert.Contains(t, stdout, " 3:NOTES.TXT")
	stdout, _, err = execute("cpm", "ls", hd)
	require.NoError(t, err)
	assert.NotContains(t, stdout, " 3:NOTES.TXT", "not on partition 0")

	// CP/M on the board types the file lbplus cpm put on A:.
	got := runScriptWith(t, []string{"--hd0", hd},
		[]string{"A>", "A>", "Notes put by lbplus cpm put.\r\n\r\nA>"},
		[]string{"USER 2\r", "TYPE NOTES.TXT\r"})
	assert.Contains(t, got, "Notes put by")
}
