package window

// The stop and breakpoints panel.

import (
	"image/color"
	"strings"
)

func (w *Window) drawStatus(c *canvas) {
	panel(c, statusArea, "Stop and breakpoints")
	y := statusArea.Min.Y + 18
	n := chars(statusArea.Dx() - 12)
	// line prints while the panel has room.
	line := func(s string, col color.Color) {
		if y+lineH <= statusArea.Max.Y-2 {
			print(c, statusArea.Min.X+6, y, s, col)
			y += lineH
		}
	}
	for _, l := range wrap(w.Status, n) {
		line(l, colText)
	}
	if cur := w.d.Cursor(); cur != nil {
		// The T-state under the cursor, as the text front-end lists it.
		for _, l := range strings.Split(cur.Line(cur.K), "\n") {
			for _, part := range wrap(strings.Join(strings.Fields(l), " "), n) {
				line(part, colCurA)
			}
		}
	}
	for _, bp := range w.d.Breakpoints() {
		line(cut(bp.String(), n), colDim)
	}
}
