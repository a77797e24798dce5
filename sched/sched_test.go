package sched

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClocksAreExact(t *testing.T) {
	assert.Equal(t, Time(62_500), CrystalPeriod)
	assert.Equal(t, Time(250_000), TState)
	assert.Equal(t, Time(500_000), CTCTrigPeriod)
	assert.Equal(t, Second, TState*CPUClockHz)
}

func TestEventsRunInTimeThenScheduleOrder(t *testing.T) {
	s := New()
	var got []string
	rec := func(name string) func(Time) { return func(Time) { got = append(got, name) } }
	s.At(30, "c", rec("c"))
	s.At(10, "a", rec("a"))
	s.At(30, "d", rec("d"))
	s.At(20, "b", func(now Time) {
		got = append(got, "b")
		s.At(now, "b2", rec("b2")) // same instant, runs after b
	})
	s.Advance(25)
	assert.Equal(t, []string{"a", "b", "b2"}, got)
	assert.Equal(t, Time(25), s.Now())
	s.Advance(100)
	assert.Equal(t, []string{"a", "b", "b2", "c", "d"}, got)
	assert.Equal(t, MaxTime, s.Next())
}

func TestCancelAndOnEarlier(t *testing.T) {
	s := New()
	var horizon []Time
	s.OnEarlier = func(at Time) { horizon = append(horizon, at) }
	e := s.At(50, "x", func(Time) { t.Fatal("cancelled event ran") })
	s.At(80, "y", func(Time) {})
	s.At(40, "z", func(Time) {})
	assert.Equal(t, []Time{50, 40}, horizon)
	s.Cancel(e)
	s.Cancel(e)
	assert.False(t, e.Pending())
	s.Advance(1000)
	assert.Equal(t, 0, s.Pending())
}

func TestSchedulingInThePastPanics(t *testing.T) {
	s := New()
	s.Advance(100)
	require.Panics(t, func() { s.At(99, "late", func(Time) {}) })
}

func TestTimeString(t *testing.T) {
	assert.Equal(t, "16.667 ms", (16_666_667 * Nanosecond).String())
	assert.Equal(t, "5.250 us", (21 * TState).String())
}

func TestReusableEvent(t *testing.T) {
	s := New()
	var got []Time
	var e Event // the zero Event is valid and idle
	assert.False(t, e.Pending())
	e.Init("tick", func(now Time) { got = append(got, now) })
	s.Schedule(&e, 10)
	assert.True(t, e.Pending())
	s.Advance(10)
	assert.False(t, e.Pending())
	s.ScheduleAfter(&e, 5)
	s.Advance(100)
	assert.Equal(t, []Time{10, 15}, got)
	assert.Equal(t, "tick", e.Name())
}

func TestScheduleOfPendingEventMovesIt(t *testing.T) {
	tests := []struct {
		name string
		at   Time // where x is moved to
		want string
	}{
		{"later", 70, "abx"},
		{"earlier", 5, "xab"},
		{"same time as a: after a, as a new event", 20, "axb"},
		{"to its own time: behind b now", 50, "abx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			var got []byte
			var horizon []Time
			x := NewEvent("x", func(Time) { got = append(got, 'x') })
			s.Schedule(x, 50)
			s.At(20, "a", func(Time) { got = append(got, 'a') })
			s.At(50, "b", func(Time) { got = append(got, 'b') })
			s.OnEarlier = func(at Time) { horizon = append(horizon, at) }
			s.Schedule(x, tt.at)
			assert.Equal(t, 3, s.Pending())
			s.Advance(1000)
			assert.Equal(t, tt.want, string(got))
			if tt.at < 20 {
				assert.Equal(t, []Time{tt.at}, horizon)
			} else {
				assert.Empty(t, horizon)
			}
		})
	}
}

func TestInitOfPendingEventPanics(t *testing.T) {
	s := New()
	e := NewEvent("e", func(Time) {})
	s.Schedule(e, 1)
	require.Panics(t, func() { e.Init("f", func(Time) {}) })
}

// TestQueueOrderRandom checks the heap against a plain model: a mix of
// one-shot events, reusable events moved while pending, and cancels must
// run in (time, scheduling order) exactly.
func TestQueueOrderRandom(t *testing.T) {
	type ref struct {
		at  Time
		seq int
		id  int
	}
	rng := uint64(12345)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	s := New()
	var got []int
	model := map[int]ref{} // id -> pending entry
	seq := 0
	reusable := make([]*Event, 8)
	for i := range reusable {
		id := 1000 + i
		reusable[i] = NewEvent("r", func(Time) { got = append(got, id) })
	}
	var oneShot []*Event
	for round := 0; round < 2000; round++ {
		at := s.Now() + Time(next(50))
		switch op := next(10); {
		case op < 4:
			id := len(oneShot)
			oneShot = append(oneShot, s.At(at, "o", func(Time) { got = append(got, id) }))
			seq++
			model[id] = ref{at, seq, id}
		case op < 7:
			i := next(len(reusable))
			s.Schedule(reusable[i], at)
			seq++
			model[1000+i] = ref{at, seq, 1000 + i}
		case op < 8 && len(oneShot) > 0:
			id := next(len(oneShot))
			s.Cancel(oneShot[id])
			delete(model, id)
		default:
			t0 := s.Now() + Time(next(30))
			var due []ref
			for _, r := range model {
				if r.at <= t0 {
					due = append(due, r)
				}
			}
			for i := 1; i < len(due); i++ { // insertion sort by (at, seq)
				for j := i; j > 0 && (due[j].at < due[j-1].at || due[j].at == due[j-1].at && due[j].seq < due[j-1].seq); j-- {
					due[j], due[j-1] = due[j-1], due[j]
				}
			}
			var want []int
			for _, r := range due {
				want = append(want, r.id)
				delete(model, r.id)
			}
			got = got[:0]
			s.Advance(t0)
			require.Equal(t, want, append([]int(nil), got...), "round %d", round)
			require.Equal(t, len(model), s.Pending())
		}
	}
}

func BenchmarkScheduleReusable(b *testing.B) {
	s := New()
	var bg [6]Event
	for i := range bg {
		bg[i].Init("bg", func(Time) {})
		s.Schedule(&bg[i], MaxTime-1)
	}
	var e Event
	e.Init("e", func(Time) {})
	for b.Loop() {
		s.ScheduleAfter(&e, 100)
		s.Advance(s.Now() + 100)
	}
}

func BenchmarkAt(b *testing.B) {
	s := New()
	fn := func(Time) {}
	for i := 0; i < 6; i++ {
		s.At(MaxTime-1, "bg", fn)
	}
	for b.Loop() {
		s.After(100, "e", fn)
		s.Advance(s.Now() + 100)
	}
}

// BenchmarkBoardLikeQueue is the board's pattern: a few far events (timers,
// spindle, tape) and a chain of near ones (a handshake step every few
// hundred ns), each scheduled as the previous one runs.
func BenchmarkBoardLikeQueue(b *testing.B) {
	s := New()
	var far [8]Event
	for i := range far {
		e := &far[i]
		period := Time(1000+i*777) * Nanosecond
		e.Init("far", func(now Time) { s.Schedule(e, now+period) })
		s.Schedule(e, period)
	}
	var near [3]Event
	for i := range near {
		e := &near[(i+1)%3]
		d := Time(150+50*i) * Nanosecond
		near[i].Init("near", func(now Time) { s.Schedule(e, now+d) })
	}
	s.Schedule(&near[0], 100)
	for b.Loop() {
		s.Advance(s.Next())
	}
}

func TestObserversSeeEveryEventInOrderAndCanLeave(t *testing.T) {
	s := New()
	var a, b []string
	removeA := s.Observe(func(now Time, e *Event) { a = append(a, e.Name()) })
	s.Observe(func(now Time, e *Event) { b = append(b, e.Name()) })
	s.At(10, "x", func(Time) {})
	s.At(20, "y", func(Time) {})
	s.Advance(10)
	removeA()
	s.Advance(20)
	assert.Equal(t, []string{"x"}, a)
	assert.Equal(t, []string{"x", "y"}, b)
}

func TestStateRoundTripRebuildsOwnedQueue(t *testing.T) {
	// Two schedulers with the same owned events: the second, restored from
	// the first's state, runs the same events at the same times in the
	// same order (including a tie at t=50 decided by scheduling order).
	build := func() (*Scheduler, *[]string) {
		s := New()
		var log []string
		mk := func(name string) *Event {
			e := NewEvent(name, func(now Time) { log = append(log, fmt.Sprintf("%s@%d", name, now)) })
			s.Own(e)
			return e
		}
		a, b, c := mk("dev a"), mk("dev b"), mk("dev c")
		s.Schedule(b, 50)
		s.Schedule(a, 50)
		s.Schedule(c, 30)
		s.Advance(40)
		return s, &log
	}
	s1, log1 := build()
	st, err := s1.State()
	require.NoError(t, err)
	assert.Equal(t, State{Now: 40, Seq: 3, Queue: []QueuedEvent{{"dev b", 50, 1}, {"dev a", 50, 2}}}, st)

	s2, log2 := build()
	require.NoError(t, s2.SetState(State{Now: 10, Seq: 0}))
	assert.Equal(t, 0, s2.Pending())
	require.NoError(t, s2.SetState(st))
	*log2 = []string{"dev c@30"} // ran before the save in s1; s2 ran it too, before SetState
	s1.Advance(100)
	s2.Advance(100)
	assert.Equal(t, []string{"dev c@30", "dev b@50", "dev a@50"}, *log1)
	assert.Equal(t, *log1, *log2)
}

func TestStateRefusesWhatCannotBeRestored(t *testing.T) {
	s := New()
	s.At(10, "closure", func(Time) {})
	_, err := s.State()
	require.ErrorIs(t, err, ErrNotRestorable)
	assert.Contains(t, err.Error(), `"closure"`)

	d1, d2 := NewEvent("twin", func(Time) {}), NewEvent("twin", func(Time) {})
	s2 := New()
	s2.Own(d1, d2)
	s2.Schedule(d1, 5)
	_, err = s2.State()
	require.ErrorIs(t, err, ErrNotRestorable)
	require.ErrorIs(t, s2.SetState(State{Queue: []QueuedEvent{{"twin", 5, 1}}, Seq: 1}), ErrNotRestorable)
	require.ErrorIs(t, s2.SetState(State{Queue: []QueuedEvent{{"ghost", 5, 1}}, Seq: 1}), ErrNotRestorable)

	s3 := New()
	e := NewEvent("once", func(Time) {})
	s3.Own(e)
	assert.ErrorContains(t, s3.SetState(State{Seq: 2, Queue: []QueuedEvent{{"once", 5, 1}, {"once", 6, 2}}}), "queued twice")
	assert.ErrorContains(t, s3.SetState(State{Now: 9, Seq: 2, Queue: []QueuedEvent{{"once", 5, 1}}}), "inconsistent")
}

func TestObserveEventSeesOnlyItsEvent(t *testing.T) {
	s := New()
	a, b := NewEvent("a", func(Time) {}), NewEvent("b", func(Time) {})
	var seen []string
	remove := s.ObserveEvent(b, func(_ Time, e *Event) { seen = append(seen, e.Name()) })
	s.Schedule(a, 1)
	s.Schedule(b, 2)
	s.Advance(2)
	remove()
	remove() // twice is harmless
	s.Schedule(b, 3)
	s.Advance(3)
	assert.Equal(t, []string{"b"}, seen)
	assert.Zero(t, b.watched)
}

func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct {
		t    Time
		want string
	}{
		{1500 * Nanosecond, "1500 ns"},
		{25 * Microsecond, "25.00 us"},
		{16667 * Microsecond, "16.667 ms"},
		{12 * Second, "12.000 s"},
	} {
		assert.Equal(t, tt.want, FormatDuration(tt.t))
	}
}
