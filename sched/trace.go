package sched

// Trace is a running hash of what a machine does, folded a 64-bit word at
// a time (FNV-1a style, with a shift to spread high bits), and the count
// of words folded. A scheduler given one (Scheduler.Trace) folds every
// event into it as it runs, before the observers are told: the event's
// time and the length of its name. Names are not hashed byte by byte:
// several events run per SCSI byte, and the times pin a run down. The
// board folds its I/O accesses into the same Trace, so that one hash
// compares two runs to the T-state without storing a log; keeping it here
// costs an event no call.
type Trace struct {
	Hash  uint64
	Count uint64
}

// TracePrime is the FNV-1a 64-bit prime the hash multiplies by.
const TracePrime = 1099511628211

// Mix folds x into the hash.
func (h *Trace) Mix(x uint64) {
	h.Count++
	v := (h.Hash ^ x) * TracePrime
	h.Hash = v ^ v>>29
}

// mixEvent is the word an event folds in.
func mixEvent(now Time, e *Event) uint64 { return uint64(now)<<8 ^ uint64(len(e.name)) }
