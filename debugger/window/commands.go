package window

// The command list: every SCSI command the recorder keeps, the selected
// one opened into its phases; a click shows one on the timeline.

import (
	"fmt"
	"image"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// listEntry is one line of the command list: a command, or (phase set)
// one phase of the selected command.
type listEntry struct {
	cmd   debugger.Command
	phase bool
	seg   debugger.Segment
}

// listEntries are the list's lines, oldest first.
func (w *Window) listEntries() []listEntry {
	var out []listEntry
	for _, c := range w.d.Rec.Commands(0, sched.MaxTime) {
		out = append(out, listEntry{cmd: c})
		if c.Start != w.SelCmd || w.SelCmd == 0 {
			continue
		}
		for _, s := range w.commandSegments(&c) {
			out = append(out, listEntry{cmd: c, phase: true, seg: s})
		}
	}
	return out
}

// commandSegments are the phases of c from its COMMAND phase to the bus
// free that ends it.
func (w *Window) commandSegments(c *debugger.Command) []debugger.Segment {
	end := c.End
	if end == 0 {
		end = sched.MaxTime
	}
	var out []debugger.Segment
	for _, s := range w.d.Rec.Segments(c.Start, end) {
		if s.Start >= c.Start && s.Start < end {
			out = append(out, s)
		}
	}
	return out
}

func (e *listEntry) text(d *debugger.Debugger) string {
	if e.phase {
		s := fmt.Sprintf("   %-11s %s", e.seg.Phase, e.seg.Describe(nil))
		if e.seg.Phase == scsi.Command {
			s = fmt.Sprintf("   %-11s %d bytes", e.seg.Phase, e.seg.Bytes)
		}
		if e.seg.End != 0 {
			s += "  " + debugger.FormatDuration(e.seg.End-e.seg.Start)
		}
		return s
	}
	return fmt.Sprintf("%14s  %s", debugger.FormatTime(e.cmd.Start), d.CommandSummary(&e.cmd))
}

// listRows is how many lines the command list shows.
func listRows() int { return (cmdsArea.Dy() - 22) / lineH }

func (w *Window) drawCommands(c *canvas) {
	entries := w.listEntries()
	n := listRows()
	last := max(0, len(entries)-w.listScroll)
	first := max(0, last-n)
	panel(c, cmdsArea, fmt.Sprintf("SCSI commands %d (click: show; wheel: scroll)", len(w.d.Rec.Commands(0, sched.MaxTime))))
	w.listShown = entries[first:last]
	width := int(float64(cmdsArea.Dx()-12) / charW)
	for i, e := range w.listShown {
		y := cmdsArea.Min.Y + 18 + i*lineH
		row := image.Rect(cmdsArea.Min.X+2, y, cmdsArea.Max.X-2, y+lineH)
		sel := e.cmd.Start == w.SelCmd && w.SelCmd != 0
		switch {
		case e.phase && e.seg.Start == w.selSeg:
			rect(c, row, colSel)
		case !e.phase && sel && w.selSeg == 0:
			rect(c, row, colSel)
		}
		col := colText
		if e.phase {
			col = colDim
			if ph, ok := phaseColors[e.seg.Phase]; ok {
				rect(c, image.Rect(row.Min.X+4, y+3, row.Min.X+12, y+lineH-3), ph)
			}
		}
		print(c, cmdsArea.Min.X+6, y, cut(e.text(w.d), width), col)
	}
}

// cut shortens s to n characters, ending in ">" when cut.
func cut(s string, n int) string {
	if len(s) <= n || n < 1 {
		return s
	}
	return s[:n-1] + ">"
}

// CommandRow returns the rectangle of the command list's line of the
// command that started at start, as last drawn (false if not shown).
func (w *Window) CommandRow(start sched.Time) (image.Rectangle, bool) {
	return w.listRow(func(e *listEntry) bool { return !e.phase && e.cmd.Start == start })
}

// PhaseRow returns the rectangle of the line of phase p of the selected
// command, as last drawn (false if not shown).
func (w *Window) PhaseRow(p scsi.Phase) (image.Rectangle, bool) {
	return w.listRow(func(e *listEntry) bool { return e.phase && e.seg.Phase == p })
}

func (w *Window) listRow(match func(*listEntry) bool) (image.Rectangle, bool) {
	for i := range w.listShown {
		if match(&w.listShown[i]) {
			y := cmdsArea.Min.Y + 18 + i*lineH
			return image.Rect(cmdsArea.Min.X+2, y, cmdsArea.Max.X-2, y+lineH), true
		}
	}
	return image.Rectangle{}, false
}

// clickList selects the list's line at y: a command is shown whole on
// the timeline and opened into its phases, a phase shown alone.
func (w *Window) clickList(y int) {
	i := (y - cmdsArea.Min.Y - 18) / lineH
	if y < cmdsArea.Min.Y+18 || i >= len(w.listShown) {
		return
	}
	e := w.listShown[i]
	if e.phase {
		w.selSeg = e.seg.Start
		w.viewMoved = true
		w.TL.Show(e.seg.Start, e.seg.End)
		return
	}
	w.SelectCommand(e.cmd)
}

// SelectCommand makes c the selected command (the transfer panel's) and
// shows it whole in the middle of the timeline.
func (w *Window) SelectCommand(c debugger.Command) {
	w.SelCmd, w.selSeg, w.xferScroll = c.Start, 0, 0
	w.viewMoved = true
	// The memory panel follows the transfer's destination.
	if c.Memory >= 0 {
		w.MemAddr = uint16(c.Memory) &^ 0xF
	}
	end := c.End
	if end == 0 {
		end = w.d.Machine().Now()
	}
	w.TL.Show(c.Start, end)
}

// stepCommand selects the next command (dir 1) or the previous one (-1)
// from the selected one, or from the middle of the timeline.
func (w *Window) stepCommand(dir int) {
	at := w.SelCmd
	if at == 0 {
		at = w.TL.From + w.TL.Span/2
	}
	var c debugger.Command
	var ok bool
	if dir > 0 {
		c, ok = w.d.Rec.CommandAfter(at)
	} else {
		c, ok = w.d.Rec.CommandBefore(at)
	}
	if !ok {
		w.Status = "no command there"
		return
	}
	w.SelectCommand(c)
	// The list scrolls to keep the selection in sight.
	entries := w.listEntries()
	for i, e := range entries {
		if !e.phase && e.cmd.Start == c.Start {
			last := len(entries) - w.listScroll
			if i >= last || i < last-listRows() {
				w.listScroll = max(0, len(entries)-i-listRows()/2)
			}
		}
	}
}

// GoTo centres the timeline on t (the go-to-time prompt).
func (w *Window) GoTo(t sched.Time) {
	w.viewMoved = true
	w.TL.Center(t)
}
