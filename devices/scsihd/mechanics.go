package scsihd

import "github.com/lbplus/lbplus/sched"

// mech is the drive's mechanics: where a block lies, when its slot passes
// under the head, how long a seek takes. Everything is integer arithmetic
// on simulated time, so the same inputs give the same times everywhere.
type mech struct {
	p         Params
	blocks    int64
	cylinders int
	rev       sched.Time
}

func newMech(p Params, blocks int64) mech {
	perCyl := int64(p.Heads * p.SectorsPerTrack)
	return mech{p: p, blocks: blocks, cylinders: int((blocks + perCyl - 1) / perCyl), rev: p.Revolution()}
}

// chs places block b: cylinder, head and sector on the track [D: the
// blocks fill a track, then the next head, then the next cylinder].
func (m mech) chs(b int64) (cyl, head, sec int) {
	spt, heads := int64(m.p.SectorsPerTrack), int64(m.p.Heads)
	return int(b / (spt * heads)), int(b / spt % heads), int(b % spt)
}

// slot is the physical slot of sector sec on (cyl, head): 1:1 interleave,
// each track skewed TrackSkew slots after the previous one.
func (m mech) slot(cyl, head, sec int) int {
	track := int64(cyl)*int64(m.p.Heads) + int64(head)
	return int((int64(sec) + track*int64(m.p.TrackSkew)) % int64(m.p.SectorsPerTrack))
}

// slotStart is when slot s next begins to pass under the head at or after t.
func (m mech) slotStart(s int, t sched.Time) sched.Time {
	base := t - (t+m.p.IndexPhase)%m.rev
	st := base + m.rev*sched.Time(s)/sched.Time(m.p.SectorsPerTrack)
	if st < t {
		st += m.rev
	}
	return st
}

// slotLen is how long slot s takes to pass: 1/17 of a revolution, the
// remainder of the division spread over the slots.
func (m mech) slotLen(s int) sched.Time {
	n := sched.Time(m.p.SectorsPerTrack)
	return m.rev*sched.Time(s+1)/n - m.rev*sched.Time(s)/n
}

// angle is the slot under the head at t.
func (m mech) angle(t sched.Time) int {
	return int((t + m.p.IndexPhase) % m.rev * sched.Time(m.p.SectorsPerTrack) / m.rev)
}

// seek is how long moving d cylinders takes, settle included [A]: linear
// between the drive's three figures, track to track (1 cylinder), average
// (a third of the stroke) and full stroke, stretched over the image's
// cylinders (a larger image keeps the drive's arm and packs its tracks
// closer). A stepper's seek grows about linearly with distance.
func (m mech) seek(d int) sched.Time {
	if d < 0 {
		d = -d
	}
	if d == 0 {
		return 0
	}
	full := int64(max(m.cylinders-1, 1))
	third := max(full/3, 1)
	p := m.p
	dd := int64(d)
	if dd <= third {
		if third == 1 {
			return p.TrackToTrack
		}
		return p.TrackToTrack + (p.AverageSeek-p.TrackToTrack)*sched.Time(dd-1)/sched.Time(third-1)
	}
	return p.AverageSeek + (p.FullStroke-p.AverageSeek)*sched.Time(dd-third)/sched.Time(full-third)
}
