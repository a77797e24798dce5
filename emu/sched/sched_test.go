package sched

import (
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
