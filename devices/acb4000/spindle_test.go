package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/sched"
)

func TestSpindleRevolution(t *testing.T) {
	s := newSpindle(DefaultParams(), 17)
	// 3600 RPM: one revolution is 1/60 s.
	assert.Equal(t, sched.Time(16_666_666_666), s.revolution())
	assert.Equal(t, sched.Time(980_392_156), s.slotTime())
	// No drift: after a million revolutions the index is still exact.
	assert.Equal(t, sched.Time(1_000_000)*sched.Second/60, s.boundary(17_000_000))
}

func TestNextSlot(t *testing.T) {
	p := DefaultParams()
	p.IndexPhase = 3 * sched.Millisecond
	s := newSpindle(p, 17)
	for _, tt := range []sched.Time{0, 1, 5 * sched.Millisecond, 16*sched.Millisecond + 666_666_666, 123 * sched.Second} {
		for slot := range 17 {
			k := s.nextSlot(slot, tt)
			at := s.boundary(k)
			assert.Equal(t, slot, int(k%17))
			assert.GreaterOrEqual(t, at, tt)
			assert.Less(t, at-tt, s.revolution()+1, "within one revolution")
			got, into := s.angle(at)
			assert.Equal(t, slot, got)
			assert.Equal(t, sched.Time(0), into)
		}
	}
}

func TestSeekCurve(t *testing.T) {
	c := newSeekCurve(DefaultParams())
	assert.Equal(t, sched.Time(0), c.time(0))
	assert.InDelta(t, float64(8*sched.Millisecond), float64(c.time(1)), float64(sched.Microsecond))
	assert.InDelta(t, float64(40*sched.Millisecond), float64(c.time(205)), float64(sched.Microsecond))
	assert.Less(t, c.time(614), 80*sched.Millisecond)
	assert.Greater(t, c.time(614), c.time(205))
	c.stepped = true
	assert.Greater(t, c.time(10), 30*sched.Millisecond, "3 ms unbuffered steps")
}

func TestInterleaveLayout(t *testing.T) {
	// The manual's example: 33 sectors at 3:1 start 0,11,22,1,12,23,2 in
	// physical order [ACB5500 p.72, docs/HARDWARE.md 5].
	slot := Interleave(33, 3)
	phys := make([]int, 33)
	for k, s := range slot {
		phys[s] = k
	}
	assert.Equal(t, []int{0, 11, 22, 1, 12, 23, 2}, phys[:7])
	// 17 is prime: no collisions, slot = k*I mod 17.
	for i := 1; i <= 16; i++ {
		for k, s := range Interleave(17, i) {
			assert.Equal(t, k*i%17, s, "I=%d k=%d", i, k)
		}
	}
	assert.Equal(t, []int{0, 3, 6, 9, 12, 15, 1, 4, 7, 10, 13, 16, 2, 5, 8, 11, 14}, Interleave(17, 3))
}
