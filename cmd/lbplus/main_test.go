package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps `lbplus run` in tests away from the user's data directory:
// the default system disk goes to a temporary XDG_DATA_HOME.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lbplus-data")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
