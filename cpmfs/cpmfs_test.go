package cpmfs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawFile is a raw image in cpmtools' order: sectors of tracks in a row.
type rawFile struct {
	f *os.File
	g Geometry
}

func (r rawFile) off(t, s int) int64 { return int64((t*r.g.SecTrk + s) * r.g.SecLen) }
func (r rawFile) ReadSector(t, s int, buf []byte) error {
	_, err := r.f.ReadAt(buf, r.off(t, s))
	return err
}
func (r rawFile) WriteSector(t, s int, buf []byte) error {
	_, err := r.f.WriteAt(buf, r.off(t, s))
	return err
}

var (
	amp2 = Geometry{Name: "amp2", SecLen: 512, SecTrk: 10, Tracks: 80, BlockSize: 2048, MaxDir: 128, BootTrk: 2}
	amp1 = Geometry{Name: "amp1", SecLen: 512, SecTrk: 10, Tracks: 40, BlockSize: 2048, MaxDir: 64, BootTrk: 2}
	// lbplus-hd1 of docs/diskdefs: 16-bit block numbers.
	hd1 = Geometry{Name: "lbplus-hd1", SecLen: 512, SecTrk: 16, Tracks: 1024, BlockSize: 4096, MaxDir: 512, BootTrk: 512}
)

// newImage makes an empty file system (E5h everywhere) of g in a file.
func newImage(t *testing.T, g Geometry) (string, *os.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), g.Name+".img")
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte{0xE5}, g.Tracks*g.SecTrk*g.SecLen), 0o644))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return path, f
}

func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*seed + i>>9)
	}
	return b
}

func cpmtools(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("cpmcp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cpmtools missing (make debs)")
		}
		t.Skip("cpmtools not installed (make debs)")
	}
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "docs", "diskdefs"))
	require.NoError(t, err)
	sys, _ := os.ReadFile("/etc/cpmtools/diskdefs")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), append(sys, defs...), 0o644))
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v: %s", args, out)
	return string(out)
}

// Files written here are read byte for byte by cpmtools, and files
// cpmtools writes are read here, across extents, user areas and both
// block-number widths.
func TestCpmtoolsAgree(t *testing.T) {
	dir := cpmtools(t)
	for _, g := range []Geometry{amp2, hd1} {
		t.Run(g.Name, func(t *testing.T) {
			path, f := newImage(t, g)
			fs, err := Open(rawFile{f, g}, g)
			require.NoError(t, err)
			files := []struct {
				user int
				name string
				data []byte
			}{
				{0, "SMALL.TXT", []byte("hello\r\n")},
				{0, "BIG.BIN", pattern(70*1024+300, 7)}, // several extents
				{5, "U5.COM", pattern(4096, 3)},
				{0, "EMPTY", nil},
			}
			for _, x := range files {
				require.NoError(t, fs.Write(x.user, x.name, x.data))
			}
			ls := run(t, dir, "cpmls", "-f", g.Name, path)
			for _, x := range files {
				assert.Contains(t, ls, strings.ToLower(x.name))
				out := filepath.Join(t.TempDir(), "out")
				run(t, dir, "cpmcp", "-f", g.Name, path, string(rune('0'+x.user/10))+string(rune('0'+x.user%10))+":"+x.name, out)
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				want := append(append([]byte(nil), x.data...), bytes.Repeat([]byte{0x1A}, (128-len(x.data)%128)%128)...)
				assert.True(t, bytes.Equal(want, got), "%s: cpmcp reads what cpmfs wrote (%d bytes, got %d)", x.name, len(want), len(got))
			}

			in := filepath.Join(t.TempDir(), "in.bin")
			data := pattern(100*1024, 11)
			require.NoError(t, os.WriteFile(in, data, 0o644))
			run(t, dir, "cpmcp", "-f", g.Name, path, in, "3:FROMTOOL.BIN")
			fs, err = Open(rawFile{f, g}, g)
			require.NoError(t, err)
			got, err := fs.Read(3, "fromtool.bin")
			require.NoError(t, err)
			assert.True(t, bytes.Equal(data, got), "cpmfs reads what cpmcp wrote")
			assert.Contains(t, fs.List(), File{User: 3, Name: "FROMTOOL.BIN", Size: len(data)})

			require.NoError(t, fs.Write(0, "BIG.BIN", []byte("now small")), "replace")
			require.NoError(t, fs.Delete(5, "U5.COM"))
			ls = run(t, dir, "cpmls", "-f", g.Name, path)
			assert.NotContains(t, ls, "u5.com")
			out := filepath.Join(t.TempDir(), "big")
			run(t, dir, "cpmcp", "-f", g.Name, path, "0:BIG.BIN", out)
			got, err = os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, "now small", string(bytes.TrimRight(got, "\x1a")))
			run(t, dir, "fsck.cpm", "-n", "-f", g.Name, path)
		})
	}
}

func TestErrors(t *testing.T) {
	_, f := newImage(t, amp1)
	fs, err := Open(rawFile{f, amp1}, amp1)
	require.NoError(t, err)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fs.Write(0, "TOOLONGNAME.TXT", nil), "not a CP/M file name"},
		{fs.Write(0, "A*.TXT", nil), "not allowed"},
		{fs.Write(16, "A.TXT", nil), "users 0-15"},
		{fs.Write(0, "HUGE.BIN", make([]byte, 200*1024)), "disk full"},
	} {
		assert.ErrorContains(t, tc.err, tc.want)
	}
	_, err = fs.Read(0, "NONE.TXT")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Empty(t, fs.List(), "failed writes leave nothing behind")
	for i := 0; i < 64; i++ {
		require.NoError(t, fs.Write(0, "F"+string(rune('A'+i/26))+string(rune('A'+i%26)), nil))
	}
	assert.ErrorContains(t, fs.Write(0, "ONEMORE", nil), "directory full")
	_, err = Open(rawFile{f, amp1}, Geometry{Name: "bad", SecLen: 100})
	assert.ErrorContains(t, err, "sector length")
}
