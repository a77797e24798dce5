// Package durable writes a file so that a crash or a failed write never
// leaves half of it: the contents go to a unique temporary beside the
// file, which is synced and then renamed over it.
package durable

import (
	"io"
	"os"
	"path/filepath"
)

// WriteFile fills a unique temporary beside path with write, syncs it and
// renames it to path (mode 0644), replacing what was there. On any error
// the temporary is removed and path is untouched. A fixed PATH.tmp could
// be a file of the user's, so the temporary's name is unique.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
