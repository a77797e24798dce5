package mcd403

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/image"
)

func readSidecarForTest(path string, m *Meta) error { return image.ReadSidecar(path, m) }

func TestCreateOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.tape")
	require.NoError(t, Create(path, 4))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(4848*8192), st.Size())
	tp, err := Open(path, false)
	require.NoError(t, err)
	assert.Equal(t, 4, tp.Interleave())
	buf := make([]byte, 8192)
	blank, err := tp.ReadBlock(0, buf)
	require.NoError(t, err)
	assert.True(t, blank)

	_, err = Open(path, false)
	assert.Error(t, err, "locked while in use")
	require.NoError(t, tp.Close())

	assert.ErrorContains(t, Create(path, 4), "already exists")
	assert.ErrorContains(t, Create(filepath.Join(t.TempDir(), "y"), 0), "interleave 0")
}

func TestBadSidecars(t *testing.T) {
	for _, tc := range []struct{ name, sidecar, want string }{
		{"disk image", "kind = \"acb4000-disk\"\nversion = 1\n", "an acb4000-disk image, not a mcd403-tape image"},
		{"future version", "kind = \"mcd403-tape\"\nversion = 9\nblock_size = 8192\nblocks = 4848\ninterleave = 3\nunwritten = \"zeros\"\n", "version 9"},
		{"bad ranges", "kind = \"mcd403-tape\"\nversion = 1\nblock_size = 8192\nblocks = 4848\ninterleave = 3\nunwritten = \"zeros\"\nwritten = [[5, 3]]\n", "written range"},
		{"unknown key", "kind = \"mcd403-tape\"\nversion = 1\nblock_size = 8192\nblocks = 4848\ninterleave = 3\nunwritten = \"zeros\"\ncolour = 1\n", "unknown keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.tape")
			require.NoError(t, Create(path, 3))
			require.NoError(t, os.WriteFile(path+".toml", []byte(tc.sidecar), 0o644))
			_, err := Open(path, false)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "x.tape")
		})
	}
}

func TestMissingFiles(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(filepath.Join(dir, "none.tape"), false)
	assert.ErrorContains(t, err, "none.tape")
	raw := filepath.Join(dir, "raw.tape")
	require.NoError(t, os.WriteFile(raw, make([]byte, 8192), 0o644))
	_, err = Open(raw, false)
	assert.ErrorContains(t, err, "raw.tape.toml is missing")
	assert.ErrorContains(t, err, "lbplus tape create")
	// A raw file of the wrong size with a good sidecar.
	require.NoError(t, Create(filepath.Join(dir, "s.tape"), 3))
	require.NoError(t, os.Truncate(filepath.Join(dir, "s.tape"), 8192))
	_, err = Open(filepath.Join(dir, "s.tape"), false)
	assert.ErrorContains(t, err, "s.tape: size 8192 bytes")
}

func TestUnwrittenZeros(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.tape")
	m := NewMeta(3)
	m.Unwritten = UnwrittenZeros
	require.NoError(t, image.Create(path, m, 0))
	tp, err := Open(path, false)
	require.NoError(t, err)
	defer tp.Close()
	buf := []byte{1, 2, 3}
	buf = append(buf, make([]byte, 8189)...)
	blank, err := tp.ReadBlock(9, buf)
	require.NoError(t, err)
	assert.False(t, blank)
	assert.Equal(t, make([]byte, 8192), buf)
}

func TestRanges(t *testing.T) {
	w := make([]bool, 10)
	for _, b := range []int{0, 1, 2, 5, 9} {
		w[b] = true
	}
	assert.Equal(t, [][]int{{0, 2}, {5, 5}, {9, 9}}, ranges(w))
}

// A scratch cartridge reads back what it wrote at once, and its sidecar
// learns the written blocks when it closes, not before.
func TestScratchSavesWrittenListOnClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.tape")
	require.NoError(t, Create(path, 3))
	tp, err := Open(path, false)
	require.NoError(t, err)
	tp.Scratch()
	blk := make([]byte, 8192)
	for i := range blk {
		blk[i] = byte(i * 7)
	}
	require.NoError(t, tp.WriteBlock(5, blk))
	require.NoError(t, tp.WriteBlock(6, blk))
	got := make([]byte, 8192)
	blank, err := tp.ReadBlock(5, got)
	require.NoError(t, err)
	assert.False(t, blank)
	assert.Equal(t, blk, got)

	var m Meta
	require.NoError(t, readSidecarForTest(path, &m))
	assert.Empty(t, m.Written, "not saved before it closes")
	require.NoError(t, tp.Close())
	require.NoError(t, readSidecarForTest(path, &m))
	assert.Equal(t, [][]int{{5, 6}}, m.Written)

	tp, err = Open(path, false)
	require.NoError(t, err)
	defer tp.Close()
	blank, err = tp.ReadBlock(6, got)
	require.NoError(t, err)
	assert.False(t, blank)
	assert.Equal(t, blk, got)
}
