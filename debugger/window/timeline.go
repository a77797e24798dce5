package window

// The timeline panel: a logic analyser of the SCSI bus.

import (
	"fmt"
	"image"
	"image/color"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

func (w *Window) drawTimeline(c *canvas) {
	w.drawStatus(c)
	r := timelineArea
	tl := w.TL
	panel(c, r, fmt.Sprintf("Timeline %s .. %s  (%s, wheel/+/- zoom, arrows pan, Home follow)",
		debugger.FormatTime(tl.From), debugger.FormatTime(tl.To()), debugger.FormatDuration(tl.Span)))
	x0 := r.Min.X + labelW
	tw := r.Dx() - labelW - 4
	const rowH = 20
	y0 := r.Min.Y + 20
	grid := tl.Sample(w.d.Rec, debugger.Rows, tw)
	for i, s := range debugger.Rows {
		y := y0 + i*rowH
		print(c, r.Min.X+6, y+2, s.Name(), colDim)
		hi, lo := float32(y+3), float32(y+rowH-3)
		// One rectangle per run of a level, a vertical line per change:
		// asserted is high with the band under it filled.
		cols := grid[i]
		for x := 0; x < len(cols); {
			if cols[x].Changed {
				fx := float32(x0+x) + 0.5
				c.strokeLine(fx, hi, fx, lo, 1, colWave, false)
				x++
				continue
			}
			run := x
			for run < len(cols) && !cols[run].Changed && cols[run].High == cols[x].High {
				run++
			}
			fx, fw := float32(x0+x), float32(run-x)
			if cols[x].High {
				c.fillRect(fx, hi, fw, lo-hi, colHigh, false)
				c.fillRect(fx, hi, fw, 1.5, colWave, false)
			} else {
				c.fillRect(fx, lo-1, fw, 1.5, colWave, false)
			}
			x = run
		}
	}
	// Data bytes where they fit.
	yd := y0 + len(debugger.Rows)*rowH
	print(c, r.Min.X+6, yd+2, "DATA", colDim)
	// Labels only where a few fit: the edges in the window bound the
	// bytes, and a count is cheap where a list is not.
	var trs []debugger.Transfer
	if w.d.Rec.Count(tl.From, tl.To()) < 8*tw {
		trs = w.d.Rec.Transfers(tl.From, tl.To())
	}
	lastX := -100
	for _, t := range trs {
		x := tl.XAt(t.T, tw)
		if x-lastX < int(charW*2.5) {
			continue
		}
		print(c, x0+x, yd+2, fmt.Sprintf("%02X", t.Data), colData)
		lastX = x
	}
	// Phase band and decoded commands.
	yp := yd + rowH
	print(c, r.Min.X+6, yp+2, "PHASE", colDim)
	segs := w.d.Rec.Segments(tl.From, tl.To())
	for _, s := range segs {
		a := max(0, tl.XAt(s.Start, tw))
		b := tw
		if s.End != 0 {
			b = min(tw, tl.XAt(s.End, tw))
		}
		if b <= a {
			b = a + 1
		}
		rect(c, image.Rect(x0+a, yp+2, x0+b, yp+rowH-2), phaseColors[s.Phase])
		if label := s.Phase.String(); float64(b-a) > charW*float64(len(label)+1) {
			print(c, x0+a+2, yp+2, label, colText)
		}
	}
	yc := yp + rowH
	print(c, r.Min.X+6, yc+2, "CMD", colDim)
	// Each command overlapping the window is labelled from its COMMAND
	// phase (or the window's left edge) on, so a long DATA IN still says
	// which command it belongs to.
	for _, cmd := range w.d.Rec.Commands(tl.From, tl.To()) {
		if cmd.CDBLen == 0 {
			continue
		}
		x := max(0, tl.XAt(cmd.Start, tw))
		print(c, x0+x, yc+2, w.d.CommandLine(&cmd), colTitle)
	}
	// Cursors and the measurement.
	for _, cur := range []struct {
		t   sched.Time
		col color.Color
		n   string
	}{{tl.A, colCurA, "A"}, {tl.B, colCurB, "B"}} {
		if cur.t == 0 {
			continue
		}
		x := tl.XAt(cur.t, tw)
		if x < 0 || x >= tw {
			continue
		}
		fx := float32(x0+x) + 0.5
		c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, cur.col, false)
		print(c, x0+x+2, y0-16, cur.n, cur.col)
	}
	// The T-state cursor's time.
	if cur := w.d.Cursor(); cur != nil {
		if x := tl.XAt(cur.Time(), tw); x >= 0 && x < tw {
			fx := float32(x0+x) + 0.5
			c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, colBreak, false)
			print(c, x0+x+2, y0-16, "T", colBreak)
		}
	}
	ym := yc + rowH + 2
	if tl.A != 0 || tl.B != 0 {
		print(c, r.Min.X+6, ym, fmt.Sprintf("A %s   B %s   B-A %s", debugger.FormatTime(tl.A), debugger.FormatTime(tl.B),
			debugger.FormatDuration(tl.Delta())), colText)
	}
}
