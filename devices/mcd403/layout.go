package mcd403

import "github.com/lbplus/lbplus/sched"

// layout maps logical blocks to physical slots for a formatted interleave k
// and physical slots to positions along the serpentine tape path.
//
// Interleave k [A, the story's "tape interleave"]: logical blocks fill every
// k-th slot in passes over the whole tape, like a disk's sector interleave
// stretched over the cartridge: pass j holds the slots j, j+k, j+2k, ...
// Consecutive logical blocks are therefore k slots apart, except at the
// end of a pass, where the next pass starts back at the beginning.
type layout struct {
	n, k      int
	passStart []int // first logical block of each pass
}

func newLayout(n, k int) layout {
	l := layout{n: n, k: k, passStart: make([]int, k+1)}
	for j := 0; j < k; j++ {
		l.passStart[j+1] = l.passStart[j] + (n-j+k-1)/k
	}
	return l
}

// physical returns the slot of logical block b (0 <= b < n).
func (l layout) physical(b int) int {
	j := 0
	for j < l.k-1 && b >= l.passStart[j+1] {
		j++
	}
	return (b-l.passStart[j])*l.k + j
}

// logical returns the logical block stored in slot p.
func (l layout) logical(p int) int {
	j, i := p%l.k, p/l.k
	return l.passStart[j] + i
}

// position is a place on the tape path in "tape time at write speed" from
// the load point: moving at speed for d advances the position by d. Track
// turnarounds are part of the path, so streaming crosses them.
type position = sched.Time

// slotPos returns where slot p starts. The load point leaves room for a
// start from standstill before slot 0 [A]. Within a track the slots come in
// frames of k (one slot of each interleave pass), each frame followed by
// FrameGap (docs/TAPE.md 1), so consecutive logical blocks of a pass are
// k*SlotTime + FrameGap apart.
func (d *Drive) slotPos(p int) position {
	spt := d.p.SlotsPerTrack()
	tr, q := p/spt, p%spt
	return d.startOffset() + sched.Time(tr)*(d.trackLen()+d.p.Turnaround) +
		sched.Time(q)*d.p.SlotTime + sched.Time(q/d.frame())*d.p.FrameGap
}

// frame is the number of slots in a frame: the format's interleave.
func (d *Drive) frame() int { return max(1, d.lay.k) }

// trackLen is the length of one track's slots and frame gaps [D].
func (d *Drive) trackLen() position {
	spt, k := d.p.SlotsPerTrack(), d.frame()
	return sched.Time(spt)*d.p.SlotTime + sched.Time((spt+k-1)/k)*d.p.FrameGap
}

// startOffset is the distance from a standstill launch point to the slot
// start: half the ramp (constant acceleration) plus the resync run at speed.
func (d *Drive) startOffset() position { return d.p.RampTime/2 + d.p.Resync(d.frame()) }

// endPos is the end of the path (past the last slot).
func (d *Drive) endPos() position {
	return d.startOffset() + sched.Time(d.p.Tracks)*(d.trackLen()+d.p.Turnaround) - d.p.Turnaround
}

// physicalAt returns the track and the longitudinal place on the tape (in
// tape time at speed from the load point) of path position x. The path is
// serpentine [A]: even tracks run away from the load point, odd tracks back
// towards it, so with an even track count the end of the path is back at
// the load point. A stopped tape seeks by longitudinal distance while the
// head steps across tracks; the path position alone would make the start
// of a new interleave pass look a whole cartridge away.
func (d *Drive) physicalAt(x position) (track int, along position) {
	base := d.startOffset()
	if x <= base {
		return 0, x
	}
	trackLen := d.trackLen()
	seg := trackLen + d.p.Turnaround
	rel := x - base
	track = int(rel / seg)
	within := min(rel%seg, trackLen) // a turnaround happens at the track end
	if track >= d.p.Tracks {
		track, within = d.p.Tracks-1, trackLen
	}
	if track%2 == 1 {
		within = trackLen - within
	}
	return track, base + within
}

// seekTime is a start-stop move from path position from to x: the tape
// moves the longitudinal distance while the head steps to the new track.
func (d *Drive) seekTime(from, x position) sched.Time {
	t0, a0 := d.physicalAt(from)
	t1, a1 := d.physicalAt(x)
	steps := t1 - t0
	if steps < 0 {
		steps = -steps
	}
	return max(d.moveTime(a1-a0), sched.Time(steps)*d.p.HeadStep)
}
