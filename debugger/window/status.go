package window

// The stop and breakpoints panel.

import (
	"strings"
)

func (w *Window) drawStatus(c *canvas) {
	panel(c, statusArea, "Stop and breakpoints")
	y := statusArea.Min.Y + 18
	for _, l := range wrap(w.Status, int(float64(statusArea.Dx()-12)/charW)) {
		print(c, statusArea.Min.X+6, y, l, colText)
		y += lineH
	}
	if cur := w.d.Cursor(); cur != nil {
		// The T-state under the cursor, as the text front-end lists it.
		for _, l := range strings.Split(cur.Line(cur.K), "\n") {
			l = strings.Join(strings.Fields(l), " ")
			for _, part := range wrap(l, int(float64(statusArea.Dx()-12)/charW)) {
				print(c, statusArea.Min.X+6, y, part, colCurA)
				y += lineH
			}
		}
	}
	for _, bp := range w.d.Breakpoints() {
		if y > statusArea.Max.Y-lineH {
			break
		}
		print(c, statusArea.Min.X+6, y, bp.String(), colDim)
		y += lineH
	}
}
