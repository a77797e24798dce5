package window

// The timeline panel: a logic analyser of the SCSI bus.

import (
	"fmt"
	"image"
	"image/color"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

// timelineView is where the timeline's waveforms are drawn: the left
// edge and the width in pixels (right of the row names).
func timelineView() (x0, tw int) {
	return timelineArea.Min.X + labelW, timelineArea.Dx() - labelW - 4
}

// timelineRowH is the timeline's row height: the signals, DATA, PHASE and
// CMD rows and the cursor letters' row share the panel under its title
// with the measurement and the key hints.
func timelineRowH() int {
	return min(20, (timelineArea.Dy()-20-2*lineH-2)/(len(debugger.Rows)+4))
}

func (w *Window) drawTimeline(c *canvas) {
	w.drawStatus(c)
	r := timelineArea
	tl := w.TL
	title := fmt.Sprintf("Timeline %s .. %s (%s)", debugger.FormatTime(tl.From), debugger.FormatTime(tl.To()),
		debugger.FormatDuration(tl.Span))
	panel(c, r, title)
	// Following the present (green) or frozen where the user put it.
	stateCol := colOn
	if w.viewMoved {
		stateCol = colCurA
	}
	room := chars(r.Dx()-12) - len(title) - 2
	sx := r.Min.X + 6 + int(charW*float64(len(title)+2))
	if room >= len(w.following()) {
		print(c, sx, r.Min.Y+2, w.following(), stateCol)
	}
	if room -= len(w.following()) + 3; w.gotoActive && room > 0 {
		print(c, sx+int(charW*float64(len(w.following())+3)), r.Min.Y+2, cut("go to time: "+w.gotoText+"_", room), colText)
	}
	x0, tw := timelineView()
	rowH := timelineRowH()
	labels := tl.Labels(w.d, tw, charW)
	yl := r.Min.Y + 18 // the cursors' letters, under the title
	y0 := yl + rowH
	grid := tl.Sample(w.d.Rec, debugger.Rows, tw)
	for i, s := range debugger.Rows {
		y := y0 + i*rowH
		print(c, r.Min.X+6, y+(rowH-lineH)/2, s.Name(), colDim)
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
	ty := func(y int) int { return y + (rowH-lineH)/2 }
	// Data bytes where they fit (debugger.Timeline.Labels places them).
	yd := y0 + len(debugger.Rows)*rowH
	print(c, r.Min.X+6, ty(yd), "DATA", colDim)
	for _, p := range labels.Bytes {
		print(c, x0+p.X, ty(yd), p.Text, colData)
	}
	// Phase band and decoded commands.
	yp := yd + rowH
	print(c, r.Min.X+6, ty(yp), "PHASE", colDim)
	for _, s := range w.d.Rec.Segments(tl.From, tl.To()) {
		a := max(0, tl.XAt(s.Start, tw))
		b := tw
		if s.End != 0 {
			b = min(tw, tl.XAt(s.End, tw))
		}
		if b <= a {
			b = a + 1
		}
		rect(c, image.Rect(x0+a, yp+2, x0+b, yp+rowH-2), phaseColors[s.Phase])
	}
	for _, p := range labels.Phases {
		print(c, x0+p.X, ty(yp), p.Text, colText)
	}
	yc := yp + rowH
	print(c, r.Min.X+6, ty(yc), "CMD", colDim)
	// The selected command's stretch is underlined in the CMD row.
	if cmd, ok := w.d.Rec.CommandAt(w.SelCmd); ok && w.SelCmd != 0 {
		end := cmd.End
		if end == 0 {
			end = tl.To()
		}
		a, b := max(0, tl.XAt(cmd.Start, tw)), min(tw, tl.XAt(end, tw))
		if b > a {
			rect(c, image.Rect(x0+a, yc+rowH-3, x0+b, yc+rowH-1), colCurA)
		}
	}
	for _, p := range labels.Commands {
		print(c, x0+p.X, ty(yc), p.Text, colTitle)
	}
	// Cursors and the measurement.
	for _, cur := range []struct {
		t   sched.Time
		col color.Color
	}{{tl.A, colCurA}, {tl.B, colCurB}} {
		if cur.t == 0 {
			continue
		}
		x := tl.XAt(cur.t, tw)
		if x < 0 || x >= tw {
			continue
		}
		fx := float32(x0+x) + 0.5
		c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, cur.col, false)
	}
	// The T-state cursor's time.
	if cur := w.d.Cursor(); cur != nil {
		if x := tl.XAt(cur.Time(), tw); x >= 0 && x < tw {
			fx := float32(x0+x) + 0.5
			c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, colBreak, false)
		}
	}
	for _, p := range labels.Cursors {
		col := map[string]color.Color{"A": colCurA, "B": colCurB, "T": colBreak}[p.Text]
		print(c, x0+p.X, yl, p.Text, col)
	}
	ym := yc + rowH + 2
	if tl.A != 0 || tl.B != 0 {
		print(c, r.Min.X+6, ym, fmt.Sprintf("A %s   B %s   B-A %s", debugger.FormatTime(tl.A), debugger.FormatTime(tl.B),
			debugger.FormatDuration(tl.Delta())), colText)
	}
	print(c, r.Min.X+6, ym+lineH, cut("wheel/+/- zoom  arrows pan  [ ] command  G go to time  Home follow  click: A, right: B", chars(r.Dx()-12)), colDim)
}
