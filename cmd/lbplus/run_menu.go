package main

import (
	"strings"

	"github.com/lbplus/lbplus/emu"
)

// menuCommand is one command of the console's escape prompt (Ctrl-\ on the
// terminal): a file adds its own in init with addMenuCommand, so the menu
// grows without this file changing.
type menuCommand struct {
	name, short string // full name and one-letter abbreviation
	usage       string // shown in the command list
	// run carries the command out between two slices of simulated time
	// and returns the reply (lines joined by CR LF, no final CR LF).
	run func(b *emu.Board, args []string) string
}

var menuCommands []menuCommand

func addMenuCommand(c menuCommand) { menuCommands = append(menuCommands, c) }

// runMenuCommand runs one line of the escape prompt on the board and
// returns the reply, CR LF terminated; an unknown command lists them all.
func runMenuCommand(b *emu.Board, line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	for _, c := range menuCommands {
		if f[0] == c.name || f[0] == c.short {
			return c.run(b, f[1:]) + "\r\n"
		}
	}
	usages := make([]string, len(menuCommands))
	for i, c := range menuCommands {
		usages[i] = c.usage
	}
	return "commands: " + strings.Join(usages, " | ") + "  (Ctrl-] quits)\r\n"
}

func init() {
	// The reset button: after DI; HALT only this (or quitting) helps.
	addMenuCommand(menuCommand{name: "reset", short: "r", usage: "reset",
		run: func(b *emu.Board, _ []string) string {
			b.Reset()
			return "board reset"
		}})
	// An NMI, as a front-panel button would give: the CPU calls 0066h.
	addMenuCommand(menuCommand{name: "nmi", short: "n", usage: "nmi",
		run: func(b *emu.Board, _ []string) string {
			b.CPU().NMI()
			return "NMI sent (the CPU calls 0066h)"
		}})
}
