package emu

import "github.com/lbplus/lbplus/sched"

// The trace hash folds every I/O access, interrupt acknowledge, RETI and
// scheduler event (its time and the length of its name) into a 64-bit hash
// (FNV-1a style, a word at a time, with a shift to spread high bits), so two
// runs can be compared for determinism to the T-state without storing a log.
// Event names are not hashed byte by byte: several events run per SCSI byte,
// and the I/O accesses (port, value, T-state) and event times already pin a
// run down.
//
// The hash is a sched.Trace the scheduler folds each event into as it
// runs (b.s.Trace), with no observer call.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = sched.TracePrime
)

func (b *Board) mix(x uint64) { b.trace.Mix(x) }

// TraceHash returns the hash of everything on the board's I/O side so far,
// combined with the CPU's T-state count.
func (b *Board) TraceHash() uint64 {
	h := b.trace.Hash ^ b.cpu.T()
	return h * fnvPrime
}

// IOCount is how many I/O accesses, acknowledges, RETIs and events the board
// has seen.
func (b *Board) IOCount() uint64 { return b.trace.Count }
