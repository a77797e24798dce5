//go:build unix

package fdimage

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock takes a non-blocking flock on f: exclusive for writers, shared for
// readers. flock locks belong to the open file description, so a second Open
// in the same process is refused too.
func lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("image is in use by another emulator (locked)")
	}
	return err
}
