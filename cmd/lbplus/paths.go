package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lbplus/lbplus/devices/image"
)

// outputFile is a file a command will write, named by its flag.
type outputFile struct {
	flag, path string
}

// checkOutputs refuses, before anything is opened for writing, an output
// that would destroy an input or another output: the same file as an
// input (image, ROM, source) or its sidecar, any disk or tape image or
// sidecar (an image another process has locked included), or the same
// file as another output. Outputs whose path is "" are not given. It also
// refuses an output in a missing folder or that is a folder.
func checkOutputs(inputs []string, outs ...outputFile) error {
	var given []outputFile
	for _, o := range outs {
		if o.path != "" {
			given = append(given, o)
		}
	}
	for i, o := range given {
		if st, err := os.Stat(o.path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a directory", o.flag, o.path)
		}
		if st, err := os.Stat(filepath.Dir(o.path)); err != nil || !st.IsDir() {
			return fmt.Errorf("%s %s: folder %s does not exist", o.flag, o.path, filepath.Dir(o.path))
		}
		for _, in := range inputs {
			if in == "" {
				continue
			}
			if sameFile(o.path, in) {
				return fmt.Errorf("%s %s: is also an input; it would be overwritten", o.flag, o.path)
			}
			if sameFile(o.path, image.SidecarPath(in)) {
				return fmt.Errorf("%s %s: is the sidecar of input %s; it would be overwritten", o.flag, o.path, in)
			}
		}
		if image.InUse(o.path) {
			return fmt.Errorf("%s %s: is locked by a running emulator (an image in use); refusing to overwrite it", o.flag, o.path)
		}
		if isFile(image.SidecarPath(o.path)) {
			return fmt.Errorf("%s %s: is a disk or tape image (it has a sidecar %s); refusing to overwrite it", o.flag, o.path, image.SidecarPath(o.path))
		}
		if strings.HasSuffix(o.path, ".toml") && isFile(strings.TrimSuffix(o.path, ".toml")) {
			return fmt.Errorf("%s %s: is the sidecar of image %s; refusing to overwrite it", o.flag, o.path, strings.TrimSuffix(o.path, ".toml"))
		}
		for _, p := range given[:i] {
			if sameFile(o.path, p.path) {
				return fmt.Errorf("%s and %s: both write %s; give two files", p.flag, o.flag, o.path)
			}
		}
	}
	return nil
}

// sameFile reports whether a and b name one file: the same existing file
// (links and other spellings included) or, for a file not made yet, the
// same absolute path.
func sameFile(a, b string) bool {
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// readInput reads a small input file whole: a regular file of at most
// limit bytes (a named pipe would block, /dev/zero never end). Errors name
// the file.
func readInput(path string, limit int64) ([]byte, error) {
	if err := checkRegularInput(path); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil && st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", path, st.Size(), limit)
	}
	return os.ReadFile(path)
}

// checkRegularInput refuses an input that is missing, a folder, or not a
// regular file (a named pipe blocks until a writer comes, a device may
// never end).
func checkRegularInput(path string) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %s, not a regular file", path, image.FileKind(st.Mode()))
	}
	return nil
}
