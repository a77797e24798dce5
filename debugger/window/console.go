package window

// The console panel: the machine's terminal.

import (
	"image"
	"math"
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
	// font, down to minConsoleScale of the others, so that a line of 80
	// fits; narrower still, the lines are cut at its edge. A panel lower
	// than the terminal shows the rows around the cursor.
	scale := consoleScale(consoleArea.Dx())
	size := float32(math.Floor(fontSize * scale)) // whole pixels: Go Mono's advance at 8.5 is its advance at 9
	cw := charWAt(size)
	lh := int(math.Round(consoleLineH * float64(size) / fontSize))
	fit := min(t.Rows, (consoleArea.Dy()-24)/lh)
	first := max(0, min(t.Y-fit+1, t.Rows-fit))
	n := max(0, int(float64(consoleArea.Dx()-12)/cw))
	for y := first; y < first+fit; y++ {
		c.textSized(consoleArea.Min.X+6, consoleArea.Min.Y+20+(y-first)*lh, cut(strings.TrimRight(t.Line(y), " "), n), colOn, size)
	}
	if t.X < n {
		cx := consoleArea.Min.X + 6 + int(float64(t.X)*cw)
		cy := consoleArea.Min.Y + 20 + (t.Y-first)*lh
		under := int(math.Round(13 * float64(size) / fontSize))
		rect(c, image.Rect(cx, cy+under, cx+int(cw), cy+under+2), colOn)
	}
}

// minConsoleScale is the smallest the console's font gets against the
// other panels' (fontSize 12 -> 8 pixels): smaller is hard to read.
const minConsoleScale = 2.0 / 3

// consoleScale is how much smaller than fontSize the console's font must
// be for 80 columns to fit a panel width pixels wide.
func consoleScale(width int) float64 {
	return max(minConsoleScale, min(1, float64(width-12)/(80*charW)))
}
