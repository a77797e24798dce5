package scsi

import "github.com/lbplus/lbplus/sched"

// Change is one bus change as observers see it.
type Change struct {
	T     sched.Time
	Lines Line
	Data  uint8
}

// Transfer is one byte moved on the bus: the ACK rising edge while REQ is
// asserted, with the phase and the byte on DB0-7 at that instant (the
// target's byte inbound, the initiator's outbound).
type Transfer struct {
	T     sched.Time
	Phase Phase
	Data  uint8
}

// Recorder keeps bus changes in memory so tests and benchmarks can measure
// from the bus itself, as the story's author did with a scope: per-byte
// intervals, phase durations. Pass its Change to Bus.Observe.
type Recorder struct {
	Changes []Change
	// Max, if positive, bounds Changes; later changes are dropped and
	// counted in Dropped.
	Max     int
	Dropped int
}

// NewRecorder returns an empty, unbounded recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Change is the Observer.
func (r *Recorder) Change(now sched.Time, lines Line, data uint8) {
	if r.Max > 0 && len(r.Changes) >= r.Max {
		r.Dropped++
		return
	}
	r.Changes = append(r.Changes, Change{now, lines, data})
}

// Reset forgets everything recorded.
func (r *Recorder) Reset() { r.Changes, r.Dropped = r.Changes[:0], 0 }

// Rising returns the times line l went from released to asserted.
func (r *Recorder) Rising(l Line) []sched.Time {
	var ts []sched.Time
	var prev Line
	for _, c := range r.Changes {
		if c.Lines&l != 0 && prev&l == 0 {
			ts = append(ts, c.T)
		}
		prev = c.Lines
	}
	return ts
}

// Transfers returns every byte moved, in order.
func (r *Recorder) Transfers() []Transfer {
	var out []Transfer
	var prev Line
	for _, c := range r.Changes {
		if c.Lines&ACK != 0 && prev&ACK == 0 && c.Lines&REQ != 0 && c.Lines&BSY != 0 {
			out = append(out, Transfer{c.T, InfoPhase(c.Lines), c.Data})
		}
		prev = c.Lines
	}
	return out
}

// PhaseTransfers returns the bytes moved in phase p.
func (r *Recorder) PhaseTransfers(p Phase) []Transfer {
	var out []Transfer
	for _, t := range r.Transfers() {
		if t.Phase == p {
			out = append(out, t)
		}
	}
	return out
}

// MeanInterval is the mean time between consecutive transfers of ts
// (0 with fewer than two).
func MeanInterval(ts []Transfer) sched.Time {
	if len(ts) < 2 {
		return 0
	}
	return (ts[len(ts)-1].T - ts[0].T) / sched.Time(len(ts)-1)
}
