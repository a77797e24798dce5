package window

// The NCR 5380 panel: its registers bit by bit.

import (
	"fmt"
	"image"

	"github.com/lbplus/lbplus/debugger"
)

func (w *Window) drawChip(c *canvas) {
	panel(c, chipArea, "NCR 5380")
	if w.opt.Chip == nil {
		print(c, chipArea.Min.X+6, chipArea.Min.Y+20, "no 5380", colDim)
		return
	}
	regs := debugger.Chip5380(w.opt.Chip)
	if cur := w.d.Cursor(); cur != nil && cur.Chip() != nil {
		regs = cur.Chip()
	}
	for i, r := range regs {
		y := chipArea.Min.Y + 20 + i*20
		print(c, chipArea.Min.X+6, y, fmt.Sprintf("%-20s %02X", r.Name, r.Value), colText)
		for b, n := range r.Bits {
			x := chipArea.Min.X + 200 + b*34
			if n == "" {
				continue
			}
			lamp(c, image.Rect(x, y, x+32, y+15), 2, n, r.Set(7-b))
		}
	}
}
