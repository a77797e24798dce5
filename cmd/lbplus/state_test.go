package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/bootdemo"
)

// The escape prompt's "save" writes the machine at the monitor prompt; a
// machine built from the same flags and loaded from the file answers the
// next commands exactly as the one that was saved: same console output,
// same time, same trace hash.
func TestRunSaveAndLoadState(t *testing.T) {
	dir := t.TempDir()
	disk := filepath.Join(dir, "hd0.img")
	bootDemoDisk(t, disk)
	state := filepath.Join(dir, "m.state")
	flags := []string{"--hd0", disk, "--save-state", state}

	sa, a, tyA, trA := sessionBoard(t, flags...)
	require.NoError(t, tyA.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, tyA.Type(" "))
	require.NoError(t, tyA.WaitFor("> "))
	require.NoError(t, os.WriteFile(state+".tmp", []byte("mine"), 0o644))
	msg, done := sa.runSave(a, nil)
	require.True(t, done, msg)
	assert.Contains(t, msg, "machine saved to "+state)
	mine, err := os.ReadFile(state + ".tmp")
	require.NoError(t, err, "the user's file beside the state is left alone")
	assert.Equal(t, "mine", string(mine))
	saved := len(trA.String())
	require.NoError(t, tyA.Type("B0\r"))
	require.NoError(t, tyA.WaitFor(bootdemo.Message+"0\r\n> "))
	require.NoError(t, a.Close())

	b, tyB, trB := flagBoard(t, flags...)
	require.NoError(t, loadStateFile(b, state))
	require.NoError(t, tyB.Type("B0\r"))
	require.NoError(t, tyB.WaitFor(bootdemo.Message+"0\r\n> "))
	assert.Equal(t, trA.String()[saved:], trB.String())
	assert.Equal(t, a.Now(), b.Now())
	assert.Equal(t, a.TraceHash(), b.TraceHash())
	require.NoError(t, b.Close())

	// The disk changed since (a write would): the state no longer fits.
	g, err := os.OpenFile(disk, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = g.WriteAt([]byte("changed"), 4096)
	require.NoError(t, err)
	require.NoError(t, g.Close())
	sc, c, _, _ := sessionBoard(t, flags...)
	err = loadStateFile(c, state)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hd0.img (SCSI ID 0 LUN 0) has changed since the state was saved")

	// "save FILE" at the prompt never overwrites the machine's own image
	// or its sidecar.
	before, err := os.ReadFile(disk)
	require.NoError(t, err)
	for _, p := range []string{disk, disk + ".toml"} {
		msg, done = sc.runSave(c, []string{p})
		assert.False(t, done, p)
		assert.Contains(t, msg, "it would be overwritten", p)
	}
	after, err := os.ReadFile(disk)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the image is untouched")

	msg, done = sc.runSave(c, []string{"a", "b"})
	assert.False(t, done)
	assert.Equal(t, "usage: save [FILE] (or start lbplus with --save-state FILE)\r\n", msg)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "junk"), []byte("not a state"), 0o644))
	assert.EqualError(t, loadStateFile(c, filepath.Join(dir, "junk")), filepath.Join(dir, "junk")+": not an lbplus save state")
}
