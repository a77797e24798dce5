package window

// The top bar: speed, simulated time and the key hints.

import (
	"fmt"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

func (w *Window) drawTop(c *canvas) {
	rect(c, topArea, colPanel)
	m := w.d.Machine()
	focus := ""
	if w.ConsoleFocus {
		focus = "  [keyboard -> console, Tab to leave]"
	}
	s := fmt.Sprintf("%-9s  %s  T=%d%s", w.speedText(), debugger.FormatTime(m.Now()), m.Now()/sched.TState, focus)
	print(c, 8, 4, s, colText)
	print(c, 520, 4, "F5 run/pause  F10 over  F11 into  S-F11 out  C-F11 T-state  F9 break  F6 phase  F7 cmd  F8 byte  S-F7 fdc cmd  S-F8 index  F2 speed  F3/F4 save/load  Tab console", colDim)
}
