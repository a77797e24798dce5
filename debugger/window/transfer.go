package window

// The transfer panel: the selected command laid open (debugger.Transfer):
// its CDB in hex beside its decoding, each phase's handshake timing and
// a hex dump of its bytes, and where a DATA IN went in memory.

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/lbplus/lbplus/debugger"
)

// textLine is a line of a panel's text and its colour.
type textLine struct {
	s   string
	col color.Color
}

// transferLines are the transfer panel's lines for a panel n characters
// wide.
func (w *Window) transferLines(n int) []textLine {
	c, ok := w.d.Rec.CommandAt(w.SelCmd)
	if !ok || w.SelCmd == 0 {
		return []textLine{{"Select a command in the list (click, or [ and ]).", colDim}}
	}
	// A command that has ended is laid open once: its edges do not
	// change while the ring keeps them.
	if w.xfer.Start != c.Start || w.xfer.End == 0 || w.xfer.End != c.End || w.xfer.Memory != c.Memory ||
		(!w.xfer.Partial && w.d.Rec.Oldest() > c.Start) {
		w.xfer = w.d.Transfer(&c)
	}
	tr := w.xfer
	var out []textLine
	add := func(s string, col color.Color) {
		for _, l := range wrap(s, n) {
			out = append(out, textLine{l, col})
		}
	}
	add(fmt.Sprintf("CDB % X   %s", tr.Bytes(), tr.Decoded), colTitle)
	where := ""
	if tr.Memory >= 0 {
		where = fmt.Sprintf(", DATA IN to %04Xh (the memory panel)", tr.Memory)
	}
	dur := "running"
	if tr.End != 0 {
		dur = debugger.FormatDuration(tr.End - tr.Start)
	}
	add(fmt.Sprintf("target %d at %s, %s%s", tr.Target, debugger.FormatTime(tr.Start), dur, where), colText)
	if tr.Partial {
		add("the edge ring no longer holds the command's start: what it keeps", colBreak)
	}
	for _, p := range tr.Phases {
		d := ""
		if p.End != 0 {
			d = ", " + debugger.FormatDuration(p.End-p.Start)
		}
		add(fmt.Sprintf("%s: %d bytes%s", p.Phase, len(p.Data), d), colData)
		if p.ReqAck.N > 0 {
			add("  REQ-ACK "+interval(p.ReqAck), colText)
		}
		if p.AckReq.N > 0 {
			add("  ACK-REQ "+interval(p.AckReq), colText)
		}
		for i := 0; i < len(p.Data); i += 16 {
			add(fmt.Sprintf("  %04X  % X", i, p.Data[i:min(i+16, len(p.Data))]), colDim)
		}
	}
	return out
}

// interval is min / mean / max (count).
func interval(iv debugger.Interval) string {
	return fmt.Sprintf("min %s mean %s max %s (%d)", debugger.FormatDuration(iv.Min), debugger.FormatDuration(iv.Mean()),
		debugger.FormatDuration(iv.Max), iv.N)
}

func (w *Window) drawTransfer(c *canvas) {
	r := transferArea
	n := int(float64(r.Dx()-12) / charW)
	lines := w.transferLines(n)
	rows := (r.Dy() - 22) / lineH
	w.xferScroll = max(0, min(w.xferScroll, len(lines)-rows))
	title := "Transfer"
	if len(lines) > rows {
		title = fmt.Sprintf("Transfer (wheel: lines %d-%d of %d)", w.xferScroll+1, min(len(lines), w.xferScroll+rows), len(lines))
	}
	panel(c, r, title)
	for i, l := range lines[w.xferScroll:min(len(lines), w.xferScroll+rows)] {
		print(c, r.Min.X+6, r.Min.Y+18+i*lineH, strings.TrimRight(l.s, " "), l.col)
	}
}
