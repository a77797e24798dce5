package scsi

import "github.com/lbplus/lbplus/sched"

// A byte's handshake run ahead.
//
// A SCSI byte is six edges, each an event of its own: the target's data
// and REQ, the initiator's ACK, REQ off, ACK off, and the initiator's
// latch or request for the next byte. When an initiator's DMA engine (the
// 5380's, package ncr5380) answers the target's REQ by itself, and nothing
// observes the bus or the scheduler, the two sides run the steps in
// closed form: a side's step changes its lines without the bus telling
// anyone (DriveAhead), gives the other side's answer itself
// (Handshaker.ReqAhead, Target.AckAhead), and the next step runs at once
// when the scheduler would run it next anyway (sched.RunOn). Every step
// keeps its event, its time and its place in the order, every change is
// counted, and each side's state after a step is what the ordinary steps
// leave, so the trace hash, the bus's change count, the statistics and
// the devices' continuations stay the same; what goes is the bus's
// fan-out to its listeners and the queueing of each step. An observer of
// the bus, a third port that hears these lines, or a state the closed
// form does not cover (a phase change, a reset, a selection) takes the
// ordinary steps (docs/ARCHITECTURE.md).

// Handshaker is an initiator's DMA engine as a target running a byte's
// handshake ahead sees it.
type Handshaker interface {
	// ReqAhead answers the target's change of REQ, made with DriveAhead,
	// exactly as the initiator's bus listener would, except that a DMA
	// step its answer schedules is returned instead (nil when none), for
	// the target to schedule with sched.RunOn as its step's last act.
	ReqAhead(now sched.Time) (step *sched.Event, at sched.Time)
}

// SetHandshaker makes h, the DMA engine of the initiator on port p, the
// one a target may run a byte's handshake ahead with.
func (p *Port) SetHandshaker(h Handshaker) {
	p.bus.hs, p.bus.hsPort = h, p
	p.bus.aheadValid = false
}

// aheadLines are the lines a byte's handshake changes: REQ, ACK and the
// data byte with its parity. Run ahead, nobody else may hear them.
const aheadLines = REQ | ACK | DataLines | DBP

// quietBetween reports whether the handshake's changes may go unannounced
// between ports a and b: nothing observes the bus, no third port hears
// them, and neither hears the data byte (each hears the other's REQ or
// ACK through ReqAhead and AckAhead).
func (b *Bus) quietBetween(a, c *Port) bool {
	if b.observers.Len() != 0 || (b.hears[a.idx]|b.hears[c.idx])&(DataLines|DBP) != 0 {
		return false
	}
	for j, h := range b.hears {
		if h&aheadLines != 0 && j != a.idx && j != c.idx {
			return false
		}
	}
	return true
}

// AheadTarget returns the connected target engine an initiator on port
// ini may run a byte's handshake ahead with, or nil when it must take the
// ordinary steps.
func (b *Bus) AheadTarget(ini *Port) *Target {
	if ini != b.hsPort {
		return b.findAhead(ini)
	}
	if !b.aheadValid {
		b.aheadT, b.aheadValid = b.findAhead(ini), true
	}
	return b.aheadT
}

// findAhead is AheadTarget worked out.
func (b *Bus) findAhead(ini *Port) *Target {
	var t *Target
	for _, p := range b.ports {
		if p.eng != nil && p.eng.state == stConnected {
			if t != nil {
				return nil
			}
			t = p.eng
		}
	}
	if t == nil || !b.quietBetween(ini, t.port) {
		return nil
	}
	return t
}

// aheadInitiator returns the DMA engine the target may run its byte step
// ahead with, or nil.
func (t *Target) aheadInitiator() Handshaker {
	b := t.bus
	if b.hs == nil || b.lines&RST != 0 || b.AheadTarget(b.hsPort) != t {
		return nil
	}
	return b.hs
}

// DriveAhead is DriveAll for a side of a byte's handshake run ahead (only
// where AheadTarget or the target itself allowed it): the data, then the
// lines, each a change of the bus counted as any, but nobody is told. The
// caller gives the other side's answer itself.
func (p *Port) DriveAhead(lines, mask Line, v uint8, on bool) {
	if !on {
		v = 0
	}
	mask &= AllControl
	nl := p.lines&^mask | lines&mask
	newData := p.driving != on || p.data != v
	if !newData && nl == p.lines {
		return
	}
	b := p.bus
	// The other ports' contributions, as update ORs them: this port's
	// own is cleared first (set stores it again), so the loop does not
	// branch.
	b.drives[p.idx] = 0
	var rest uint32
	for _, x := range b.drives {
		rest |= x
	}
	if newData {
		p.driving, p.data, p.dbp = on, v, 0
		if on && OddParity(v) {
			p.dbp = DBP
		}
		b.set(p, rest)
	}
	if nl != p.lines {
		p.lines = nl
		b.set(p, rest)
	}
}

// set is update for a change made ahead, given the other ports'
// contributions: the lines and data, and the count, with nobody told.
func (b *Bus) set(from *Port, rest uint32) {
	x := from.packed()
	b.drives[from.idx] = x
	or := rest | x
	l, d := Line(or), uint8(or>>16)
	if l != b.lines || d != b.data {
		b.lines, b.data = l, d
		b.changes++
	}
}

// AckAhead answers the initiator's change of ACK, made with DriveAhead,
// exactly as the engine's bus listener would; called as the last act of
// the initiator's step, it runs the engine's next step (REQ off) at once
// when that is next (sched.RunOn).
func (t *Target) AckAhead(now sched.Time) {
	if t.bus.hears[t.port.idx]&ACK == 0 {
		return // not told of ACK in this state, as the bus would not tell it
	}
	if !t.acting && t.state == stConnected && t.bus.lines&RST == 0 {
		// poll's answers to ACK, with RunOn for ScheduleAfter.
		switch ack := t.bus.lines&ACK != 0; {
		case ack && t.xs == xWaitAck:
			t.inReset = false
			if !t.x.in {
				t.x.b = t.bus.data
			}
			t.xs = xReqOff
			t.ev = &t.evReqOff
			t.s.RunOnAfter(t.ev, t.timing.ReqOffAfterAck)
			return
		case !ack && t.xs == xWaitOff:
			t.inReset = false
			t.finish(now)
			return
		}
	}
	t.onChange(now)
}

// The engine's byte steps run ahead: each does what the ordinary step
// does, with DriveAhead for Drive and the initiator's answer through
// ReqAhead, and reports false, having done nothing, where it cannot.

// stepPhaseAhead is stepPhase with the phase lines already right (no
// settle): the data for a byte to the initiator, then REQ.
func (t *Target) stepPhaseAhead(now sched.Time) bool {
	x := t.x
	if t.port.lines&PhaseMask != x.phase.Lines() || t.aheadInitiator() == nil {
		return false
	}
	reqAt := now
	if x.in {
		t.port.DriveAhead(0, 0, x.b, true)
		reqAt = now + t.timing.DataSetup
	} else {
		t.port.DriveAhead(0, 0, 0, false)
	}
	t.xs = xReq
	t.ev = &t.evReq
	// The ordinary step's look at the bus finds nothing to do: no RST, and
	// the engine waits for nothing before its REQ.
	t.inReset = false
	t.s.RunOn(t.ev, reqAt)
	return true
}

// reqOnAhead is reqOn: REQ, and the initiator's answer.
func (t *Target) reqOnAhead(now sched.Time) bool {
	ini := t.aheadInitiator()
	if ini == nil || t.bus.lines&ACK != 0 {
		return false
	}
	t.xs = xWaitAck
	t.port.DriveAhead(REQ, REQ, t.port.data, t.port.driving)
	step, at := t.reqAhead(ini, now)
	t.lastLook(now, step, at, 0)
	return true
}

// reqOffAhead is reqOff: REQ released, the initiator's answer, and the
// data released for a byte to the initiator.
func (t *Target) reqOffAhead(now sched.Time) bool {
	ini := t.aheadInitiator()
	if ini == nil || t.bus.lines&ACK == 0 {
		return false
	}
	t.xs = xWaitOff
	t.port.DriveAhead(0, REQ, t.port.data, t.port.driving)
	step, at := t.reqAhead(ini, now)
	if t.x.in {
		t.port.DriveAhead(0, 0, 0, false)
	}
	t.lastLook(now, step, at, ACK)
	return true
}

// reqAhead has the initiator answer the step's REQ edge. The step is
// under way, as between begin and end: should the answer change a line
// the engine hears, the engine takes it at the step's end (lastLook).
func (t *Target) reqAhead(ini Handshaker, now sched.Time) (*sched.Event, sched.Time) {
	t.acting = true
	step, at := ini.ReqAhead(now)
	t.acting = false
	return step, at
}

// lastLook ends a step run ahead as end does, with the initiator's step
// scheduled where the ordinary step would have (its answer came before
// the look at the bus, and nothing between scheduled anything). When the
// look finds the lines as the step expects (ACK at ack, no RST), it has
// nothing to do, and the initiator's step is the step's last act: RunOn.
func (t *Target) lastLook(now sched.Time, step *sched.Event, at sched.Time, ack Line) {
	if t.bus.lines&(ACK|RST) == ack {
		t.inReset = false
		if step != nil {
			t.s.RunOn(step, at)
		}
		return
	}
	if step != nil {
		t.s.Schedule(step, at)
	}
	t.onChange(now)
}
