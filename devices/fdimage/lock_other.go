//go:build !unix

package fdimage

import "os"

// lock is a no-op where flock(2) is unavailable (see the package doc).
func lock(f *os.File, exclusive bool) error { return nil }
