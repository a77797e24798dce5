package main

import (
	"slices"
	"strings"

	"github.com/lbplus/lbplus/emu"
)

// menuCommand is one command of the console's escape prompt (Ctrl-\ on the
// terminal). Each file gives its own (menuCommands puts them together), so
// the menu grows without this file changing much.
type menuCommand struct {
	name, short string // full name and one-letter abbreviation
	usage       string // shown in the command list
	// run carries the command out between two slices of simulated time
	// and returns the reply (lines joined by CR LF, no final CR LF).
	run func(b *emu.Board, args []string) string
}

// menuCommands are the escape prompt's commands, in the order the list of
// them shows: the debugger's (debug.go), the floppy drives' (floppy.go),
// the board's buttons.
func (s *runSession) menuCommands() []menuCommand {
	return slices.Concat([]menuCommand{s.debugMenuCommand()}, floppyMenuCommands(), boardMenuCommands())
}

// menuCommand runs one line of the escape prompt on the board and returns
// the reply, CR LF terminated; an unknown command lists them all.
func (s *runSession) menuCommand(b *emu.Board, line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	for _, c := range s.menu {
		if f[0] == c.name || f[0] == c.short {
			return c.run(b, f[1:]) + "\r\n"
		}
	}
	usages := make([]string, len(s.menu))
	for i, c := range s.menu {
		usages[i] = c.usage
	}
	return "commands: " + strings.Join(usages, " | ") + "  (Ctrl-] quits)\r\n"
}

// boardMenuCommands are the board's buttons.
func boardMenuCommands() []menuCommand {
	return []menuCommand{
		// The reset button: after DI; HALT only this (or quitting) helps.
		{name: "reset", short: "r", usage: "reset",
			run: func(b *emu.Board, _ []string) string {
				b.Reset()
				return "board reset"
			}},
		// An NMI, as a front-panel button would give: the CPU calls 0066h.
		{name: "nmi", short: "n", usage: "nmi",
			run: func(b *emu.Board, _ []string) string {
				b.CPU().NMI()
				return "NMI sent (the CPU calls 0066h)"
			}},
	}
}
