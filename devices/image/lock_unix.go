//go:build unix

package image

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Lock takes a non-blocking flock on f: exclusive for writers, shared for
// readers. flock locks belong to the open file description, so a second Open
// in the same process is refused too. Every image kind uses it (disk, tape,
// floppy images).
func Lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("image is in use (locked by another emulator, or given twice)")
	}
	return err
}

// InUse reports whether another open file description holds a lock on the
// regular file at path (an emulator has the image open), so a command can
// refuse to write over it. Anything that is not a regular file, or cannot
// be opened, is not reported in use.
func InUse(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK)
}
