package image_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/internal/fuzztest"
)

// FuzzSidecar feeds arbitrary text as a disk's and a tape's sidecar: the
// reader must accept it with a valid layout or refuse it with an error that
// names the sidecar, never panic.
func FuzzSidecar(f *testing.F) {
	// One file rewritten per input (a worker runs one input at a time): a
	// fresh folder per input on disk held the rate near 300 a second.
	fuzztest.RAMTemp(f)
	dir := f.TempDir()
	for _, p := range []string{"d.img", "t.tape"} {
		path := filepath.Join(dir, p)
		var err error
		if p == "d.img" {
			err = acb4000.Create(path, acb4000.Geometries["st125"], true, 3)
		} else {
			err = mcd403.Create(path, 3)
		}
		if err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(image.SidecarPath(path))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("kind = \"mcd403-tape\"\nversion = 1\nwritten = [[0, 3], [2, 9]]\n")
	path := filepath.Join(dir, "x")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<14 {
			return
		}
		if err := os.WriteFile(image.SidecarPath(path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range []image.Meta{&acb4000.Meta{}, &mcd403.Meta{}} {
			err := image.ReadSidecar(path, m)
			if err != nil {
				continue
			}
			if bs, n := m.Layout(); bs <= 0 || n <= 0 {
				t.Fatalf("%T accepted with layout %d x %d", m, n, bs)
			}
		}
	})
}
