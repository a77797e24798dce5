package window

// The SCSI bus panel: the lines, the data bus and the phase.

import (
	"fmt"
	"image"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/scsi"
)

func (w *Window) drawBus(c *canvas) {
	panel(c, busArea, "SCSI bus")
	sig, data := w.d.Rec.Signals()
	ph := scsi.BusFree
	if s := w.d.Rec.Current(); s != nil {
		ph = s.Phase
	}
	if cur := w.d.Cursor(); cur != nil {
		sig, data = cur.Signals()
		if s := w.d.Rec.Segments(cur.Time()-1, cur.Time()); len(s) > 0 {
			ph = s[len(s)-1].Phase
		}
	}
	for i, s := range debugger.Rows[:9] {
		x := busArea.Min.X + 6 + i*42
		lamp(c, image.Rect(x, busArea.Min.Y+20, x+40, busArea.Min.Y+35), 4, s.Name(), sig&s != 0)
	}
	print(c, busArea.Min.X+6+9*42+4, busArea.Min.Y+20, fmt.Sprintf("DB %02X", data), colData)
	extra := ""
	if sig&debugger.DRQ != 0 {
		extra += " DRQ"
	}
	if sig&debugger.IRQ != 0 {
		extra += " IRQ"
	}
	print(c, busArea.Min.X+6, busArea.Min.Y+37, "phase "+ph.String()+extra, colText)
}
