package floppy

import (
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

// Drive is one 5.25" drive on the Ampro's floppy cable.
type Drive struct {
	name string
	s    *sched.Scheduler
	p    Params
	rev  sched.Time

	media    *Media
	cyl      int
	side     int
	dirIn    bool
	lastStep sched.Time

	motor    bool
	spinning bool       // motor on and a disk in: the disk turns
	ref      sched.Time // spinning: a time the index hole passed (angle 0)
	angle    sched.Time // stopped: the angle the disk rests at
	spunAt   sched.Time // spinning since
	ready    bool

	indexEv   sched.Event // next index edge, only while spinning and someone listens
	indexHigh bool
	readyEv   sched.Event
	onIndex   func(now sched.Time)
	onChange  func(now sched.Time)
	obs       Observers
}

// NewDrive returns an empty drive with its head at cylinder 0.
func NewDrive(s *sched.Scheduler, name string, p Params) *Drive {
	d := &Drive{name: name, s: s, p: p, rev: p.Revolution(), lastStep: -sched.Second}
	d.indexEv.Init(name+" index", d.indexEdge)
	d.readyEv.Init(name+" ready", func(now sched.Time) { d.setReady(now, true) })
	s.Own(&d.indexEv, &d.readyEv)
	return d
}

// Name is the drive's label ("fd0").
func (d *Drive) Name() string { return d.name }

// Params are the drive's parameters.
func (d *Drive) Params() Params { return d.p }

// Revolution is one turn of the spindle.
func (d *Drive) Revolution() sched.Time { return d.rev }

// Observe adds an observer of the drive's signals; the returned function
// removes it.
func (d *Drive) Observe(o Observer) (remove func()) {
	r := d.obs.Add(o)
	d.planIndex(d.s.Now())
	return func() { r(); d.planIndex(d.s.Now()) }
}

// SetIndexHook gives the controller the leading edge of every index pulse
// (nil to stop). The chip counts revolutions with it.
func (d *Drive) SetIndexHook(fn func(now sched.Time)) {
	d.onIndex = fn
	d.planIndex(d.s.Now())
}

// SetChangeHook tells the controller when the disk stops or starts turning
// or is changed, so a wait for an index pulse or an ID can be planned anew.
func (d *Drive) SetChangeHook(fn func(now sched.Time)) { d.onChange = fn }

// Media is the disk in the drive, or nil.
func (d *Drive) Media() *Media { return d.media }

// Insert puts m in the drive (ejecting any disk there). The new disk rests
// at angle 0 [A].
func (d *Drive) Insert(now sched.Time, m *Media) {
	if d.media != nil {
		d.Eject(now)
	}
	d.media = m
	d.angle = 0
	d.obs.Emit(now, d.name, MediaIn, 1)
	d.spin(now)
}

// Eject takes the disk out and returns it.
func (d *Drive) Eject(now sched.Time) *Media {
	m := d.media
	if m == nil {
		return nil
	}
	d.stop(now)
	d.media = nil
	d.obs.Emit(now, d.name, MediaIn, 0)
	if d.onChange != nil {
		d.onChange(now)
	}
	return m
}

// SetMotor drives the motor-on line.
func (d *Drive) SetMotor(now sched.Time, on bool) {
	if on == d.motor {
		return
	}
	d.motor = on
	d.obs.Emit(now, d.name, Motor, b2i(on))
	if on {
		d.spin(now)
	} else {
		d.stop(now)
	}
}

// MotorOn reports the motor line.
func (d *Drive) MotorOn() bool { return d.motor }

func (d *Drive) spin(now sched.Time) {
	if d.spinning || !d.motor || d.media == nil {
		return
	}
	d.spinning = true
	d.ref = now - d.angle
	d.spunAt = now
	if at, ok := d.nthIndex(now, d.p.ReadyRevolutions); ok {
		d.s.Schedule(&d.readyEv, at)
	}
	d.planIndex(now)
	if d.onChange != nil {
		d.onChange(now)
	}
}

func (d *Drive) stop(now sched.Time) {
	if !d.spinning {
		return
	}
	d.angle = d.Angle(now)
	d.spinning = false
	d.s.Cancel(&d.readyEv)
	d.setReady(now, false)
	if d.indexHigh {
		d.indexHigh = false
		d.obs.Emit(now, d.name, Index, 0)
	}
	d.planIndex(now)
	if d.onChange != nil {
		d.onChange(now)
	}
}

func (d *Drive) setReady(now sched.Time, r bool) {
	if r != d.ready {
		d.ready = r
		d.obs.Emit(now, d.name, Ready, b2i(r))
	}
}

// Ready is the drive's READY output (to DART DCDB on the Ampro).
func (d *Drive) Ready() bool { return d.ready }

// Spinning reports whether the disk turns (motor on, disk in).
func (d *Drive) Spinning() bool { return d.spinning }

// Angle is the time since the index hole last passed (the disk's angle as
// a time); while stopped, the angle it rests at.
func (d *Drive) Angle(t sched.Time) sched.Time {
	if !d.spinning {
		return d.angle
	}
	a := (t - d.ref) % d.rev
	if a < 0 {
		a += d.rev
	}
	return a
}

// RevStart is the time of the index pulse that began the revolution under
// way at t (only while spinning).
func (d *Drive) RevStart(t sched.Time) sched.Time { return t - d.Angle(t) }

// NextIndex returns the first index leading edge at or after t; false
// when the disk does not turn (no disk, motor off): no index pulses.
func (d *Drive) NextIndex(t sched.Time) (sched.Time, bool) {
	if !d.spinning {
		return 0, false
	}
	a := d.Angle(t)
	if a == 0 {
		return t, true
	}
	return t - a + d.rev, true
}

// nthIndex is the n-th index edge after t (n >= 1), strictly after t.
func (d *Drive) nthIndex(t sched.Time, n int) (sched.Time, bool) {
	at, ok := d.NextIndex(t + 1)
	return at + sched.Time(n-1)*d.rev, ok
}

// InIndex reports the index sensor at t.
func (d *Drive) InIndex(t sched.Time) bool {
	return d.spinning && d.Angle(t) < d.p.IndexPulse
}

// planIndex keeps the index edge event queued exactly while the disk turns
// and the controller or an observer listens.
func (d *Drive) planIndex(now sched.Time) {
	if !d.spinning || (d.onIndex == nil && d.obs.Len() == 0) {
		d.s.Cancel(&d.indexEv)
		return
	}
	a := d.Angle(now)
	var at sched.Time
	switch {
	case a == 0 && !d.indexHigh:
		at = now
	case a < d.p.IndexPulse && d.indexHigh:
		at = now - a + d.p.IndexPulse
	default:
		at = now - a + d.rev
	}
	if !d.indexEv.Pending() || d.indexEv.At() != at {
		d.s.Schedule(&d.indexEv, at)
	}
}

func (d *Drive) indexEdge(now sched.Time) {
	a := d.Angle(now)
	if a == 0 {
		d.indexHigh = true
		d.obs.Emit(now, d.name, Index, 1)
		if d.onIndex != nil {
			d.onIndex(now)
		}
	} else if d.indexHigh {
		d.indexHigh = false
		d.obs.Emit(now, d.name, Index, 0)
	}
	d.planIndex(now)
}

// SetSide selects head 0 or 1 (a single-sided drive ignores it).
func (d *Drive) SetSide(now sched.Time, side int) {
	if d.p.Heads < 2 {
		side = 0
	}
	if side != d.side {
		d.side = side
		d.obs.Emit(now, d.name, Side, side)
	}
}

// Side is the selected head.
func (d *Drive) Side() int { return d.side }

// Cylinder is where the head is.
func (d *Drive) Cylinder() int { return d.cyl }

// Step takes one step pulse with the direction line set to in. A pulse
// sooner than MinStep after the last one is lost; the carriage stops at
// cylinder 0 and StopCylinder.
func (d *Drive) Step(now sched.Time, in bool) {
	if in != d.dirIn {
		d.dirIn = in
		d.obs.Emit(now, d.name, Direction, b2i(in))
	}
	if now-d.lastStep < d.p.MinStep {
		d.obs.Emit(now, d.name, Step, d.cyl)
		return
	}
	d.lastStep = now
	if in && d.cyl < d.p.StopCylinder {
		d.cyl++
	} else if !in && d.cyl > 0 {
		d.cyl--
	}
	d.obs.Emit(now, d.name, Step, d.cyl)
	d.obs.Emit(now, d.name, Cylinder, d.cyl)
}

// Track0 is the TR00 sensor.
func (d *Drive) Track0() bool { return d.cyl == 0 }

// WriteProtected is the write-protect sensor (no disk: not protected [A]).
func (d *Drive) WriteProtected() bool { return d.media != nil && d.media.Protected() }

// Head returns the track under the head and its positions, or nil when
// there is no disk or the track is unformatted.
func (d *Drive) Head() (*fdimage.Track, *Positions) {
	if d.media == nil {
		return nil, nil
	}
	return d.media.Track(d.cyl, d.side, d.rev)
}

// Snapshot is what a debugger shows of a drive; taking it changes nothing.
type Snapshot struct {
	Name        string
	Cylinder    int
	Side        int
	Motor       bool
	Spinning    bool
	Index       bool
	Ready       bool
	Protected   bool
	Media       string
	Angle       sched.Time
	SectorUnder int // record number of the sector whose field is under the head, -1 none
}

// Snapshot returns the drive's state at now.
func (d *Drive) Snapshot(now sched.Time) Snapshot {
	s := Snapshot{Name: d.name, Cylinder: d.cyl, Side: d.side, Motor: d.motor, Spinning: d.spinning,
		Index: d.InIndex(now), Ready: d.ready, Protected: d.WriteProtected(), Angle: d.Angle(now), SectorUnder: -1}
	if d.media != nil {
		s.Media = d.media.Name()
	}
	if t, p := d.Head(); t != nil {
		cell := int(s.Angle / p.Cell)
		for i := range t.Sectors {
			end := p.IDAt[i] + 7
			if p.DataAt[i] >= 0 {
				end = p.DataAt[i] + 1 + t.Sectors[i].Size() + 2
			}
			if cell >= p.IDAt[i] && cell < end {
				s.SectorUnder = int(t.Sectors[i].R)
			}
		}
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
