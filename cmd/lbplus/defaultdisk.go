package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lbplus/lbplus/sysdisk"
)

// DefaultDiskName is the default system disk's file in the data directory.
const DefaultDiskName = "cpm-hd0.img"

// dataDir is where lbplus keeps the user's default system disk:
// $XDG_DATA_HOME/lbplus, or ~/.local/share/lbplus without it (the XDG base
// directory convention; the same path on every system, so the README can
// name it).
func dataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "lbplus"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no place for the default system disk: %w (set XDG_DATA_HOME)", err)
	}
	return filepath.Join(home, ".local", "share", "lbplus"), nil
}

// defaultSystemDisk returns the default system disk, making it on first
// use (sysdisk.MakeDefault: an ST-125 image with lbplus's CP/M installed,
// as lbplus disk create --system makes it; an interrupted first run leaves
// no half-made disk). Files the user writes to it persist from run to
// run; deleting it starts fresh.
func defaultSystemDisk(w io.Writer) (string, error) {
	dir, err := dataDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, DefaultDiskName)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("default system disk: %w", err)
	}
	if err := sysdisk.MakeDefault(path); err != nil {
		return "", err
	}
	fmt.Fprintf(w, "lbplus: made the default system disk %s (delete it to start fresh)\r\n", path)
	return path, nil
}
