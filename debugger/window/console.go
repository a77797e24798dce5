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
	for y := 0; y < t.Rows; y++ {
		print(c, consoleArea.Min.X+6, consoleArea.Min.Y+20+y*16, strings.TrimRight(t.Line(y), " "), colOn)
	}
	cx := consoleArea.Min.X + 6 + int(float64(t.X)*charW)
	cy := consoleArea.Min.Y + 20 + t.Y*16
	rect(c, image.Rect(cx, cy+13, cx+int(charW), cy+15), colOn)
}
