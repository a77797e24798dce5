package window

// The disassembly panel around PC, with breakpoints and labels.

import (
	"fmt"
	"image"
	"strings"
)

func (w *Window) drawDis(c *canvas) {
	panel(c, disArea, "Disassembly")
	n := (disArea.Dy() - 22) / lineH
	pc := w.d.PC()
	cur := w.d.Cursor()
	if cur != nil {
		pc = cur.PC
	}
	at := w.disCentre(pc) // prompt.go: `dis ADDR`
	w.disLines = w.d.DisassembleAround(at, n)
	for i := range w.disLines {
		w.disLines[i].PC = w.disLines[i].Addr == pc
	}
	if !w.selectedSet {
		for i, l := range w.disLines {
			if l.Addr == at {
				w.Selected = i
			}
		}
	}
	for i, l := range w.disLines {
		y := disArea.Min.Y + 18 + i*lineH
		row := image.Rect(disArea.Min.X+2, y, disArea.Max.X-2, y+lineH)
		switch {
		case l.PC:
			rect(c, row, colPC)
		case i == w.Selected:
			rect(c, row, colSel)
		}
		if l.Break {
			c.filledCircle(float32(disArea.Min.X+10), float32(y+lineH/2), 5, colBreak, true)
		}
		var hex strings.Builder
		for _, b := range l.Bytes {
			fmt.Fprintf(&hex, "%02X", b)
		}
		col := colText
		n := chars(disArea.Dx() - 26)
		if l.Label != "" {
			head := cut(fmt.Sprintf("%04X %-8s %s:", l.Addr, hex.String(), l.Label), n)
			print(c, disArea.Min.X+20, y, head, colTitle)
			if rest := n - len(head) - 2; rest > 0 {
				print(c, disArea.Min.X+20+int(charW*float64(len(head)+2)), y, cut(l.Text, rest), col)
			}
			continue
		}
		print(c, disArea.Min.X+20, y, cut(fmt.Sprintf("%04X %-8s   %s", l.Addr, hex.String(), l.Text), n), col)
	}
}
