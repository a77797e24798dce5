package debugger

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/z80host"
)

// synthBus drives rec with n READ(6) commands of target 0, each moving
// dataBytes bytes, the handshake's edges step apart and the commands gap
// apart (a gap growing with i, so that the timeline sees dense and sparse
// stretches). It returns the commands' start times.
func synthBus(rec *Recorder, n, dataBytes int, step, gap sched.Time) []sched.Time {
	t := sched.Microsecond
	set := func(l scsi.Line, data uint8) {
		rec.SCSI(t, l, data)
		t += step
	}
	info := func(ph scsi.Line, bytes []byte) {
		for _, b := range bytes {
			set(scsi.BSY|ph|scsi.REQ, b)
			set(scsi.BSY|ph|scsi.REQ|scsi.ACK, b)
			set(scsi.BSY|ph|scsi.ACK, b)
			set(scsi.BSY|ph, b)
		}
	}
	var starts []sched.Time
	for i := 0; i < n; i++ {
		set(scsi.SEL, 0x80)
		set(scsi.SEL|scsi.BSY, 0x81)
		set(scsi.BSY, 0)
		starts = append(starts, t)
		info(scsi.CD, []byte{0x08, 0, 0, byte(i), 1, 0})
		data := make([]byte, dataBytes)
		for j := range data {
			data[j] = byte(i + j)
		}
		info(scsi.IO, data)
		info(scsi.CD|scsi.IO, []byte{0})
		info(scsi.MSG|scsi.CD|scsi.IO, []byte{0})
		set(0, 0)
		t += gap * sched.Time(1+i%7)
	}
	return starts
}

func TestPlaceLabels(t *testing.T) {
	const cw = 10.0
	for _, tc := range []struct {
		name  string
		in    []Label
		width int
		want  []Placed
	}{
		{"apart", []Label{{X: 0, Text: "AB"}, {X: 50, Text: "CD"}}, 100, []Placed{{0, "AB"}, {50, "CD"}}},
		{"pushed right by the previous", []Label{{X: 0, Text: "ABCD"}, {X: 20, Text: "EF"}}, 100, []Placed{{0, "ABCD"}, {44, "EF"}}},
		{"cut at the right edge", []Label{{X: 60, Text: "ABCDEFGH", Min: 2}}, 100, []Placed{{60, "ABC>"}}},
		{"left out below Min", []Label{{X: 80, Text: "ABCDEFGH", Min: 3}}, 100, nil},
		{"cut at its limit", []Label{{X: 0, Limit: 40, Text: "ABCDEFGH", Min: 2}, {X: 40, Text: "XY"}}, 100, []Placed{{0, "ABC>"}, {44, "XY"}}},
		{"started before the view", []Label{{X: -300, Limit: 50, Text: "ABC", Min: 1}}, 100, []Placed{{0, "ABC"}}},
		{"a byte that no longer fits is left out", []Label{{X: 0, Text: "00", Min: 2}, {X: 5, Text: "01", Min: 2}, {X: 90, Text: "02", Min: 2}}, 100, []Placed{{0, "00"}, {24, "01"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, PlaceLabels(tc.in, tc.width, cw))
		})
	}
}

// checkRow fails if two labels of a row overlap or one leaves the row.
func checkRow(t *testing.T, what string, row []Placed, width int, cw float64) {
	t.Helper()
	for i, p := range row {
		if p.X < 0 || p.End(cw) > width {
			t.Errorf("%s: label %q at %d..%d outside 0..%d", what, p.Text, p.X, p.End(cw), width)
		}
		if i > 0 && p.X < row[i-1].End(cw) {
			t.Errorf("%s: label %q at %d overlaps %q ending at %d", what, p.Text, p.X, row[i-1].Text, row[i-1].End(cw))
		}
	}
}

// At every zoom from the narrowest to the widest, over dense and sparse
// stretches of commands, no two labels of a row overlap and none leaves
// the row (the CMD row smeared at wide zoom, bytes and commands ran past
// the right edge).
func TestTimelineLabelsNeverOverlap(t *testing.T) {
	rec := NewRecorder(1 << 16)
	d := New(nopMachine{}, rec)
	starts := synthBus(rec, 200, 24, 300*sched.Nanosecond, 40*sched.Microsecond)
	end := rec.at(rec.Len() - 1).T
	shown := map[string]int{}
	for _, width := range []int{300, 996, 1540} {
		for _, cw := range []float64{7.2, 9} {
			for span := MinSpan; span <= MaxSpan; span = span * 5 / 2 {
				for _, at := range []sched.Time{starts[0], starts[17] + 5*sched.Microsecond, starts[100], end} {
					tl := &Timeline{Span: span, A: starts[3], B: starts[3] + 200*sched.Nanosecond}
					tl.Center(at)
					ls := tl.Labels(d, width, cw)
					what := fmt.Sprintf("width %d char %.1f span %s at %s", width, cw, FormatDuration(span), FormatTime(at))
					checkRow(t, what+" bytes", ls.Bytes, width, cw)
					checkRow(t, what+" phases", ls.Phases, width, cw)
					checkRow(t, what+" commands", ls.Commands, width, cw)
					checkRow(t, what+" cursors", ls.Cursors, width, cw)
					shown["bytes"] += len(ls.Bytes)
					shown["phases"] += len(ls.Phases)
					shown["commands"] += len(ls.Commands)
					shown["cursors"] += len(ls.Cursors)
				}
			}
		}
	}
	for _, row := range []string{"bytes", "phases", "commands", "cursors"} {
		assert.Positive(t, shown[row], "some zoom shows the %s row's labels", row)
	}
}

// Show puts a command in the middle of the window, the window fitting it;
// CommandAfter and CommandBefore walk the commands.
func TestTimelineShowAndWalk(t *testing.T) {
	rec := NewRecorder(1 << 16)
	starts := synthBus(rec, 5, 4, 100*sched.Nanosecond, 10*sched.Microsecond)
	c, ok := rec.CommandAfter(0)
	require.True(t, ok)
	assert.Equal(t, starts[0], c.Start)
	c, ok = rec.CommandAfter(c.Start)
	require.True(t, ok)
	assert.Equal(t, starts[1], c.Start)
	c, ok = rec.CommandBefore(starts[1])
	require.True(t, ok)
	assert.Equal(t, starts[0], c.Start)
	_, ok = rec.CommandBefore(starts[0])
	assert.False(t, ok)
	_, ok = rec.CommandAfter(starts[4])
	assert.False(t, ok)
	c, ok = rec.CommandAt(starts[2])
	require.True(t, ok)
	assert.Equal(t, byte(2), c.CDB[3])

	tl := NewTimeline(rec.at(rec.Len()-1).T, 10*sched.Second)
	require.True(t, tl.Follow)
	tl.Show(c.Start, c.End)
	assert.False(t, tl.Follow)
	assert.Equal(t, c.End-c.Start+(c.End-c.Start)/2, tl.Span, "the command fills two thirds")
	mid := c.Start + (c.End-c.Start)/2
	assert.InDelta(t, float64(mid), float64(tl.From+tl.Span/2), 1, "centred")
}

// nopMachine is a machine that never runs, for tests of views on a
// recorder fed by hand.
type nopMachine struct{ Machine }

func (nopMachine) Now() sched.Time             { return 0 }
func (nopMachine) AddHook(z80host.Hook) func() { return func() {} }
func (nopMachine) Peek(uint16) uint8           { return 0 }
