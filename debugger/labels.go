package debugger

import (
	"fmt"
	"math"

	"github.com/lbplus/lbplus/sched"
)

// Label placement for the timeline's text rows (bytes, phases, commands,
// cursor letters). A front end with a monospaced font asks where each
// label goes for a view width; the answer never has two labels of a row
// overlapping and never one past the row's right edge, at any zoom, so a
// wide zoom shows fewer labels instead of a smear.

// Label is a text a row wants drawn from X (pixels from the row's left
// edge, may be negative: the item started before the view), not reaching
// past Limit (the next item's start; at most the row's width).
type Label struct {
	X, Limit int
	Text     string
	// Min is the fewest characters worth showing: a label with less room
	// is cut to what fits, ending in ">", and left out below Min.
	Min int
}

// Placed is a label where it is drawn, as it is drawn.
type Placed struct {
	X    int
	Text string
}

// End is the first pixel right of the text.
func (p Placed) End(charW float64) int { return p.X + textWidth(len(p.Text), charW) }

func textWidth(n int, charW float64) int { return int(math.Ceil(float64(n) * charW)) }

// labelGap is the blank pixels kept between two labels of a row.
const labelGap = 4

// PlaceLabels places labels, given in the order of their X, in a row
// width pixels wide with characters charW pixels wide: each starts at its
// X or, if that is left of the row or of the previous label's end, at the
// first free pixel; it is cut to the room left before its Limit and the
// row's end, and left out if fewer than Min characters fit.
func PlaceLabels(ls []Label, width int, charW float64) []Placed {
	var out []Placed
	free := 0
	for _, l := range ls {
		x := max(l.X, free)
		limit := width
		if l.Limit > 0 {
			limit = min(limit, l.Limit)
		}
		room := int(float64(limit-x) / charW)
		text := l.Text
		if room < len(text) {
			if room < max(l.Min, 1) {
				continue
			}
			if room < 2 {
				text = text[:room]
			} else {
				text = text[:room-1] + ">"
			}
		}
		p := Placed{X: x, Text: text}
		out = append(out, p)
		free = p.End(charW) + labelGap
	}
	return out
}

// TimelineLabels are the placed labels of the timeline's text rows.
type TimelineLabels struct {
	Bytes    []Placed // the bytes moved (only when few enough to list)
	Phases   []Placed // each phase's name inside its band
	Commands []Placed // each command from its COMMAND phase on
	Cursors  []Placed // the letters of cursors A and B and the T-state cursor
}

// byteListMax bounds the edges per pixel column below which the timeline
// lists the bytes moved: a count is cheap where a list is not.
const byteListMax = 8

// Labels places the text of the timeline's rows for a view width pixels
// wide with characters charW pixels wide.
func (tl *Timeline) Labels(d *Debugger, width int, charW float64) TimelineLabels {
	var out TimelineLabels
	r := d.Rec
	from, to := tl.From, tl.To()
	if r.Count(from, to) < byteListMax*width {
		var ls []Label
		for _, t := range r.Transfers(from, to) {
			ls = append(ls, Label{X: tl.XAt(t.T, width), Text: fmt.Sprintf("%02X", t.Data), Min: 2})
		}
		out.Bytes = PlaceLabels(ls, width, charW)
	}
	var ls []Label
	for _, s := range r.Segments(from, to) {
		a, b := tl.XAt(s.Start, width), width
		if s.End != 0 {
			b = min(b, tl.XAt(s.End, width))
		}
		name := s.Phase.String()
		ls = append(ls, Label{X: max(0, a) + 2, Limit: b, Text: name, Min: len(name)})
	}
	out.Phases = PlaceLabels(ls, width, charW)
	ls = ls[:0]
	cmds := r.Commands(from, to)
	for i, c := range cmds {
		if c.CDBLen == 0 {
			continue
		}
		limit := width
		if i+1 < len(cmds) {
			limit = tl.XAt(cmds[i+1].Start, width)
		}
		ls = append(ls, Label{X: tl.XAt(c.Start, width), Limit: limit, Text: d.CommandSummary(&c), Min: 6})
	}
	out.Commands = PlaceLabels(ls, width, charW)
	ls = ls[:0]
	type mark struct {
		t sched.Time
		n string
	}
	marks := []mark{{tl.A, "A"}, {tl.B, "B"}}
	if c := d.Cursor(); c != nil {
		marks = append(marks, mark{c.Time(), "T"})
	}
	for _, m := range marks {
		if m.t == 0 {
			continue
		}
		if x := tl.XAt(m.t, width); x >= 0 && x < width {
			ls = append(ls, Label{X: x + 2, Text: m.n, Min: 1})
		}
	}
	sortLabels(ls)
	out.Cursors = PlaceLabels(ls, width, charW)
	return out
}

// sortLabels orders labels by X (the cursors come in any order).
func sortLabels(ls []Label) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].X < ls[j-1].X; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// CommandSummary is a command in words without its time: the target, the
// decoded CDB, the data moved and the status.
func (d *Debugger) CommandSummary(c *Command) string {
	s := fmt.Sprintf("t%d %s", c.Target, DecodeCDB(c.Bytes(), d.kind(c.Target)))
	if c.DataIn > 0 {
		s += fmt.Sprintf(", in %d", c.DataIn)
	}
	if c.DataOut > 0 {
		s += fmt.Sprintf(", out %d", c.DataOut)
	}
	if c.Status >= 0 {
		s += ", " + StatusName(c.Status)
	}
	return s
}
