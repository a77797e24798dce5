package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// Platters tells where each platter is: degrees past the index, the time
// to the next index, and the block whose slot is under the head (through
// the 3:1 layout, on the cylinder the last command left the head on).
func TestPlatters(t *testing.T) {
	p := DefaultParams()
	p.IndexPhase = 5 * sched.Millisecond
	r := newRig(t, rigOpts{params: &p})
	st, _ := r.run(t, []byte{0x08, 0, 0, 40, 1, 0}, nil) // LBA 40: cylinder 1, head 0, sector 6
	require.Equal(t, 0, st)
	d := r.c.drives[0]
	rev := d.spin.revolution()
	now := r.s.Now()
	ps := r.c.Platters(now)
	require.Len(t, ps, 1, "one drive")
	assert.Equal(t, 1, ps[0].Cyl)
	assert.Equal(t, 0, ps[0].Head)
	assert.GreaterOrEqual(t, ps[0].Angle, 0.0)
	assert.Less(t, ps[0].Angle, 360.0)
	assert.InDelta(t, float64(rev)*(360-ps[0].Angle)/360, float64(ps[0].ToIndex), float64(sched.Nanosecond))

	// Just after the start of logical sector 6's slot the head is over
	// block 40; just after the index, at angle 0, a revolution from the
	// next index, over the block in slot 0 (logical 0 at any interleave).
	k := d.spin.nextSlot(d.layout[6], now)
	at := d.spin.boundary(k) + sched.Nanosecond
	got := r.c.Platters(at)[0]
	assert.Equal(t, int64(40), got.LBA)
	assert.InDelta(t, 360*float64(d.layout[6])/17, got.Angle, 0.001)
	first := k - k%17
	idx := d.spin.boundary(first + 17)
	got = r.c.Platters(idx)[0]
	assert.Equal(t, 0.0, got.Angle)
	assert.Equal(t, d.spin.boundary(first+34)-idx, got.ToIndex, "a whole revolution")
	assert.Equal(t, int64(34), got.LBA, "cylinder 1 head 0 sector 0")
}
