// Package sched owns simulated time for the whole board.
//
// Time is an integer count of picoseconds since power-on. Every clock on the
// Little Board/PLUS is derived from its 16 MHz crystal (62 500 ps a period),
// so CPU T-states (4 crystal periods), CTC prescaler ticks and FDC clocks are
// all exact in this unit; device delays taken from datasheets in nanoseconds
// are exact too. Nothing here reads the wall clock.
//
// Devices never tick idle hardware: they schedule an Event at the simulated
// time of their next edge and catch up lazily when accessed. Events at the same
// time run in the order they were scheduled, so a run is a pure function of its
// inputs.
//
// Contract for the board loop: the CPU runs ahead of the scheduler up to the
// time of the next event. Before a device is accessed at time t the board calls
// Advance(t), which first runs every event due at or before t. A device that
// schedules an event earlier than the current horizon triggers OnEarlier, so the
// CPU can stop at that event instead of running past it.
package sched

import (
	"container/heap"
	"fmt"
)

// Time is simulated time in picoseconds.
type Time int64

// Units of Time.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000 * Picosecond
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Clocks of the board, all derived from the crystal [F MAME-ampro, REFERENCE.md 1.1].
const (
	CrystalHz     = 16_000_000         // Y1, datasheet
	CrystalPeriod = Second / CrystalHz // 62.5 ns
	CPUClockHz    = CrystalHz / 4      // Z80A, CTC, DART clock
	TState        = CrystalPeriod * 4  // 250 ns: one Z80 clock
	CTCTrigPeriod = CrystalPeriod * 8  // 2 MHz CLK/TRG0 and 1
	FDCClockHz    = CrystalHz / 2      // WD1772 clock, 8 MHz
	FDCPeriod     = CrystalPeriod * 2  // 125 ns
	MaxTime       = Time(1<<63 - 1)    // "never"
)

// Duration formats t for humans ("12.345 ms").
func (t Time) String() string {
	switch {
	case t >= Second || t <= -Second:
		return fmt.Sprintf("%.6f s", float64(t)/float64(Second))
	case t >= Millisecond || t <= -Millisecond:
		return fmt.Sprintf("%.3f ms", float64(t)/float64(Millisecond))
	case t >= Microsecond || t <= -Microsecond:
		return fmt.Sprintf("%.3f us", float64(t)/float64(Microsecond))
	default:
		return fmt.Sprintf("%d ns", t/Nanosecond)
	}
}

// Seconds returns t as floating-point seconds, for reports only.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// Event is a scheduled callback. It may be cancelled before it runs.
type Event struct {
	at    Time
	seq   uint64
	name  string
	fn    func(now Time)
	index int // position in the heap, -1 when not queued
}

// At returns the time the event is due.
func (e *Event) At() Time { return e.at }

// Name returns the label given when the event was scheduled (for tracing).
func (e *Event) Name() string { return e.name }

// Pending reports whether the event is still queued.
func (e *Event) Pending() bool { return e != nil && e.index >= 0 }

type eventHeap []*Event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *eventHeap) Push(x any) {
	e := x.(*Event)
	e.index = len(*h)
	*h = append(*h, e)
}
func (h *eventHeap) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.index = -1
	*h = old[:n-1]
	return e
}

// Scheduler is the single owner of simulated time.
type Scheduler struct {
	now    Time
	seq    uint64
	events eventHeap

	// OnEarlier, if set, is called when an event is scheduled at a time
	// earlier than every event queued before it. The board uses it to pull
	// the CPU's run limit in.
	OnEarlier func(at Time)

	// Trace, if set, is called before each event runs (debugger, logs).
	Trace func(now Time, name string)
}

// New returns a scheduler at time zero.
func New() *Scheduler { return &Scheduler{} }

// Now returns the current simulated time.
func (s *Scheduler) Now() Time { return s.now }

// At schedules fn to run at absolute time at. Scheduling in the past is a
// programming error in a device model and panics: it would break causality.
func (s *Scheduler) At(at Time, name string, fn func(now Time)) *Event {
	if at < s.now {
		panic(fmt.Sprintf("sched: event %q scheduled at %v, before now %v", name, at, s.now))
	}
	earliest := len(s.events) == 0 || at < s.events[0].at
	s.seq++
	e := &Event{at: at, seq: s.seq, name: name, fn: fn, index: -1}
	heap.Push(&s.events, e)
	if earliest && s.OnEarlier != nil {
		s.OnEarlier(at)
	}
	return e
}

// After schedules fn to run d after now.
func (s *Scheduler) After(d Time, name string, fn func(now Time)) *Event {
	return s.At(s.now+d, name, fn)
}

// Cancel removes e from the queue if it is still pending. Cancelling nil or an
// event that already ran is harmless.
func (s *Scheduler) Cancel(e *Event) {
	if e == nil || e.index < 0 {
		return
	}
	heap.Remove(&s.events, e.index)
}

// Next returns the time of the earliest pending event, or MaxTime.
func (s *Scheduler) Next() Time {
	if len(s.events) == 0 {
		return MaxTime
	}
	return s.events[0].at
}

// Pending returns how many events are queued.
func (s *Scheduler) Pending() int { return len(s.events) }

// Advance runs, in order, every event due at or before t, then sets now to t.
// Events may schedule further events; those due by t run too. Advancing to a
// time before now is a no-op (the CPU may report an access at the instant the
// scheduler already reached).
func (s *Scheduler) Advance(t Time) {
	for len(s.events) > 0 && s.events[0].at <= t {
		e := heap.Pop(&s.events).(*Event)
		if e.at > s.now {
			s.now = e.at
		}
		if s.Trace != nil {
			s.Trace(s.now, e.name)
		}
		e.fn(s.now)
	}
	if t > s.now {
		s.now = t
	}
}
