package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.rom")
	if err := os.WriteFile(odd, make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, rom, speed, console, want string
	}{
		{"rom size", odd, "max", "stdio", odd + ": ROM image is 5000 bytes"},
		{"missing rom", filepath.Join(dir, "none.rom"), "max", "stdio", "none.rom"},
		{"speed", "", "warp", "stdio", `--speed "warp": want realtime or max`},
		{"console", "", "max", "serial", `console "serial": want stdio or tcp:PORT`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runFlags.rom, runFlags.speed, runFlags.console, runFlags.scsiID = tt.rom, tt.speed, tt.console, 7
			err := runBoard(runCmd, nil)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
