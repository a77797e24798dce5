package debugger

import (
	"sort"
	"strings"
	"unsafe"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Signal is a set of recorded wires, one bit each, 1 = asserted. The low
// bits are the SCSI control lines with scsi.Line's bit numbers, so a bus
// change is recorded without translation.
type Signal uint32

// Recorded signals beyond the SCSI control lines.
const (
	// DRQ and IRQ are the 5380's outputs.
	DRQ Signal = 1 << (16 + iota)
	IRQ
	// CTCINT and DARTINT are the CTC's and the DART's interrupt requests
	// on the daisy chain.
	CTCINT
	DARTINT
	// INDEX, STEP, FDRQ and INTRQ are the WD1772's lines; they are
	// recorded once a floppy controller reports them (Recorder.Floppy).
	INDEX
	STEP
	FDRQ
	INTRQ
)

// SCSILines is the part of a Signal that is the SCSI bus.
const SCSILines = Signal(scsi.AllControl | scsi.DBP)

var extraNames = []string{"DRQ", "IRQ", "CTCINT", "DARTINT", "INDEX", "STEP", "FDRQ", "INTRQ"}

// Name returns the name of a single-bit signal.
func (s Signal) Name() string {
	for i := 0; i < 32; i++ {
		if s == 1<<i {
			if i < 16 {
				return scsi.Line(s).String()
			}
			if i-16 < len(extraNames) {
				return extraNames[i-16]
			}
		}
	}
	return "?"
}

// String lists the asserted signals, e.g. "BSY|REQ|DRQ".
func (s Signal) String() string {
	var parts []string
	if l := scsi.Line(s & SCSILines); l != 0 {
		parts = append(parts, l.String())
	}
	for i, n := range extraNames {
		if s&(1<<(16+i)) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "|")
}

// Edge is one recorded change: the time, every recorded signal after the
// change, and DB0-7.
type Edge struct {
	T    sched.Time
	Sig  Signal
	Data uint8
}

// EdgeSize is the memory one recorded edge takes, in bytes (an int64, a
// uint32 and a byte, padded to 8: 16).
const EdgeSize = int(unsafe.Sizeof(Edge{}))

// DefaultEdges is the recorder's default capacity: 1 Mi edges, 16 MiB. At
// about six edges per SCSI byte that is the last ~170 000 bytes on the bus,
// several seconds of a backup.
const DefaultEdges = 1 << 20

// Recorder is the signal recorder: a ring buffer of timestamped edges of
// the SCSI bus, the 5380's DRQ and IRQ, the interrupt requests and the
// floppy lines, bounded to a fixed number of edges (the oldest are
// overwritten), plus an online decoder of SCSI phases and commands
// (decode.go). Its memory is fixed when it is made: Capacity()*EdgeSize
// bytes for edges plus the bounded segment and command rings.
type Recorder struct {
	edges []Edge
	head  int // index of the next write
	n     int // valid edges
	total uint64
	sig   Signal
	data  uint8

	dec decoder
	// tap, if set, is told of every recorded change after it (the T-state
	// cursor's record).
	tap func(now sched.Time)
}

// NewRecorder returns a recorder that keeps the last capacity edges
// (DefaultEdges if capacity <= 0).
func NewRecorder(capacity int) *Recorder {
	if capacity <= 0 {
		capacity = DefaultEdges
	}
	r := &Recorder{edges: make([]Edge, capacity)}
	r.dec.init()
	return r
}

// Reset forgets every edge, segment and command (after loading a state:
// the recording described another run). The signals' levels are kept.
func (r *Recorder) Reset() {
	r.head, r.n = 0, 0
	r.dec.segs.clear()
	r.dec.cmds.clear()
	r.dec.cur, r.dec.cmd, r.dec.prev = nil, nil, Segment{}
}

// Capacity is the number of edges kept.
func (r *Recorder) Capacity() int { return len(r.edges) }

// MemoryBytes is the recorder's fixed memory for edges, segments and
// commands, however long it records.
func (r *Recorder) MemoryBytes() int {
	return len(r.edges)*EdgeSize + r.dec.memoryBytes()
}

// Total counts every edge recorded since NewRecorder, kept or overwritten.
func (r *Recorder) Total() uint64 { return r.total }

// Len is the number of edges kept now.
func (r *Recorder) Len() int { return r.n }

// Signals returns the current level of every recorded signal and DB0-7.
func (r *Recorder) Signals() (Signal, uint8) { return r.sig, r.data }

func (r *Recorder) push(now sched.Time, sig Signal, data uint8) {
	r.sig, r.data = sig, data
	e := &r.edges[r.head]
	e.T, e.Sig, e.Data = now, sig, data
	r.head++
	if r.head == len(r.edges) {
		r.head = 0
	}
	if r.n < len(r.edges) {
		r.n++
	}
	r.total++
	if r.tap != nil {
		r.tap(now)
	}
}

// SCSI is the bus observer: pass it to scsi.Bus.Observe.
func (r *Recorder) SCSI(now sched.Time, lines scsi.Line, data uint8) {
	prev := scsi.Line(r.sig & SCSILines)
	r.push(now, r.sig&^SCSILines|Signal(lines), data)
	r.dec.bus(now, prev, lines, data)
	if r.dec.l != nil {
		r.dec.l.edge(now)
	}
}

// Set records a change of one of the non-SCSI signals (DRQ, IRQ, ...).
// Setting a signal to its current level records nothing.
func (r *Recorder) Set(now sched.Time, s Signal, on bool) {
	sig := r.sig &^ s
	if on {
		sig |= s
	}
	if sig == r.sig {
		return
	}
	r.push(now, sig, r.data)
}

// at returns the i-th kept edge, oldest first.
func (r *Recorder) at(i int) *Edge {
	j := r.head - r.n + i
	if j < 0 {
		j += len(r.edges)
	}
	return &r.edges[j]
}

// search returns the index (oldest first) of the first kept edge at or
// after t.
func (r *Recorder) search(t sched.Time) int {
	return sort.Search(r.n, func(i int) bool { return r.at(i).T >= t })
}

// Oldest returns the time of the oldest kept edge (0 if none).
func (r *Recorder) Oldest() sched.Time {
	if r.n == 0 {
		return 0
	}
	return r.at(0).T
}

// Edges returns copies of the kept edges with from <= T < to, plus the
// state just before from (the last edge before it, or a zero edge at from)
// as the first element, so a timeline can draw every signal's level from
// the left edge of a window.
func (r *Recorder) Edges(from, to sched.Time) []Edge {
	i := r.search(from)
	j := r.search(to)
	out := make([]Edge, 0, j-i+1)
	if i > 0 {
		e := *r.at(i - 1)
		e.T = from
		out = append(out, e)
	} else {
		out = append(out, Edge{T: from})
	}
	for k := i; k < j; k++ {
		out = append(out, *r.at(k))
	}
	return out
}

// Transfer is one byte moved on the SCSI bus: the ACK rising edge while
// REQ and BSY are asserted, with its phase and DB0-7 at that instant.
type Transfer = scsi.Transfer

// Transfers returns the bytes moved with from <= T < to, from the kept
// edges.
func (r *Recorder) Transfers(from, to sched.Time) []Transfer {
	i := r.search(from)
	j := r.search(to)
	var out []Transfer
	var prev Signal
	if i > 0 {
		prev = r.at(i - 1).Sig
	}
	for k := i; k < j; k++ {
		e := r.at(k)
		l := scsi.Line(e.Sig)
		if l&scsi.ACK != 0 && scsi.Line(prev)&scsi.ACK == 0 && l&scsi.REQ != 0 && l&scsi.BSY != 0 {
			out = append(out, Transfer{T: e.T, Phase: scsi.InfoPhase(l), Data: e.Data})
		}
		prev = e.Sig
	}
	return out
}

// Rising returns the times signal s went from released to asserted with
// from <= T < to.
func (r *Recorder) Rising(s Signal, from, to sched.Time) []sched.Time {
	i := r.search(from)
	j := r.search(to)
	var out []sched.Time
	var prev Signal
	if i > 0 {
		prev = r.at(i - 1).Sig
	}
	for k := i; k < j; k++ {
		e := r.at(k)
		if e.Sig&s != 0 && prev&s == 0 {
			out = append(out, e.T)
		}
		prev = e.Sig
	}
	return out
}
