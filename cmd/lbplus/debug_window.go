//go:build window

package main

import (
	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/debugger/window"
	"github.com/lbplus/lbplus/emu"
)

// openWindow runs the debugger window on the board (the lbplus-window
// build: ebiten needs a display as soon as the program starts, so only
// this build links it). F3 and F4 save and load the machine in
// stateFile; toWindow receives the console callback.
func openWindow(d *debugger.Debugger, board *emu.Board, cfg emu.Config, stateFile string, toWindow *func(byte)) error {
	w := window.New(d, window.Options{Title: "lbplus debugger - " + cfg.ROMName, Chip: board.NCR5380(),
		ConsoleIn: board.ConsoleInput, Panels: debugger.DevicePanels(board), StateFile: stateFile,
		Runner: true})
	*toWindow = w.Console
	return window.Run(w)
}

// handOffWindow: this build opens the window itself.
func handOffWindow() error { return nil }
