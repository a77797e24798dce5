package image

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Another program that writes, truncates, replaces or removes an open image
// (cpmtools and dd take no lock) is noticed at the next access: every later
// read and write fails with ErrChangedOnHost naming the file and what
// happened, and nothing of ours is written over the other program's work.
// Our own writes are not mistaken for it.
func TestChangedOnHost(t *testing.T) {
	theirs := bytes.Repeat([]byte{0x5a}, 16)
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
		what   string
	}{
		{"written", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteAt(theirs, 16*2)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, ": written: "},
		{"truncated", func(t *testing.T, path string) {
			require.NoError(t, os.Truncate(path, 16*4))
		}, ": now 64 bytes, was 128: "},
		{"replaced", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path+".new", bytes.Repeat(theirs, 8), 0o644))
			require.NoError(t, os.Rename(path+".new", path))
		}, ": replaced by another file: "},
		{"removed", func(t *testing.T, path string) {
			require.NoError(t, os.Remove(path))
		}, ": removed: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := create(t, 0)
			var m testMeta
			f, err := Open(p, &m, false)
			require.NoError(t, err)
			defer f.Close()
			buf := make([]byte, 16)
			for i := 0; i < 3; i++ { // our own writes are ours
				require.NoError(t, f.WriteBlock(int64(i), bytes.Repeat([]byte{0x11}, 16)))
				require.NoError(t, f.ReadBlock(int64(i), buf))
			}
			require.NoError(t, f.Fill(0x22))
			require.NoError(t, f.ReadBlock(1, buf))

			// File times tick with the kernel's clock, a few ms: let one
			// pass, as it does between a session's last write and the
			// user's cpmcp.
			nextTick(t, f)
			tc.change(t, p)
			before, _ := os.ReadFile(p)
			err = f.ReadBlock(1, buf)
			require.ErrorIs(t, err, ErrChangedOnHost)
			assert.Contains(t, err.Error(), p+tc.what)
			assert.ErrorIs(t, f.WriteBlock(2, bytes.Repeat([]byte{0x33}, 16)), ErrChangedOnHost)
			assert.ErrorIs(t, f.Fill(0x44), ErrChangedOnHost)
			assert.ErrorIs(t, f.ReadBlock(0, buf), ErrChangedOnHost, "it stays stopped")
			after, _ := os.ReadFile(p)
			assert.Equal(t, before, after, "nothing written over the other program's work")
		})
	}
}

// nextTick waits until a file written now gets a later modification time
// than f's last access of ours.
func nextTick(t *testing.T, f *File) {
	t.Helper()
	probe, err := os.CreateTemp(t.TempDir(), "tick")
	require.NoError(t, err)
	defer probe.Close()
	for i := 0; i < 1_000_000; i++ {
		_, err := probe.WriteAt([]byte{byte(i)}, 0)
		require.NoError(t, err)
		st, err := probe.Stat()
		require.NoError(t, err)
		if st.ModTime().UnixNano() > f.seen.Mtim.Nano() {
			return
		}
	}
	t.Fatal("the file clock never moved")
}

// A scratch image (a bench's own, which nothing else touches) skips that
// watch: a change made behind its back is read as it is.
func TestScratchSkipsTheWatch(t *testing.T) {
	p := create(t, 0)
	var m testMeta
	f, err := Open(p, &m, false)
	require.NoError(t, err)
	defer f.Close()
	f.Scratch()
	require.NoError(t, f.WriteBlock(1, bytes.Repeat([]byte{0x11}, 16)))
	nextTick(t, f)
	g, err := os.OpenFile(p, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = g.WriteAt(bytes.Repeat([]byte{0x5a}, 16), 16)
	require.NoError(t, err)
	require.NoError(t, g.Close())
	buf := make([]byte, 16)
	require.NoError(t, f.ReadBlock(1, buf))
	assert.Equal(t, bytes.Repeat([]byte{0x5a}, 16), buf)
	require.NoError(t, f.Sync())
}
