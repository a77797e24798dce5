//go:build !unix

package image

import "os"

// Lock is a no-op where flock(2) is unavailable (see the package doc).
func Lock(f *os.File, exclusive bool) error { return nil }

// InUse cannot tell without flock(2); see the package doc.
func InUse(path string) bool { return false }
