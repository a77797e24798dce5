package window

// The stack panel: words from SP with their labels.

import (
	"fmt"
)

func (w *Window) drawStack(c *canvas) {
	panel(c, stackArea, "Stack")
	m := w.d.Machine()
	sp := m.Regs().SP
	if cur := w.d.Cursor(); cur != nil {
		sp = cur.Regs.SP
	}
	for i := 0; i < (stackArea.Dy()-22)/lineH; i++ {
		a := sp + uint16(2*i)
		v := uint16(w.d.PeekView(a)) | uint16(w.d.PeekView(a+1))<<8
		print(c, stackArea.Min.X+6, stackArea.Min.Y+18+i*lineH, cut(fmt.Sprintf("%04X  %04X  %s", a, v, w.d.Syms.Label(v)), chars(stackArea.Dx()-12)), colText)
	}
}
