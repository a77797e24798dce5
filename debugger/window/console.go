package window

// The console panel: the machine's terminal.

import (
	"image"
	"strings"
)

func (w *Window) drawConsole(c *canvas) {
	title := "Console (Tab: type here)"
	if w.ConsoleFocus {
		title = "Console (keyboard goes to the DART; Tab: leave)"
	}
	panel(c, consoleArea, title)
	if w.ConsoleFocus {
		c.strokeRect(float32(consoleArea.Min.X)+1, float32(consoleArea.Min.Y)+1, float32(consoleArea.Dx())-2, float32(consoleArea.Dy())-2, 2, colCurA, false)
	}
	t := w.Term
	// A panel lower than the terminal shows the rows around the cursor;
	// one narrower than 80 columns cuts the lines at its edge.
	fit := min(t.Rows, (consoleArea.Dy()-24)/consoleLineH)
	first := max(0, min(t.Y-fit+1, t.Rows-fit))
	n := chars(consoleArea.Dx() - 12)
	for y := first; y < first+fit; y++ {
		print(c, consoleArea.Min.X+6, consoleArea.Min.Y+20+(y-first)*consoleLineH, cut(strings.TrimRight(t.Line(y), " "), n), colOn)
	}
	if t.X < n {
		cx := consoleArea.Min.X + 6 + int(float64(t.X)*charW)
		cy := consoleArea.Min.Y + 20 + (t.Y-first)*consoleLineH
		rect(c, image.Rect(cx, cy+13, cx+int(charW), cy+15), colOn)
	}
}
