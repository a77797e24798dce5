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
	// A panel narrower than 80 columns draws the terminal in a smaller
	// font, down to minFontSize, so that a line of 80 fits; narrower
	// still, the lines are cut at its edge. A panel lower than the
	// terminal shows the rows around the cursor.
	size := consoleSize(consoleArea.Dx())
	cw := charWAt(size)
	lh := (consoleLineH*size + fontSize/2) / fontSize // rounded
	fit := min(t.Rows, (consoleArea.Dy()-24)/lh)
	first := max(0, min(t.Y-fit+1, t.Rows-fit))
	n := max(0, int(float64(consoleArea.Dx()-12)/cw))
	for y := first; y < first+fit; y++ {
		c.textSized(consoleArea.Min.X+6, consoleArea.Min.Y+20+(y-first)*lh, cut(strings.TrimRight(t.Line(y), " "), n), colOn, size)
	}
	if t.X < n {
		cx := consoleArea.Min.X + 6 + int(float64(t.X)*cw)
		cy := consoleArea.Min.Y + 20 + (t.Y-first)*lh
		under := (13*size + fontSize/2) / fontSize
		rect(c, image.Rect(cx, cy+under, cx+int(cw), cy+under+2), colOn)
	}
}

// consoleSize is the largest font size, in whole pixels, at which 80
// columns fit a console panel width pixels wide, or minFontSize.
func consoleSize(width int) int {
	size := fontSize
	for size > minFontSize && 80*charWAt(size) > float64(width-12) {
		size--
	}
	return size
}
