package window

// The CPU panel: registers and the flags as lamps.

import (
	"image"
	"strings"

	"github.com/lbplus/lbplus/debugger"
)

func (w *Window) drawRegs(c *canvas) {
	r := w.d.Machine().Regs()
	if cur := w.d.Cursor(); cur != nil {
		panel(c, regsArea, "CPU (as at the start of the instruction under the T-state cursor)")
		r = cur.Regs
	} else {
		panel(c, regsArea, "CPU")
	}
	lines := strings.Split(debugger.RegsText(r), "\n")
	lines[0], _, _ = strings.Cut(lines[0], "  F=") // the flags are lamps below
	for i, l := range lines {
		print(c, regsArea.Min.X+6, regsArea.Min.Y+18+i*lineH, l, colText)
	}
	// Flags as lamps.
	x := regsArea.Min.X + 6
	y := regsArea.Min.Y + 18 + 2*lineH + 2
	for i, n := range "SZYHXPNC" {
		on := uint8(r.AF)&(0x80>>i) != 0
		col := colOff
		if on {
			col = colOn
		}
		rect(c, image.Rect(x+i*22, y, x+i*22+18, y+12), col)
		print(c, x+i*22+5, y-2, string(n), colBG)
	}
}
