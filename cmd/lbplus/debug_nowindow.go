//go:build !window

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/emu"
)

// WindowBinary is the build of lbplus that links the window (go build
// -tags window; make build puts it beside lbplus). It is a separate
// program because ebiten opens the display when a program that links it
// starts, and panics without one: lbplus itself must run on machines
// without a display.
const WindowBinary = "lbplus-window"

// handOffWindow replaces this process with lbplus-window, found beside
// this program, given the same command line, after checking that there is
// a display to open. It returns only on error.
func handOffWindow() error {
	if err := checkDisplay(); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("debug: %w", err)
	}
	bin := filepath.Join(filepath.Dir(self), WindowBinary)
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("debug: the window is the program %s beside %s (make build makes it)", WindowBinary, self)
	}
	return fmt.Errorf("debug: %w", syscall.Exec(bin, append([]string{bin}, os.Args[1:]...), os.Environ()))
}

func openWindow(*debugger.Debugger, *emu.Board, emu.Config, string, string, *func(byte)) error {
	return errors.New("debug: this build of lbplus has no window (build with -tags window)")
}
