package window

// The top bar: speed, simulated time and the key hints.

import (
	"fmt"
	"strings"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

// hints are the top bar's key hints in the order shown; prio is the
// order they are kept in when the bar is too narrow for all (the
// console's Tab first: without it the keyboard cannot reach the console).
var hints = []struct {
	s    string
	prio int
}{{"F5 run/pause", 1}, {"F10 over", 2}, {"F11 into", 3}, {"S-F11 out", 9}, {"C-F11 T-state", 10}, {"F9 break", 4},
	{"F6 phase", 5}, {"F7 cmd", 6}, {"F8 byte", 7}, {"S-F7 fdc cmd", 12}, {"S-F8 index", 13}, {"F2 speed", 8},
	{"F3/F4 save/load", 11}, {"Tab console", 0}}

// hintsFitting is the hints that fit in n characters, two spaces apart,
// the most important first, shown in their order.
func hintsFitting(n int) string {
	order := make([]int, len(hints))
	for i, h := range hints {
		order[h.prio] = i
	}
	keep := make([]bool, len(hints))
	used := -2
	for _, i := range order {
		if used+2+len(hints[i].s) > n {
			break
		}
		used += 2 + len(hints[i].s)
		keep[i] = true
	}
	var out []string
	for i, h := range hints {
		if keep[i] {
			out = append(out, h.s)
		}
	}
	return strings.Join(out, "  ")
}

func (w *Window) drawTop(c *canvas) {
	rect(c, topArea, colPanel)
	m := w.d.Machine()
	focus := ""
	if w.ConsoleFocus {
		focus = "  [keyboard -> console, Tab to leave]"
	}
	s := fmt.Sprintf("%-9s  %s  T=%d%s", w.speedText(), debugger.FormatTime(m.Now()), m.Now()/sched.TState, focus)
	print(c, 8, 4, s, colText)
	// The hints take the rest of the bar, right-aligned, never over the
	// state on the left.
	h := hintsFitting(chars(topArea.Dx()-16) - len(s) - 4)
	print(c, topArea.Max.X-8-textW(h), 4, h, colDim)
}
