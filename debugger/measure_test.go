package debugger

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// recordBackup runs BACKUP disk-only (one pass of 8 KB) with the signal
// recorder on the bus.
func recordBackup(t *testing.T, mode backup.Handshake, readSectors int) *Recorder {
	t.Helper()
	p := backup.Defaults()
	p.TapeID = backup.NoTape
	p.DiskMode = mode
	p.ReadSectors = readSectors
	p.Passes = 1
	rec := NewRecorder(1 << 18)
	dir := t.TempDir()
	r, err := bench.Run(bench.Setup{Name: "debugger", DiskInterleave: 3, Program: p},
		bench.Options{Dir: dir, OnBus: func(bus *scsi.Bus) { bus.Observe(rec.SCSI) }})
	require.NoError(t, err)
	require.Empty(t, r.Failed)
	return rec
}

// dataIn returns the recorded DATA IN segments.
func dataIn(rec *Recorder) []Segment {
	var out []Segment
	for _, s := range rec.Segments(0, sched.MaxTime) {
		if s.Phase == scsi.DataIn {
			out = append(out, s)
		}
	}
	return out
}

// The story's scope measurement, from the timeline's view model: cursors on
// two consecutive ACKs in the middle of a READ's DATA IN read about 15 us in
// byte-by-byte mode and 5.25 us with INIR bursts.
func TestTimelineACKIntervals(t *testing.T) {
	for _, c := range []struct {
		name string
		mode backup.Handshake
		want float64 // us
		tol  float64
	}{{"byte", backup.Byte, 15, 0.3}, {"INIR burst", backup.Burst, 5.25, 0.1}} {
		t.Run(c.name, func(t *testing.T) {
			rec := recordBackup(t, c.mode, 16)
			segs := dataIn(rec)
			require.NotEmpty(t, segs)
			s := segs[0]
			require.Equal(t, 8192, s.Bytes)
			// The 101st byte: well inside the first sector's burst.
			tr := rec.Transfers(s.Start, s.End)
			tl := NewTimeline(s.End, sched.Millisecond)
			dt, err := tl.CursorsOnConsecutive(rec, Signal(scsi.ACK), tr[100].T)
			require.NoError(t, err)
			assert.InDelta(t, c.want, float64(dt)/float64(sched.Microsecond), c.tol)
			assert.Equal(t, tr[100].T, tl.A)
			assert.Equal(t, tr[101].T, tl.B)
			assert.True(t, tl.A >= tl.From && tl.B < tl.To(), "both cursors are in the window")
		})
	}
}

// Two 4 KB READs at 3:1 lose a revolution between them: the timeline shows
// a gap of about one revolution (16.7 ms at 3600 rpm) from the first
// command's STATUS to the second's DATA IN.
func TestTimelineLostRevolution(t *testing.T) {
	const rev = sched.Second / 60 // ST-125 at 3600 rpm [F]
	rec := recordBackup(t, backup.Burst, 8)
	segs := rec.Segments(0, sched.MaxTime)
	var status []Segment
	for _, s := range segs {
		if s.Phase == scsi.Status {
			status = append(status, s)
		}
	}
	din := dataIn(rec)
	require.GreaterOrEqual(t, len(din), 2)
	require.GreaterOrEqual(t, len(status), 1)
	var first Segment
	for _, s := range status {
		if s.Start > din[0].Start {
			first = s
			break
		}
	}
	// The timeline around both READs, cursors on the first's STATUS and
	// the second's DATA IN: B-A is the gap.
	tl := NewTimeline(din[1].Start+sched.Millisecond, 2*rev)
	tl.A, tl.B = first.Start, din[1].Start
	require.True(t, tl.A >= tl.From && tl.B < tl.To(), "both cursors are in the window")
	gap := tl.Delta()
	t.Logf("STATUS of READ 1 at %s, DATA IN of READ 2 at %s: gap %s", FormatTime(first.Start), FormatTime(din[1].Start), FormatDuration(gap))
	assert.InDelta(t, 1.0, float64(gap)/float64(rev), 0.35, "about one revolution")
	// From the second READ's last CDB byte to its DATA IN the bus is
	// quiet, not one ACK, for most of that revolution.
	var cmd2 Segment
	for _, s := range segs {
		if s.Phase == scsi.Command && s.Start > first.Start && s.Start < din[1].Start {
			cmd2 = s
		}
	}
	cdb := rec.Transfers(cmd2.Start, din[1].Start)
	require.Len(t, cdb, 6, "the second READ's CDB")
	last := cdb[len(cdb)-1].T
	assert.Len(t, rec.Rising(Signal(scsi.ACK), last+1, din[1].Start), 0)
	assert.Greater(t, float64(din[1].Start-last)/float64(rev), 0.6)
}
