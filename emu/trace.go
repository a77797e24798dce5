package emu

import "github.com/lbplus/lbplus/sched"

// The trace hash folds every I/O access, interrupt acknowledge, RETI and
// scheduler event (its time and the length of its name) into a 64-bit hash
// (FNV-1a style, a word at a time, with a shift to spread high bits), so two
// runs can be compared for determinism to the T-state without storing a log.
// Event names are not hashed byte by byte: several events run per SCSI byte,
// and the I/O accesses (port, value, T-state) and event times already pin a
// run down.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (b *Board) mix(x uint64) {
	b.ioCount++
	h := (b.hash ^ x) * fnvPrime
	b.hash = h ^ h>>29
}

func (b *Board) traceEvent(now sched.Time, e *sched.Event) {
	b.mix(uint64(now)<<8 ^ uint64(len(e.Name())))
}

// TraceHash returns the hash of everything on the board's I/O side so far,
// combined with the CPU's T-state count.
func (b *Board) TraceHash() uint64 {
	h := b.hash ^ b.cpu.T()
	return h * fnvPrime
}

// IOCount is how many I/O accesses, acknowledges, RETIs and events the board
// has seen.
func (b *Board) IOCount() uint64 { return b.ioCount }
