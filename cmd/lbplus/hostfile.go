package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/lbplus/lbplus/internal/durable"
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
	return durable.WriteFile(path, write)
}
