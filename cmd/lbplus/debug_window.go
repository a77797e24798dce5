//go:build window

package main

import (
	"os"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/debugger/window"
	"github.com/lbplus/lbplus/emu"
)

// openWindow runs the debugger window on the board (the lbplus-window
// build: ebiten needs a display as soon as the program starts, so only
// this build links it). F3 and F4 save and load the machine in
// stateFile; toWindow receives the console callback. A script (debug
// --script FILE --window, bench backup --debug --debug-script FILE) runs
// in the window, its output also on stdout.
func openWindow(d *debugger.Debugger, board *emu.Board, cfg emu.Config, stateFile, script string, toWindow *func(byte)) error {
	w := window.New(d, window.Options{Title: "lbplus debugger - " + cfg.ROMName, Text: debugger.NewText(d, board, nil),
		StateFile: stateFile, Runner: true})
	*toWindow = w.Console
	if path := script; path != "" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = w.RunScript(f, path, os.Stdout)
		f.Close()
		if err != nil {
			return err
		}
	}
	return window.Run(w)
}

// handOffWindow: this build opens the window itself, when there is a
// display to open it on (one started without a display is refused at
// once, as lbplus refuses it, rather than left waiting for a window no
// one can see).
func handOffWindow() error { return checkDisplay() }
