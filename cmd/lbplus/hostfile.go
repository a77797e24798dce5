package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// writeHostFile writes a file on the host durably: write fills a unique
// temporary beside path, which is synced and then renamed over path, so a
// crash or a failed write never leaves half a file. Unless replace is set,
// a file already at path is refused (one line naming it), never
// overwritten.
func writeHostFile(path string, replace bool, write func(io.Writer) error) error {
	if !replace {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: exists (--force replaces it)", path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	// A unique temporary beside path: a fixed PATH.tmp could be a file of
	// the user's.
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
