package sched

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuietEventsKeepTheOrder: quiet events live in their own queue, but
// Advance runs loud and quiet events in one order, by time and then by
// scheduling order, exactly as a scheduler without quiet events does. Two
// schedulers run the same random program of schedules, moves and
// cancellations, one with every other event quiet.
func TestQuietEventsKeepTheOrder(t *testing.T) {
	for seed := range uint64(20) {
		var logs [2][]int
		var nexts [2][]Time
		for k, quiet := range []bool{false, true} {
			r := rand.New(rand.NewPCG(seed, 1))
			s := New()
			evs := make([]*Event, 16)
			for i := range evs {
				i := i
				evs[i] = NewEvent("e", func(now Time) {
					logs[k] = append(logs[k], i)
					if j := r.IntN(len(evs)); !evs[j].Pending() {
						s.Schedule(evs[j], now+Time(r.IntN(5)))
					}
				})
				evs[i].SetQuiet(quiet && i%2 == 1)
			}
			for step := 0; step < 400; step++ {
				e := evs[r.IntN(len(evs))]
				switch r.IntN(4) {
				case 0:
					s.Cancel(e)
				case 1:
					s.Advance(s.Now() + Time(r.IntN(8)))
				default:
					s.Schedule(e, s.Now()+Time(r.IntN(10)))
				}
				nexts[k] = append(nexts[k], s.Next())
			}
			s.Advance(s.Now() + 100)
		}
		require.Equal(t, logs[0], logs[1], "seed %d", seed)
		require.Equal(t, nexts[0], nexts[1], "seed %d", seed)
	}
}

// TestQuietLate: with QuietLate a quiet event never calls OnEarlier and a
// loud one calls it when it is earlier than every loud event, whatever
// quiet events are queued before it; NextLoud skips the quiet ones.
func TestQuietLate(t *testing.T) {
	s := New()
	var horizon []Time
	s.OnEarlier = func(at Time) { horizon = append(horizon, at) }
	q := NewEvent("q", func(Time) {})
	q.SetQuiet(true)
	l := NewEvent("l", func(Time) {})
	s.Schedule(l, 100)
	s.Schedule(q, 50) // earliest of all: tells the board
	assert.Equal(t, []Time{100, 50}, horizon)
	assert.Equal(t, Time(50), s.Next())
	assert.Equal(t, Time(100), s.NextLoud())

	s.QuietLate = true
	s.Schedule(q, 40) // quiet: runs late, nobody is told
	l2 := NewEvent("l2", func(Time) {})
	s.Schedule(l2, 80) // loud, earlier than every loud event, not than q
	assert.Equal(t, []Time{100, 50, 80}, horizon)
	assert.Equal(t, Time(40), s.Next())
	assert.Equal(t, Time(80), s.NextLoud())
	assert.Equal(t, 3, s.Pending())

	assert.Panics(t, func() { q.SetQuiet(false) }, "pending")
	st, err := func() (State, error) {
		s.Own(q, l, l2)
		return s.State()
	}()
	require.NoError(t, err)
	assert.Equal(t, []QueuedEvent{{"q", 40, 3}, {"l2", 80, 4}, {"l", 100, 1}}, st.Queue)
	require.NoError(t, s.SetState(st))
	assert.Equal(t, Time(80), s.NextLoud())
	assert.True(t, q.Pending())
	s.Advance(1000)
	assert.Equal(t, 0, s.Pending())
}

// TestTraceFoldsEachEvent: a scheduler with a Trace folds each event as it
// runs, its time and name length, before the observers see it.
func TestTraceFoldsEachEvent(t *testing.T) {
	s := New()
	tr := &Trace{Hash: 7}
	s.Trace = tr
	var seen []uint64
	s.Observe(func(now Time, e *Event) { seen = append(seen, tr.Count) })
	s.At(5*Nanosecond, "ab", func(Time) {})
	s.At(9*Nanosecond, "abc", func(Time) {})
	s.Advance(10 * Nanosecond)
	want := Trace{Hash: 7}
	want.Mix(uint64(5*Nanosecond)<<8 ^ 2)
	want.Mix(uint64(9*Nanosecond)<<8 ^ 3)
	assert.Equal(t, want, *tr)
	assert.Equal(t, []uint64{1, 2}, seen, "folded before the observers")
}
