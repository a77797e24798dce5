package ctc

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// ChannelState is one channel's complete state. The wiring (trigger
// clocks, cascades) belongs to the board and is not part of it.
type ChannelState struct {
	Control    uint8
	TC         int // time constant 1..256
	Running    bool
	WaitTC     bool // a time constant follows the control word
	WaitTrg    bool // timer armed, waiting for its trigger edge
	First      sched.Time
	Period     sched.Time
	ExtCount   int
	TrgLevel   bool
	PendingTC  int
	ZCPending  bool // the zero-count event is queued (sched.State has its time)
	IP, IUS    bool // interrupt pending, under service
	Count      uint8
	ZCInterval sched.Time // for display: time between zero counts, 0 when not periodic
}

// State is the CTC's complete state, for display and save states.
type State struct {
	Vector   uint8
	Channels [4]ChannelState
}

// State returns the CTC's state; looking changes nothing (Count is what a
// read would return now).
func (c *CTC) State() State {
	st := State{Vector: c.vector}
	now := c.s.Now()
	for i := range c.ch {
		ch := &c.ch[i]
		st.Channels[i] = ChannelState{Control: ch.ctrl, TC: ch.tc, Running: ch.running, WaitTC: ch.waitTC,
			WaitTrg: ch.waitTrg, First: ch.first, Period: ch.period, ExtCount: ch.extCount, TrgLevel: ch.trgLevel,
			PendingTC: ch.pendingTC, ZCPending: ch.zcEvent != nil, IP: ch.ip, IUS: ch.ius,
			Count: uint8(ch.count(now)), ZCInterval: ch.ZCPeriod()}
	}
	return st
}

// SetState puts the CTC in state st without calling OnINT or
// OnOutputChange: the lines they feed are restored with the machine. The
// scheduler restores the zero-count events.
func (c *CTC) SetState(st State) error {
	for i, cs := range st.Channels {
		if cs.TC < 1 || cs.TC > 256 || cs.PendingTC < 0 || cs.PendingTC > 256 || (cs.Running && cs.Period < 0) {
			return fmt.Errorf("ctc: channel %d: saved time constant %d/%d or period %v out of range", i, cs.TC, cs.PendingTC, cs.Period)
		}
	}
	c.vector = st.Vector
	for i, cs := range st.Channels {
		ch := &c.ch[i]
		ch.ctrl, ch.tc, ch.running, ch.waitTC, ch.waitTrg = cs.Control, cs.TC, cs.Running, cs.WaitTC, cs.WaitTrg
		ch.first, ch.period, ch.extCount, ch.trgLevel, ch.pendingTC = cs.First, cs.Period, cs.ExtCount, cs.TrgLevel, cs.PendingTC
		ch.ip, ch.ius = cs.IP, cs.IUS
		ch.zcEvent = nil
		if cs.ZCPending {
			ch.zcEvent = &ch.zc
		}
	}
	return nil
}

// ZeroCountEvent returns channel n's zero-count event, for an observer
// of that event alone (sched.ObserveEvent).
func (c *CTC) ZeroCountEvent(n int) *sched.Event { return &c.ch[n].zc }
