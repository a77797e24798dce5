package window

// The CPU panel: registers and the flags as lamps.

import (
	"image"
	"strings"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/z80host"
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
	y := regsArea.Min.Y + 18
	for _, l := range regsLines(lines, chars(regsArea.Dx()-12)) {
		print(c, regsArea.Min.X+6, y, l, colText)
		y += lineH
	}
	// Flags as lamps.
	x := regsArea.Min.X + 6
	y += 2
	for i, n := range "SZYHXPNC" {
		on := uint8(r.AF)&(0x80>>i) != 0
		col, tc := colOff, colOffText
		if on {
			col, tc = colOn, colBG
		}
		rect(c, image.Rect(x+i*22, y, x+i*22+18, y+12), col)
		print(c, x+i*22+5, y-2, string(n), tc)
	}
}

// regsLines are the register lines wrapped to n characters.
func regsLines(lines []string, n int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, n)...)
	}
	return out
}

// regsHeight is the CPU panel's height at a width: its lines wrapped,
// then the lamps.
func regsHeight(width int) int {
	lines := strings.Split(debugger.RegsText(z80host.Regs{}), "\n")
	lines[0], _, _ = strings.Cut(lines[0], "  F=")
	return 18 + len(regsLines(lines, chars(width-12)))*lineH + 18
}
