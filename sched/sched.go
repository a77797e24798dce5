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
// A device whose edges recur (a handshake step per byte) owns its Events,
// set up once with Event.Init or NewEvent, and queues them again with
// Schedule or ScheduleAfter: nothing is allocated per edge. At and After
// give one-shot events, taken from chunks allocated a hundred or so at a
// time.
//
// Contract for the board loop: the CPU runs ahead of the scheduler up to the
// time of the next event. Before a device is accessed at time t the board calls
// Advance(t), which first runs every event due at or before t. A device that
// schedules an event earlier than the current horizon triggers OnEarlier, so the
// CPU can stop at that event instead of running past it.
//
// Quiet events: an event marked with SetQuiet promises that running it
// later than its time, at the next Advance, changes nothing the CPU sees
// until then (it drives no interrupt, stops nothing and touches no memory;
// what it changes is read through an I/O access, which advances the
// scheduler first). Quiet events are kept in their own queue, so a board
// may run its CPU up to NextLoud rather than Next and let them run at its
// next I/O access (QuietLate). They still run in exactly the same order
// and at the same simulated times; only fewer CPU runs are cut short.
//
// Observation and state: any number of observers (Observe) see each event
// as it runs; with none attached the run loop pays one length check. An
// owned event registered with Own can be saved and restored by its name:
// State lists the queue as (name, time, order) and SetState rebuilds it
// from the owners' events, so a machine's pending edges survive a save
// state. One-shot events from At and After carry a closure and cannot be
// restored; State reports them as an error (docs/STATE.md).
package sched

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
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

// Clocks of the board, all derived from the crystal [F MAME-ampro, docs/HARDWARE.md 1.1].
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

// FormatDuration formats a span for a panel or a prompt, in a unit that
// suits it ("1500 ns", "16.667 ms", "2.000 s"): the debugger's format,
// shared with the device models' panels.
func FormatDuration(t Time) string {
	switch {
	case t < 10*Microsecond:
		return fmt.Sprintf("%d ns", t/Nanosecond)
	case t < 10*Millisecond:
		return fmt.Sprintf("%.2f us", float64(t)/float64(Microsecond))
	case t < 10*Second:
		return fmt.Sprintf("%.3f ms", float64(t)/float64(Millisecond))
	}
	return fmt.Sprintf("%.3f s", float64(t)/float64(Second))
}

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
//
// Events from At and After are one-shot. A device that schedules the same
// kind of edge again and again (a handshake step per byte) may instead own
// an Event, set up once with Init or NewEvent, and pass it to Schedule each
// time: nothing is allocated per edge. The zero Event is valid and not
// pending.
type Event struct {
	at   Time
	seq  uint64
	name string
	fn   func(now Time)
	pos  int // 1 + position in its heap, 0 when not queued
	// quiet: queued in Scheduler.quiet rather than events (SetQuiet).
	quiet bool
	// watched counts the observers of this event alone (ObserveEvent).
	watched int32
}

// NewEvent returns an unscheduled reusable event: name labels it for
// tracing, fn runs each time it falls due. Pass it to Schedule.
func NewEvent(name string, fn func(now Time)) *Event {
	return &Event{name: name, fn: fn}
}

// Init sets up e (for instance embedded in a device) as NewEvent does. e
// must not be pending.
func (e *Event) Init(name string, fn func(now Time)) {
	if e.pos != 0 {
		panic(fmt.Sprintf("sched: Init of pending event %q", e.name))
	}
	e.name, e.fn = name, fn
}

// SetQuiet marks e as quiet (see the package doc): running it late, at
// the next Advance, changes nothing the CPU sees before then. e must not
// be pending.
func (e *Event) SetQuiet(q bool) {
	if e.pos != 0 {
		panic(fmt.Sprintf("sched: SetQuiet of pending event %q", e.name))
	}
	e.quiet = q
}

// Quiet reports whether e is marked quiet.
func (e *Event) Quiet() bool { return e.quiet }

// At returns the time the event is due.
func (e *Event) At() Time { return e.at }

// Name returns the label given when the event was scheduled (for tracing).
func (e *Event) Name() string { return e.name }

// Pending reports whether the event is still queued.
func (e *Event) Pending() bool { return e != nil && e.pos != 0 }

// before is the queue's order: time, then scheduling order.
func before(a, b *Event) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// eventChunk is how many one-shot events At allocates at once: one
// allocation per chunk instead of per event. A chunk is freed by the
// garbage collector once no event in it is referenced.
const eventChunk = 128

// Scheduler is the single owner of simulated time.
type Scheduler struct {
	now    Time
	seq    uint64
	events []*Event // binary min-heap ordered by before: the loud events
	quiet  []*Event // the same for the quiet events (SetQuiet)
	chunk  []Event  // one-shot events: chunk[used:] are unused
	used   int      // an index, not a re-slice: no pointer store per event
	// due is at most the time of the earliest pending event (Schedule
	// lowers it, runDue sets it exactly), so Advance with nothing due
	// is one comparison.
	due Time

	// OnEarlier, if set, is called when an event is scheduled at a time
	// earlier than every event queued before it. The board uses it to pull
	// the CPU's run limit in. With QuietLate set, only a loud event earlier
	// than every loud event calls it: quiet events may run late.
	OnEarlier func(at Time)
	// QuietLate says the board runs its CPU up to NextLoud, letting quiet
	// events run at its next Advance (see OnEarlier).
	QuietLate bool

	// Trace, if set, has each event folded in as it runs, before any
	// observer (see Trace).
	Trace *Trace

	// runTo is the time the Advance under way runs events up to (RunOn),
	// or -1 outside one.
	runTo Time

	observers []observer // of every event
	evObs     []observer // of one event each (Event.watched)
	nextObs   int
	owned     map[string][]*Event // restorable events by name (Own)
}

// Observer is told of each event just before it runs (debugger, trace
// hash, logs). It must not schedule or cancel events.
type Observer func(now Time, e *Event)

type observer struct {
	id   int
	only *Event // nil: every event
	fn   Observer
}

// Observe adds o to the event observers, after those already attached,
// and returns a function that removes it again.
func (s *Scheduler) Observe(o Observer) (remove func()) { return s.ObserveEvent(nil, o) }

// ObserveEvent is Observe for one owned event only (nil: every event):
// waiting for a rare edge costs the other events a comparison, not a call.
func (s *Scheduler) ObserveEvent(e *Event, o Observer) (remove func()) {
	s.nextObs++
	id := s.nextObs
	list := &s.observers
	if e != nil {
		list = &s.evObs
		e.watched++
	}
	*list = append(*list, observer{id, e, o})
	return func() {
		n := len(*list)
		*list = slices.DeleteFunc(*list, func(x observer) bool { return x.id == id })
		if e != nil && len(*list) < n {
			e.watched--
		}
	}
}

// Observers returns how many observers are attached (Observe and
// ObserveEvent alike).
func (s *Scheduler) Observers() int { return len(s.observers) + len(s.evObs) }

// New returns a scheduler at time zero.
func New() *Scheduler { return &Scheduler{runTo: -1} }

// Now returns the current simulated time.
func (s *Scheduler) Now() Time { return s.now }

// At schedules fn to run at absolute time at. Scheduling in the past is a
// programming error in a device model and panics: it would break causality.
func (s *Scheduler) At(at Time, name string, fn func(now Time)) *Event {
	if s.used == len(s.chunk) {
		s.chunk, s.used = make([]Event, eventChunk), 0
	}
	e := &s.chunk[s.used]
	s.used++
	e.name, e.fn = name, fn
	s.Schedule(e, at)
	return e
}

// After schedules fn to run d after now.
func (s *Scheduler) After(d Time, name string, fn func(now Time)) *Event {
	return s.At(s.now+d, name, fn)
}

// Schedule queues e (from NewEvent or Init, or one that already ran) to run
// at absolute time at. If e is still pending it is moved: exactly as if it
// were cancelled and scheduled anew, so among events due at the same time
// it runs after every event scheduled before this call. Scheduling in the
// past panics, as in At.
func (s *Scheduler) Schedule(e *Event, at Time) {
	if at < s.now {
		panic(fmt.Sprintf("sched: event %q scheduled at %v, before now %v", e.name, at, s.now))
	}
	h := &s.events
	if e.quiet {
		h = &s.quiet
	}
	if e.pos != 0 {
		remove(h, e.pos-1)
	}
	var earliest bool
	switch {
	case !s.QuietLate:
		earliest = s.Pending() == 0 || at < s.Next()
	case !e.quiet:
		earliest = len(s.events) == 0 || at < s.events[0].at
	}
	s.seq++
	e.at, e.seq = at, s.seq
	s.due = min(s.due, at)
	*h = append(*h, e)
	up(*h, len(*h)-1)
	if earliest && s.OnEarlier != nil {
		s.OnEarlier(at)
	}
}

// ScheduleAfter is Schedule at d after now.
func (s *Scheduler) ScheduleAfter(e *Event, d Time) { s.Schedule(e, s.now+d) }

// Cancel removes e from the queue if it is still pending. Cancelling nil or an
// event that already ran is harmless.
func (s *Scheduler) Cancel(e *Event) {
	if e == nil || e.pos == 0 {
		return
	}
	if e.quiet {
		remove(&s.quiet, e.pos-1)
	} else {
		remove(&s.events, e.pos-1)
	}
}

// up moves the event at position i of heap h towards the root until its
// parent is before it.
func up(h []*Event, i int) {
	e := h[i]
	for i > 0 {
		p := (i - 1) / 2
		q := h[p]
		if !before(e, q) {
			break
		}
		h[i] = q
		q.pos = i + 1
		i = p
	}
	h[i] = e
	e.pos = i + 1
}

// down moves the event at position i of heap h towards the leaves until
// no child is before it, and reports whether it moved.
func down(h []*Event, i int) bool {
	n := len(h)
	e := h[i]
	i0 := i
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && before(h[r], h[c]) {
			c = r
		}
		q := h[c]
		if !before(q, e) {
			break
		}
		h[i] = q
		q.pos = i + 1
		i = c
	}
	h[i] = e
	e.pos = i + 1
	return i > i0
}

// remove takes the event at position i out of heap *hp.
func remove(hp *[]*Event, i int) {
	h := *hp
	n := len(h) - 1
	e := h[i]
	e.pos = 0
	if i != n {
		h[i] = h[n]
		h[i].pos = i + 1
	}
	h[n] = nil
	h = h[:n]
	*hp = h
	if i != n {
		if !down(h, i) {
			up(h, i)
		}
	}
}

// popMin takes the earliest event out of heap *hp: remove(0) without the
// sift up a root never needs (one per event the board runs).
func popMin(hp *[]*Event) *Event {
	h := *hp
	n := len(h) - 1
	e := h[0]
	e.pos = 0
	h[0] = h[n]
	h[n] = nil
	h = h[:n]
	*hp = h
	if n > 0 {
		down(h, 0)
	}
	return e
}

// first returns the heap whose root is the earliest pending event, or nil.
func (s *Scheduler) first() *[]*Event {
	switch {
	case len(s.quiet) == 0:
		if len(s.events) == 0 {
			return nil
		}
		return &s.events
	case len(s.events) == 0 || before(s.quiet[0], s.events[0]):
		return &s.quiet
	}
	return &s.events
}

// Next returns the time of the earliest pending event, or MaxTime.
func (s *Scheduler) Next() Time {
	n := MaxTime
	if len(s.events) != 0 {
		n = s.events[0].at
	}
	if len(s.quiet) != 0 && s.quiet[0].at < n {
		n = s.quiet[0].at
	}
	return n
}

// NextLoud returns the time of the earliest pending event that is not
// quiet, or MaxTime.
func (s *Scheduler) NextLoud() Time {
	if len(s.events) == 0 {
		return MaxTime
	}
	return s.events[0].at
}

// Pending returns how many events are queued.
func (s *Scheduler) Pending() int { return len(s.events) + len(s.quiet) }

// Advance runs, in order, every event due at or before t, then sets now to t.
// Events may schedule further events; those due by t run too. Advancing to a
// time before now is a no-op (the CPU may report an access at the instant the
// scheduler already reached).
func (s *Scheduler) Advance(t Time) {
	// The common case, an I/O access with nothing due, stays inline.
	if t >= s.due {
		s.runDue(t)
	}
	if t > s.now {
		s.now = t
	}
}

// runDue runs every event due at or before t, in order (Advance).
func (s *Scheduler) runDue(t Time) {
	// runTo is the innermost Advance's, should an event's function call
	// Advance.
	outer := s.runTo
	s.runTo = t
	for {
		h := s.first()
		if h == nil || (*h)[0].at > t {
			break
		}
		e := popMin(h)
		if e.at > s.now {
			s.now = e.at
		}
		if s.Trace != nil {
			s.Trace.Mix(mixEvent(s.now, e))
		}
		if len(s.observers) != 0 {
			for _, o := range s.observers {
				o.fn(s.now, e)
			}
		}
		if e.watched != 0 {
			for _, o := range s.evObs {
				if o.only == e {
					o.fn(s.now, e)
				}
			}
		}
		e.fn(s.now)
	}
	s.due = s.Next()
	s.runTo = outer
}

// RunOn is Schedule(e, at) for a quiet event, called as the last act of
// a running event's function, with one difference: when e would be the
// next event the Advance under way runs and nothing observes the
// scheduler, RunOn runs it at once, doing what Schedule and Advance would
// (the sequence number, the time, the trace) before calling its function.
// A SCSI byte's handshake so runs step after step without queueing each
// (docs/ARCHITECTURE.md); the run is the same to the picosecond and the
// trace hash. It only schedules e when another event is due first (one
// queued for the same time runs first: it was scheduled earlier), when e
// is due after the Advance's time, when QuietLate is off (the board's CPU
// then stops at every event) or when any observer is attached.
func (s *Scheduler) RunOn(e *Event, at Time) {
	if at > s.runTo || at < s.now || !e.quiet || !s.QuietLate || e.pos != 0 ||
		len(s.observers) != 0 || len(s.evObs) != 0 ||
		len(s.events) != 0 && s.events[0].at <= at ||
		len(s.quiet) != 0 && s.quiet[0].at <= at {
		s.Schedule(e, at)
		return
	}
	s.seq++
	e.at, e.seq = at, s.seq
	s.now = at
	if s.Trace != nil {
		s.Trace.Mix(mixEvent(at, e))
	}
	e.fn(at)
}

// RunOnAfter is RunOn at d after now.
func (s *Scheduler) RunOnAfter(e *Event, d Time) { s.RunOn(e, s.now+d) }

// Own registers owned events (from NewEvent or Init) as restorable by their
// names. A device calls it once for each event it owns; names should be
// unique on a machine (the device's name is part of them), and SetState
// refuses a queued name that is owned twice.
func (s *Scheduler) Own(es ...*Event) {
	if s.owned == nil {
		s.owned = map[string][]*Event{}
	}
	for _, e := range es {
		if !slices.Contains(s.owned[e.name], e) {
			s.owned[e.name] = append(s.owned[e.name], e)
		}
	}
}

// QueuedEvent is one pending event in a saved queue.
type QueuedEvent struct {
	Name string
	At   Time
	Seq  uint64 // scheduling order among events due at the same time
}

// State is the scheduler's complete saved state: the time, the scheduling
// counter and the queue in run order.
type State struct {
	Now   Time
	Seq   uint64
	Queue []QueuedEvent
}

// ErrNotRestorable is wrapped by State and SetState for a pending event
// that is not owned (a one-shot closure from At or After) or whose name is
// owned by more than one event.
var ErrNotRestorable = errors.New("event cannot be saved: not owned under a unique name")

// State returns the saved form of the queue. It fails if a pending event
// could not be found again by SetState.
func (s *Scheduler) State() (State, error) {
	st := State{Now: s.now, Seq: s.seq, Queue: make([]QueuedEvent, 0, s.Pending())}
	for _, e := range slices.Concat(s.events, s.quiet) {
		if o := s.owned[e.name]; len(o) != 1 || o[0] != e {
			return State{}, fmt.Errorf("sched: %q at %v: %w", e.name, e.at, ErrNotRestorable)
		}
		st.Queue = append(st.Queue, QueuedEvent{Name: e.name, At: e.at, Seq: e.seq})
	}
	slices.SortFunc(st.Queue, func(a, b QueuedEvent) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Seq, b.Seq))
	})
	return st, nil
}

// SetState empties the queue and rebuilds it from st with the owned events
// of the same names, keeping their times and order. OnEarlier is not
// called: the caller restores the CPU's horizon itself.
func (s *Scheduler) SetState(st State) error {
	seen := make(map[string]bool, len(st.Queue))
	for _, q := range st.Queue {
		if o := s.owned[q.Name]; len(o) != 1 {
			return fmt.Errorf("sched: saved event %q: %w", q.Name, ErrNotRestorable)
		}
		if seen[q.Name] {
			return fmt.Errorf("sched: saved event %q is queued twice", q.Name)
		}
		seen[q.Name] = true
		if q.At < st.Now || q.Seq > st.Seq {
			return fmt.Errorf("sched: saved event %q at %v (seq %d) is inconsistent with now %v (seq %d)", q.Name, q.At, q.Seq, st.Now, st.Seq)
		}
	}
	for _, h := range []*[]*Event{&s.events, &s.quiet} {
		for len(*h) > 0 {
			remove(h, len(*h)-1)
		}
	}
	s.now, s.seq = st.Now, st.Seq
	for _, q := range st.Queue {
		e := s.owned[q.Name][0]
		e.at, e.seq = q.At, q.Seq
		h := &s.events
		if e.quiet {
			h = &s.quiet
		}
		*h = append(*h, e)
		up(*h, len(*h)-1)
	}
	s.due = s.Next()
	return nil
}
