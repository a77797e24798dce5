// Package fuzztest holds what the fuzz targets share.
package fuzztest

import (
	"os"
	"testing"
)

// RAMTemp puts the fuzz target's temporary files (TempDir, os.MkdirTemp
// with an empty folder) on a RAM file system when the host has one
// (/dev/shm). The image layer fsyncs every image it writes: on a RAM file
// system that costs about 0.2 ms instead of about 14 ms on disk, so the
// fuzzer keeps thousands of inputs a second. Call it before the target's
// first TempDir.
func RAMTemp(f *testing.F) {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		f.Setenv("TMPDIR", "/dev/shm")
	}
}
