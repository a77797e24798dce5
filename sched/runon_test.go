package sched

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunOnRunsAsScheduleWould: two schedulers run the same random
// program of quiet chains (each event's last act schedules the next link
// a random delay later) among loud events, one with Schedule, one with
// RunOn, advanced to the same random times, QuietLate on. The events run
// in the same order at the same times, and the trace, the sequence number
// and the queue are the same after each Advance; RunOn ran some links at
// once (fewer pass through the queue).
func TestRunOnRunsAsScheduleWould(t *testing.T) {
	for seed := range uint64(20) {
		var logs [2][]string
		var states [2][]State
		var traces [2]Trace
		var direct int
		for k, runOn := range []bool{false, true} {
			r := rand.New(rand.NewPCG(seed, 2))
			s := New()
			s.QuietLate = true
			s.Trace = &traces[k]
			chains := make([]*Event, 6)
			for i := range chains {
				i := i
				chains[i] = NewEvent(fmt.Sprintf("chain%d", i), func(now Time) {
					logs[k] = append(logs[k], fmt.Sprintf("%d@%d", i, now))
					if r.IntN(4) == 0 {
						return // the chain ends
					}
					at := now + Time(r.IntN(4))
					if runOn {
						depth := len(logs[k])
						s.RunOn(chains[i], at)
						if len(logs[k]) > depth {
							direct++
						}
						return
					}
					s.Schedule(chains[i], at)
				})
				chains[i].SetQuiet(true)
				s.Own(chains[i])
			}
			loud := make([]*Event, 4)
			for i := range loud {
				i := i
				loud[i] = NewEvent(fmt.Sprintf("loud%d", i), func(now Time) {
					logs[k] = append(logs[k], fmt.Sprintf("L%d@%d", i, now))
				})
				s.Own(loud[i])
			}
			for range 300 {
				switch r.IntN(5) {
				case 0:
					if e := loud[r.IntN(len(loud))]; !e.Pending() {
						s.Schedule(e, s.Now()+Time(r.IntN(6)))
					}
				case 1:
					if e := chains[r.IntN(len(chains))]; !e.Pending() {
						s.Schedule(e, s.Now()+Time(r.IntN(6)))
					}
				default:
					s.Advance(s.Now() + Time(r.IntN(8)))
					st, err := s.State()
					require.NoError(t, err)
					states[k] = append(states[k], st)
				}
			}
		}
		require.Equal(t, logs[0], logs[1], "seed %d", seed)
		require.Equal(t, states[0], states[1], "seed %d", seed)
		require.Equal(t, traces[0], traces[1], "seed %d", seed)
		assert.Positive(t, direct, "seed %d: some links ran at once", seed)
	}
}

// RunOn only schedules when the event may not run at once: outside an
// Advance, beyond its time, after an event queued for the same time,
// with QuietLate off, with an observer, or for a loud event.
func TestRunOnFallsBackToSchedule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(s *Scheduler, e *Event)
		at    Time
	}{
		{"beyond the Advance's time", func(*Scheduler, *Event) {}, 200},
		{"an event queued for the same time", func(s *Scheduler, _ *Event) { s.At(20, "first", func(Time) {}) }, 20},
		{"QuietLate off", func(s *Scheduler, _ *Event) { s.QuietLate = false }, 20},
		{"an observer", func(s *Scheduler, _ *Event) { s.Observe(func(Time, *Event) {}) }, 20},
		{"an observer of one event", func(s *Scheduler, e *Event) { s.ObserveEvent(e, func(Time, *Event) {}) }, 20},
		{"a loud event", func(_ *Scheduler, e *Event) { e.SetQuiet(false) }, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			s.QuietLate = true
			var ran []Time
			next := NewEvent("next", func(now Time) { ran = append(ran, now) })
			next.SetQuiet(true)
			tc.setup(s, next)
			var inline bool
			s.At(10, "step", func(Time) {
				s.RunOn(next, tc.at)
				inline = len(ran) != 0
			})
			s.Advance(100)
			assert.False(t, inline, "scheduled, not run at once")
			want := []Time{tc.at}
			if tc.at > 100 {
				want = nil
			}
			assert.Equal(t, want, ran)
		})
	}
	s := New()
	s.QuietLate = true
	e := NewEvent("e", func(Time) {})
	e.SetQuiet(true)
	s.RunOn(e, 5) // outside an Advance
	assert.True(t, e.Pending())
}
