package cpmbios_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

// A program on the host writes into the disk image while CP/M runs from it
// (cpmtools and dd take no lock): the next access stops the machine with
// one error naming the image, and CP/M's SAVE that follows never reaches
// the file, so what the other program wrote stays.
func TestImageChangedOnTheHost(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	theirs := bytes.Repeat([]byte("theirs! "), 64)
	waitFileTick(t, path)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	const block = 600 // in partition 0's data area
	_, err = f.WriteAt(theirs, block*512)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	require.NoError(t, r.ty.Type("SAVE 4 MINE.COM\r"))
	err = r.ty.WaitFor("A>")
	require.ErrorIs(t, err, image.ErrChangedOnHost)
	assert.EqualError(t, err, path+": written: changed by another program while lbplus had it open (nothing more is written to it)")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the image is as the other program left it")
}

// waitFileTick waits until a file written now gets a later modification
// time than path's: file times tick with the kernel's clock.
func waitFileTick(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	probe := filepath.Join(t.TempDir(), "tick")
	for i := 0; i < 1_000_000; i++ {
		require.NoError(t, os.WriteFile(probe, []byte{byte(i)}, 0o644))
		pst, err := os.Stat(probe)
		require.NoError(t, err)
		if pst.ModTime().After(st.ModTime()) {
			return
		}
	}
	t.Fatal("the file clock never moved")
}
