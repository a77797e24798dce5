package debugger

import (
	"fmt"
	"io"
	"strings"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Rows are the timeline's logic-analyser rows, top to bottom.
var Rows = []Signal{
	Signal(scsi.BSY), Signal(scsi.SEL), Signal(scsi.CD), Signal(scsi.IO), Signal(scsi.MSG),
	Signal(scsi.REQ), Signal(scsi.ACK), Signal(scsi.ATN), Signal(scsi.RST), DRQ,
}

// Zoom limits of the timeline: from a few nanoseconds (the 5380's edge
// delays) to seconds (tape repositions).
const (
	MinSpan = 10 * sched.Nanosecond
	MaxSpan = 10 * sched.Second
)

// Timeline is the view model of the logic-analyser view: a time window
// [From, From+Span), two cursors and the measurement between them. The
// window draws it; tests read it.
type Timeline struct {
	From sched.Time
	Span sched.Time
	// Cursors A and B (times); the measurement is B - A.
	A, B sched.Time
	// Follow keeps the window's right edge at the present while the
	// machine runs.
	Follow bool
}

// NewTimeline shows span ending now, following the present.
func NewTimeline(now, span sched.Time) *Timeline {
	tl := &Timeline{Span: span, Follow: true}
	tl.clampSpan()
	tl.From = max(0, now-tl.Span)
	return tl
}

func (tl *Timeline) clampSpan() {
	tl.Span = min(max(tl.Span, MinSpan), MaxSpan)
}

// To is the window's right edge.
func (tl *Timeline) To() sched.Time { return tl.From + tl.Span }

// Update moves a following window to end at now.
func (tl *Timeline) Update(now sched.Time) {
	if tl.Follow {
		tl.From = max(0, now-tl.Span)
	}
}

// Zoom scales the span by factor (< 1 zooms in) keeping time at fixed in
// place on the screen.
func (tl *Timeline) Zoom(factor float64, at sched.Time) {
	frac := float64(at-tl.From) / float64(tl.Span)
	tl.Span = sched.Time(float64(tl.Span) * factor)
	tl.clampSpan()
	tl.From = max(0, at-sched.Time(frac*float64(tl.Span)))
}

// Pan moves the window by frac of its span (negative: to the past) and
// stops following.
func (tl *Timeline) Pan(frac float64) {
	tl.Follow = false
	tl.From = max(0, tl.From+sched.Time(frac*float64(tl.Span)))
}

// Center puts t in the middle of the window and stops following.
func (tl *Timeline) Center(t sched.Time) {
	tl.Follow = false
	tl.From = max(0, t-tl.Span/2)
}

// Show zooms and pans so that [start, end) fills the middle of the window,
// a margin of a quarter of its length on each side (the neighbours show),
// and stops following. A span still open (end 0 or before start) is shown
// from start over the span the window has.
func (tl *Timeline) Show(start, end sched.Time) {
	if end > start {
		tl.Span = end - start + (end-start)/2
		tl.clampSpan()
	}
	mid := start + tl.Span/3
	if end > start {
		mid = start + (end-start)/2
	}
	tl.Center(mid)
}

// TimeAt is the time at x of a view width wide.
func (tl *Timeline) TimeAt(x, width int) sched.Time {
	return tl.From + sched.Time(float64(tl.Span)*float64(x)/float64(width))
}

// XAt is the x of time t in a view width wide (may be outside).
func (tl *Timeline) XAt(t sched.Time, width int) int {
	return int(float64(t-tl.From) * float64(width) / float64(tl.Span))
}

// Delta is the time from cursor A to cursor B.
func (tl *Timeline) Delta() sched.Time { return tl.B - tl.A }

// SnapRising returns the first rising edge of s at or after t (ok false
// if none is recorded).
func SnapRising(r *Recorder, s Signal, t sched.Time) (sched.Time, bool) {
	ts := r.Rising(s, t, sched.MaxTime)
	if len(ts) == 0 {
		return 0, false
	}
	return ts[0], true
}

// CursorsOnConsecutive puts cursor A on the first rising edge of s at or
// after t and cursor B on the next one, and centres the window on them;
// it returns the time between them (the measurement the window shows).
func (tl *Timeline) CursorsOnConsecutive(r *Recorder, s Signal, t sched.Time) (sched.Time, error) {
	ts := r.Rising(s, t, sched.MaxTime)
	if len(ts) < 2 {
		return 0, fmt.Errorf("fewer than two %s edges after %s", s.Name(), FormatTime(t))
	}
	tl.A, tl.B = ts[0], ts[1]
	tl.Span = max(MinSpan, 4*(tl.B-tl.A))
	tl.clampSpan()
	tl.Center(tl.A + (tl.B-tl.A)/2)
	return tl.Delta(), nil
}

// Column is one column of a rendered row: the signal's level at its
// start, and whether it changed inside it.
type Column struct {
	High    bool
	Changed bool
}

// Sample renders each of rows into cols columns over the window. It walks
// the recorder's ring in place (no copy), so a window holding the whole
// ring costs one pass over it.
func (tl *Timeline) Sample(r *Recorder, rows []Signal, cols int) [][]Column {
	out := make([][]Column, len(rows))
	for i := range out {
		out[i] = make([]Column, cols)
	}
	k := r.search(tl.From)
	end := r.search(tl.To())
	var cur Signal
	if k > 0 {
		cur = r.at(k - 1).Sig
	}
	for c := 0; c < cols; c++ {
		colEnd := tl.TimeAt(c+1, cols)
		start := cur
		var changed Signal
		n := r.search(colEnd) - k
		if k+n > end {
			n = end - k
		}
		// A column is one pixel: [A] one with more than sampleMax edges
		// is drawn from sampleMax of them, evenly spaced, so the widest
		// zoom over a full ring stays within a frame.
		step := 1
		if n > sampleMax {
			step = n / sampleMax
		}
		for i := 0; i < n; i += step {
			e := r.at(k + i)
			changed |= cur ^ e.Sig
			cur = e.Sig
		}
		if n > 0 {
			e := r.at(k + n - 1)
			changed |= cur ^ e.Sig
			cur = e.Sig
		}
		k += n
		for i, s := range rows {
			out[i][c] = Column{High: start&s != 0, Changed: changed&s != 0}
		}
	}
	return out
}

// sampleMax bounds the edges Sample reads per column.
const sampleMax = 64

// Count is the number of kept edges with from <= T < to.
func (r *Recorder) Count(from, to sched.Time) int { return r.search(to) - r.search(from) }

// phaseLetter is the phase band's code for each phase, as WriteText's
// legend names them (4 and 5 for the reserved MSG patterns).
func phaseLetter(p scsi.Phase) byte {
	return "OICs45omFS"[p]
}

// WriteText renders the window as text: one row per signal ('#' asserted,
// '_' released, '|' a change inside the column), the phase band, and the
// decoded segments and bytes in the window.
func (tl *Timeline) WriteText(w io.Writer, r *Recorder, kind func(int) Kind, cols int) {
	fmt.Fprintf(w, "timeline %s .. %s (%s, %s a column)\n", FormatTime(tl.From), FormatTime(tl.To()),
		FormatDuration(tl.Span), FormatDuration(tl.Span/sched.Time(cols)))
	grid := tl.Sample(r, Rows, cols)
	for i, s := range Rows {
		var b strings.Builder
		for _, c := range grid[i] {
			switch {
			case c.Changed:
				b.WriteByte('|')
			case c.High:
				b.WriteByte('#')
			default:
				b.WriteByte('_')
			}
		}
		fmt.Fprintf(w, "%-5s %s\n", s.Name(), b.String())
	}
	segs := r.Segments(tl.From, tl.To())
	band := []byte(strings.Repeat(" ", cols))
	for _, s := range segs {
		x0 := max(0, tl.XAt(s.Start, cols))
		x1 := cols
		if s.End != 0 {
			x1 = min(cols, tl.XAt(s.End, cols)+1)
		}
		for x := x0; x < x1; x++ {
			band[x] = phaseLetter(s.Phase)
		}
	}
	fmt.Fprintf(w, "%-5s %s\n", "phase", band)
	fmt.Fprintln(w, "      (S selection, C command, I data in, O data out, s status, m message in, o message out, F bus free)")
	for _, s := range segs {
		fmt.Fprintln(w, segmentLine(&s, kind))
	}
	if tr := r.Transfers(tl.From, tl.To()); len(tr) > 0 && len(tr) <= 16 {
		var parts []string
		for _, t := range tr {
			parts = append(parts, fmt.Sprintf("%02X", t.Data))
		}
		fmt.Fprintf(w, "bytes: %s\n", strings.Join(parts, " "))
	} else if len(tr) > 16 {
		fmt.Fprintf(w, "bytes: %d moved, mean %s apart\n", len(tr), FormatDuration(scsi.MeanInterval(tr)))
	}
}

func segmentLine(s *Segment, kind func(int) Kind) string {
	dur := ""
	if s.End != 0 {
		dur = "  (" + FormatDuration(s.End-s.Start) + ")"
	}
	return fmt.Sprintf("%14s  %-11s  %s%s", FormatTime(s.Start), s.Phase, s.Describe(kind), dur)
}
