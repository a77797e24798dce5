package debugger

import (
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The transfer laid open: for one SCSI command, its CDB, every byte of each
// of its phases and the handshake's timing per phase, read from the kept
// edges; and where in memory a DATA IN went, found while it ran.

// Interval summarises durations: how many, the shortest, the longest and
// their sum (for the mean).
type Interval struct {
	N        int
	Min, Max sched.Time
	Sum      sched.Time
}

func (s *Interval) add(d sched.Time) {
	if s.N == 0 || d < s.Min {
		s.Min = d
	}
	if s.N == 0 || d > s.Max {
		s.Max = d
	}
	s.N++
	s.Sum += d
}

// Mean is the average duration (0 without any).
func (s Interval) Mean() sched.Time {
	if s.N == 0 {
		return 0
	}
	return s.Sum / sched.Time(s.N)
}

// PhaseTransfer is one phase of a command as the bus showed it.
type PhaseTransfer struct {
	Segment
	// Data is every byte moved in the phase that the kept edges show.
	Data []byte
	// ReqAck is from REQ asserted to the initiator's ACK for each byte
	// (the initiator's response); AckReq from a byte's ACK to the next
	// byte's REQ in the same phase (the target's turnaround: it sees
	// ACK, releases REQ, sees ACK released and offers the next byte).
	ReqAck, AckReq Interval
}

// CommandTransfer is a command laid open.
type CommandTransfer struct {
	Command
	// Decoded is the CDB in words.
	Decoded string
	Phases  []PhaseTransfer
	// Partial: the edge ring no longer holds the command's start, so
	// its bytes and timings are those of the part still kept.
	Partial bool
}

// Transfer lays c open from the kept edges and segments (c as the
// recorder's Commands returned it).
func (d *Debugger) Transfer(c *Command) CommandTransfer {
	r := d.Rec
	end := c.End
	if end == 0 {
		end = d.m.Now() + 1
	}
	out := CommandTransfer{Command: *c, Decoded: DecodeCDB(c.Bytes(), d.kind(c.Target)), Partial: r.Oldest() > c.Start}
	for _, s := range r.Segments(c.Start, end) {
		if s.Start >= c.Start && s.Start < end && s.Phase != scsi.BusFree {
			out.Phases = append(out.Phases, PhaseTransfer{Segment: s})
		}
	}
	if len(out.Phases) == 0 {
		return out
	}
	// phaseAt is the phase holding time t (the last one started by t).
	k := 0
	phaseAt := func(t sched.Time) *PhaseTransfer {
		for k+1 < len(out.Phases) && out.Phases[k+1].Start <= t {
			k++
		}
		return &out.Phases[k]
	}
	i, j := r.search(c.Start), r.search(end)
	var prev Signal
	if i > 0 {
		prev = r.at(i - 1).Sig
	}
	var reqT, ackT sched.Time
	var ackPhase *PhaseTransfer
	for n := i; n < j; n++ {
		e := r.at(n)
		l, pl := scsi.Line(e.Sig), scsi.Line(prev)
		prev = e.Sig
		if l&scsi.BSY == 0 {
			continue
		}
		p := phaseAt(e.T)
		if l&scsi.REQ != 0 && pl&scsi.REQ == 0 {
			reqT = e.T
			if ackPhase == p && ackT != 0 {
				p.AckReq.add(e.T - ackT)
			}
			ackT = 0
		}
		if l&scsi.ACK != 0 && pl&scsi.ACK == 0 && l&scsi.REQ != 0 {
			p.Data = append(p.Data, e.Data)
			if reqT != 0 {
				p.ReqAck.add(e.T - reqT)
			}
			reqT, ackT, ackPhase = 0, e.T, p
		}
	}
	return out
}

// destTrace follows where the bytes of a DATA IN phase go in memory: while
// a command's DATA IN runs (and until its destination is known) a memory
// observer sees the CPU's writes. [A] A byte read from the bus (an IN
// whose value is the byte on DB0-7) and then written to memory is stored
// at that address; the destination is certain once two successive bytes
// land at successive addresses, which excludes the counters and return
// addresses a loop writes in between. The first byte's address is where
// the transfer starts.
type destTrace struct {
	remove func() // the memory observer, while tracing
	arm    bool   // a DATA IN started: attach at the next instruction
	done   bool   // found (or the phase ended): detach there
	cmd    *Command
	idx    int   // the recorder's byte count of the phase at the last read
	n      int   // bytes read from the bus since the trace began (-1: none)
	val    uint8 // its value
	read   bool  // an IN read the bus's byte
	cands  []uint16
	prev   []uint16 // where the previous byte was written
}

// destPhase follows the phases: a command's DATA IN arms the trace,
// any other phase ends it.
func (d *Debugger) destPhase(s *Segment) {
	t := &d.dest
	if s.Phase == scsi.DataIn && d.Rec.dec.cmd != nil && d.Rec.dec.cmd.Memory < 0 {
		if _, ok := d.m.(MemoryWatcher); ok {
			*t = destTrace{remove: t.remove, arm: true, cmd: d.Rec.dec.cmd, idx: -1, n: -1}
			d.slow = true
		}
		return
	}
	if t.remove != nil || t.arm {
		t.arm, t.done = false, true
	}
}

// destIO sees the CPU's reads: the bus's byte read in DATA IN.
func (d *Debugger) destIO(v uint8, out bool) {
	t := &d.dest
	if t.remove == nil || out || t.done {
		return
	}
	cur := d.Rec.dec.cur
	_, data := d.Rec.Signals()
	if cur == nil || cur.Phase != scsi.DataIn || v != data {
		return // a status poll between a byte's read and its store
	}
	// The recorder counts a byte at its ACK, which the CPU's read comes
	// before (programmed I/O) or makes (a DACK read): successive bytes
	// are successive counts either way, and the trace counts the reads.
	switch idx := cur.Bytes; {
	case idx == t.idx: // the same byte read again
	case idx == t.idx+1:
		t.prev, t.cands = append(t.prev[:0], t.cands...), t.cands[:0]
		t.idx = idx
		t.n++
	default:
		t.prev, t.cands = t.prev[:0], t.cands[:0]
		t.idx = idx
		t.n++
	}
	t.val, t.read = v, true
}

// destWrite is the memory observer while tracing.
func (d *Debugger) destWrite(_ uint64, addr uint16, v uint8, write bool) {
	t := &d.dest
	if !write || !t.read || v != t.val || t.done {
		return
	}
	for _, p := range t.prev {
		if p+1 == addr {
			t.cmd.Memory = int32(addr) - int32(t.n)
			t.done = true
			return
		}
	}
	if len(t.cands) < 16 {
		t.cands = append(t.cands, addr)
	}
}

// destStep attaches and detaches the trace's memory observer at an
// instruction boundary (never inside the observer's own call).
func (d *Debugger) destStep() {
	t := &d.dest
	if t.arm {
		t.arm = false
		if w, ok := d.m.(MemoryWatcher); ok && t.remove == nil {
			t.remove = w.WatchMemory(d.destWrite)
		}
	}
	if t.done {
		if t.remove != nil {
			t.remove()
		}
		*t = destTrace{prev: t.prev[:0], cands: t.cands[:0]}
		d.updateSlow()
	}
}

// destActive says whether the trace needs the instruction-boundary check.
func (d *Debugger) destActive() bool { return d.dest.arm || d.dest.remove != nil || d.dest.done }
