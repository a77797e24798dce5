package acb4000

import (
	"math"
	"math/bits"

	"github.com/lbplus/lbplus/sched"
)

// spindle gives platter positions as times. The platter is never ticked:
// slot boundary k (counting slots since the index passed at -IndexPhase)
// is at -IndexPhase + k*T_rev/N, computed exactly in integers, so a
// revolution of 16 666 666 666.67 ps does not drift.
type spindle struct {
	num   uint64     // slot boundary k is at k*num/den ps after the reference index
	den   uint64     // 60 s * ... : num/den = T_rev / N
	phase sched.Time // IndexPhase
	n     int        // slots per track
}

func newSpindle(p Params, slots int) spindle {
	return spindle{
		num:   uint64(60 * sched.Second),
		den:   uint64(p.RPM) * uint64(slots),
		phase: p.IndexPhase,
		n:     slots,
	}
}

// mulDiv returns a*b/c without overflow (c > 0, result < 2^64).
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// boundary is the time slot boundary k passes the head.
func (s spindle) boundary(k uint64) sched.Time {
	return sched.Time(mulDiv(k, s.num, s.den)) - s.phase
}

// Revolution is the time of one turn (rounded down to a picosecond).
func (s spindle) revolution() sched.Time {
	return sched.Time(mulDiv(uint64(s.n), s.num, s.den))
}

// slotTime is one slot (rounded down).
func (s spindle) slotTime() sched.Time { return sched.Time(s.num / s.den) }

// nextSlot returns the absolute slot count k of the first pass of physical
// slot `slot` whose start is at or after t.
func (s spindle) nextSlot(slot int, t sched.Time) uint64 {
	rel := t + s.phase
	var k uint64
	if rel > 0 {
		k = mulDiv(uint64(rel), s.den, s.num) // floor: boundary(k) <= t
	}
	for s.boundary(k) < t {
		k++
	}
	n := uint64(s.n)
	if r := k % n; r != uint64(slot) {
		k += (uint64(slot) + n - r) % n
	}
	return k
}

// angle returns the physical slot under the head at t and how far into it
// the head is (for reports and tests).
func (s spindle) angle(t sched.Time) (slot int, into sched.Time) {
	k := s.slotAt(t)
	return int(k % uint64(s.n)), t - s.boundary(k)
}

// slotAt is the absolute count of the slot under the head at t.
func (s spindle) slotAt(t sched.Time) uint64 {
	rel := t + s.phase
	if rel < 0 {
		rel = 0
	}
	k := mulDiv(uint64(rel), s.den, s.num)
	for s.boundary(k+1) <= t {
		k++
	}
	for k > 0 && s.boundary(k) > t {
		k--
	}
	return k
}

// index returns the time since the index last passed the head at t and
// the time until it passes next (their sum is a revolution, exact to the
// picosecond at every turn).
func (s spindle) index(t sched.Time) (since, until sched.Time) {
	k := s.slotAt(t)
	first := k - k%uint64(s.n)
	return t - s.boundary(first), s.boundary(first+uint64(s.n)) - t
}

// seekCurve is t(d) = a + b*sqrt(d) for a move of d >= 1 cylinders, through
// TrackToTrack at d = 1 and AverageSeek at d = cylinders/3 [D from A and F
// in Params]; the curve belongs to the drive mechanism, not to the
// geometry given to the controller. A stepper with buffered (ramped) step pulses accelerates, so
// the time grows about with the square root of the distance [A].
type seekCurve struct {
	a, b    float64 // ps, ps per sqrt(cylinder)
	step    sched.Time
	stepped bool // unbuffered 3 ms steps (MODE SELECT step code 00)
}

func newSeekCurve(p Params) seekCurve {
	third := math.Sqrt(math.Max(2, float64(p.AverageSeekCylinders)))
	b := float64(p.AverageSeek-p.TrackToTrack) / (third - 1)
	return seekCurve{a: float64(p.TrackToTrack) - b, b: b, step: p.UnbufferedStep}
}

// time returns how long moving d cylinders takes, including settle.
func (c seekCurve) time(d int) sched.Time {
	if d < 0 {
		d = -d
	}
	if d == 0 {
		return 0
	}
	if c.stepped {
		// Unbuffered: the controller steps at the slow rate, the drive
		// follows each pulse; settle once at the end.
		return sched.Time(d)*c.step + sched.Time(c.a)
	}
	return sched.Time(c.a + c.b*math.Sqrt(float64(d)))
}
