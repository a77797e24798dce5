package image

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testMeta struct {
	Version   int    `toml:"version"`
	Kind      string `toml:"kind"`
	BlockSize int    `toml:"block_size"`
	Blocks    int64  `toml:"blocks"`
	Note      string `toml:"note"`
}

func (m *testMeta) ImageKind() string    { return "test" }
func (m *testMeta) Layout() (int, int64) { return m.BlockSize, m.Blocks }
func (m *testMeta) Validate() error {
	if m.Version != 1 || m.Kind != "test" {
		return errors.New("not a version 1 test image")
	}
	return nil
}

func newMeta() *testMeta {
	return &testMeta{Version: 1, Kind: "test", BlockSize: 16, Blocks: 8, Note: "x"}
}

func create(t *testing.T, fill byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "img")
	require.NoError(t, Create(p, newMeta(), fill))
	return p
}

func TestCreateOpenRoundTrip(t *testing.T) {
	for _, fill := range []byte{0, 0x6c} {
		p := create(t, fill)
		var m testMeta
		f, err := Open(p, &m, false)
		require.NoError(t, err)
		assert.Equal(t, *newMeta(), m)
		buf := make([]byte, 16)
		require.NoError(t, f.ReadBlock(7, buf))
		assert.Equal(t, bytes.Repeat([]byte{fill}, 16), buf)
		require.NoError(t, f.WriteBlock(3, bytes.Repeat([]byte{0xa5}, 16)))
		require.NoError(t, f.Close())
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, bytes.Repeat([]byte{0xa5}, 16), raw[48:64])
		left, err := filepath.Glob(filepath.Join(filepath.Dir(p), "*tmp*"))
		require.NoError(t, err)
		assert.Empty(t, left, "no temporary left behind")
	}
}

// TestCreateAfterKilledCreate: a temporary left by a killed Create (the old
// FILE.tmp name included) must not make the next Create fail.
func TestCreateAfterKilledCreate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "img")
	require.NoError(t, os.WriteFile(p+".tmp", []byte("half"), 0o644))
	require.NoError(t, os.WriteFile(SidecarPath(p)+".tmp", []byte("half"), 0o644))
	require.NoError(t, Create(p, newMeta(), 0))
	f, err := Open(p, &testMeta{}, false)
	require.NoError(t, err)
	require.NoError(t, f.SaveMeta(newMeta()))
	require.NoError(t, f.Close())
}

func TestCreateRefusesExisting(t *testing.T) {
	p := create(t, 0)
	err := Create(p, newMeta(), 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already exists")
}

func TestLockedTwice(t *testing.T) {
	p := create(t, 0)
	f, err := Open(p, &testMeta{}, false)
	require.NoError(t, err)
	_, err = Open(p, &testMeta{}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "in use")
	assert.Contains(t, err.Error(), p)
	_, err = Open(p, &testMeta{}, true)
	require.Error(t, err, "a reader must not share a writer's image")
	require.NoError(t, f.Close())
	g, err := Open(p, &testMeta{}, false)
	require.NoError(t, err, "closing releases the lock")
	require.NoError(t, g.Close())
	r1, err := Open(p, &testMeta{}, true)
	require.NoError(t, err)
	r2, err := Open(p, &testMeta{}, true)
	require.NoError(t, err, "readers share")
	r1.Close()
	r2.Close()
}

func TestMismatches(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(p string)
		want   string
	}{
		{"short file", func(p string) { os.Truncate(p, 100) }, "size 100 bytes"},
		{"long file", func(p string) { os.Truncate(p, 200) }, "size 200 bytes"},
		{"no sidecar", func(p string) { os.Remove(SidecarPath(p)) }, "missing"},
		{"bad toml", func(p string) { os.WriteFile(SidecarPath(p), []byte("version = ["), 0o644) }, ".toml"},
		{"unknown key", func(p string) {
			os.WriteFile(SidecarPath(p), []byte("version=1\nkind=\"test\"\nblock_size=16\nblocks=8\nheads=9\n"), 0o644)
		}, "unknown keys heads"},
		{"wrong version", func(p string) {
			os.WriteFile(SidecarPath(p), []byte("version=2\nkind=\"test\"\nblock_size=16\nblocks=8\n"), 0o644)
		}, "not a version 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := create(t, 0x6c)
			c.break_(p)
			before, _ := os.ReadFile(p)
			_, err := Open(p, &testMeta{}, false)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), p)
			after, _ := os.ReadFile(p)
			assert.Equal(t, before, after, "a refused open writes nothing")
			// and the refused open released its lock
			if c.name == "short file" {
				os.Truncate(p, 128)
				f, err := Open(p, &testMeta{}, false)
				require.NoError(t, err)
				f.Close()
			}
		})
	}
}

func TestBlockRange(t *testing.T) {
	p := create(t, 0)
	f, err := Open(p, &testMeta{}, false)
	require.NoError(t, err)
	defer f.Close()
	assert.Error(t, f.ReadBlock(8, make([]byte, 16)))
	assert.Error(t, f.ReadBlock(-1, make([]byte, 16)))
	assert.Error(t, f.WriteBlock(0, make([]byte, 15)))
}

func TestSaveMetaAndFill(t *testing.T) {
	p := create(t, 0x6c)
	var m testMeta
	f, err := Open(p, &m, false)
	require.NoError(t, err)
	require.NoError(t, f.Fill(0))
	m.Note = "formatted"
	require.NoError(t, f.SaveMeta(&m))
	bad := m
	bad.Blocks = 9
	assert.Error(t, f.SaveMeta(&bad), "layout must not change under an open image")
	require.NoError(t, f.Close())
	var m2 testMeta
	require.NoError(t, ReadSidecar(p, &m2))
	assert.Equal(t, "formatted", m2.Note)
	raw, _ := os.ReadFile(p)
	assert.Equal(t, make([]byte, 128), raw)
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	p := create(t, 0)
	f, err := Open(p, &testMeta{}, true)
	require.NoError(t, err)
	defer f.Close()
	assert.Error(t, f.WriteBlock(0, make([]byte, 16)))
	assert.Error(t, f.Fill(1))
}

// TestOddPaths: what is not an image says so, by name, and nothing hangs on
// a file that never ends.
func TestOddPaths(t *testing.T) {
	dir := t.TempDir()
	huge := create(t, 0)
	require.NoError(t, os.WriteFile(SidecarPath(huge), bytes.Repeat([]byte("# x\n"), MaxSidecarBytes/4+1), 0o644))
	devSidecar := create(t, 0)
	require.NoError(t, os.Remove(SidecarPath(devSidecar)))
	require.NoError(t, os.Symlink("/dev/zero", SidecarPath(devSidecar)))
	otherKind := create(t, 0)
	require.NoError(t, os.WriteFile(SidecarPath(otherKind), []byte("version=1\nkind=\"tape\"\nblock_size=16\nblocks=8\nwritten=[]\n"), 0o644))
	cases := []struct{ name, path, want string }{
		{"directory", dir, "is a directory, not an image file"},
		{"missing", filepath.Join(dir, "nope"), "no such image file"},
		{"device", "/dev/zero", "not a regular file"},
		{"device sidecar", devSidecar, "not a regular file"},
		{"huge sidecar", huge, "not a sidecar"},
		{"other kind", otherKind, "a tape image, not a test image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, ro := range []bool{false, true} {
				err := openWithin(t, c.path, ro)
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.want)
				assert.Contains(t, err.Error(), c.path)
			}
		})
	}
}

// openWithin opens path and fails the test if that takes over 5 s.
func openWithin(t *testing.T, path string, ro bool) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, err := Open(path, &testMeta{}, ro)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("Open(%s) hangs", path)
		return nil
	}
}

func TestNotWritableSaysReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file; run as a user to check the message")
	}
	p := create(t, 0)
	require.NoError(t, os.Chmod(p, 0o444))
	_, err := Open(p, &testMeta{}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), p+",ro")
	f, err := Open(p, &testMeta{}, true)
	require.NoError(t, err)
	f.Close()
}

// TestOpenErrorNotWritable: an image the user may read but not write (no
// permission, or a read-only file system) is explained with the way out,
// attaching it read-only, not as a bare "permission denied".
func TestOpenErrorNotWritable(t *testing.T) {
	for _, c := range []struct {
		err      error
		readOnly bool
		want     string
	}{
		{syscall.EACCES, false, "d.img: not writable by this user (permission denied); attach it read-only as d.img,ro"},
		{syscall.EPERM, false, "d.img: not writable by this user (operation not permitted); attach it read-only as d.img,ro"},
		{syscall.EROFS, false, "d.img: on a read-only file system (read-only file system); attach it read-only as d.img,ro"},
		{syscall.EACCES, true, "d.img: permission denied"},
		{syscall.ENOENT, false, "d.img: no such file or directory"},
	} {
		err := openError("d.img", &os.PathError{Op: "open", Path: "d.img", Err: c.err}, c.readOnly)
		assert.EqualError(t, err, c.want)
	}
	if os.Geteuid() != 0 { // root may write anything
		path := create(t, 0)
		require.NoError(t, os.Chmod(path, 0o444))
		_, err := Open(path, &testMeta{}, false)
		assert.ErrorContains(t, err, "attach it read-only as "+path+",ro")
	}
}
