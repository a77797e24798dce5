// Package ctc models the Zilog Z80 CTC (counter/timer circuit) as wired on
// the Ampro Little Board/PLUS.
//
// Four channels, each an 8-bit down counter with a reload register (the time
// constant). In timer mode the counter is clocked by the system clock (4 MHz)
// through a prescaler of 16 or 256; in counter mode by edges of the channel's
// CLK/TRG input. On the board CLK/TRG0 and CLK/TRG1 are fed 2 MHz from the
// crystal, and ZC/TO0 and ZC/TO1 clock the DART channels A and B (baud rate)
// [F MAME-ampro, docs/HARDWARE.md 1.1].
//
// Nothing is ticked. A running channel is described by the time of its first
// decrement and the period between decrements, so the counter value and the
// times of zero counts are computed from simulated time when asked. Events are
// scheduled only for what must happen at a definite time: an interrupt on zero
// count, or a time constant written while counting (loaded at the next zero
// count).
//
// Registers (one port per channel): a write with bit 0 = 1 is a control word
// (D7 interrupt enable, D6 counter mode, D5 prescaler 256, D4 rising edge,
// D3 timer waits for trigger, D2 time constant follows, D1 software reset);
// a write with bit 0 = 0 to channel 0 is the interrupt vector (bits 7-3; the
// CTC fills bits 2-1 with the channel number). A read returns the down
// counter [F Z80 CTC datasheet, Zilog UM0081].
//
// Interrupts follow the Z80 daisy chain: channel 0 has the highest priority;
// a channel's interrupt pending latch is set at zero count when enabled; the
// acknowledge moves it to in-service, which blocks lower channels (and lower
// devices) until RETI.
//
// Known inaccuracies / assumptions:
//   - [A] A timer started automatically begins its prescaler at the instant
//     the time constant is written (the datasheet's "second rising edge of the
//     clock" start-up offset of one or two T-states is not modelled); a
//     triggered timer starts at the trigger edge.
//   - [A] Counter mode counts edges strictly after the instant the time
//     constant is written (no setup-time window).
//   - [A] The periodic CLK/TRG inputs have their rising edges at integer
//     multiples of their period from power-on, falling edges half-way.
//   - ZC/TO pulses of a channel fed from an aperiodic trigger (Trigger calls)
//     are not offered as a Clock (PulseAfter returns sched.MaxTime).
//   - A control word that changes mode, prescaler or edge without a software
//     reset takes effect when the next time constant starts the channel.
//   - The interrupt pending latch is not blocked during the M1 cycle of an
//     unrelated instruction (the daisy chain settles instantly).
package ctc

import "github.com/lbplus/lbplus/sched"

// Control word bits [F Zilog UM0081].
const (
	ctlControl   = 1 << 0
	ctlReset     = 1 << 1
	ctlTCFollows = 1 << 2
	ctlTrigger   = 1 << 3 // timer: wait for CLK/TRG edge before starting
	ctlRising    = 1 << 4
	ctlPre256    = 1 << 5
	ctlCounter   = 1 << 6
	ctlIntEnable = 1 << 7
)

// Channel is one of the four counter/timers.
type Channel struct {
	c   *CTC
	num int

	ctrl    uint8
	tc      int  // time constant 1..256
	running bool // counting
	waitTC  bool // control word said a time constant follows
	waitTrg bool // timer armed, waiting for its trigger edge

	// Periodic description while running: decrements at first + k*period.
	first  sched.Time
	period sched.Time

	// Aperiodic counting (external trigger edges): the counter itself.
	extCount int
	trgLevel bool

	// trigPeriod > 0: CLK/TRG is a free-running square wave of that period.
	trigPeriod sched.Time
	// fedBy: CLK/TRG is another channel's ZC/TO (Cascade); feeds is the
	// channel this one's ZC/TO drives.
	fedBy, feeds *Channel

	pendingTC int          // time constant written while running, loaded at next ZC
	zcEvent   *sched.Event // &zc while pending
	zc        sched.Event

	ip, ius bool // daisy chain: interrupt pending, under service
}

// CTC is the whole chip.
type CTC struct {
	s      *sched.Scheduler
	ch     [4]Channel
	vector uint8

	// OnINT is called whenever the chip's interrupt request or in-service
	// state may have changed, so the board can re-evaluate the daisy chain.
	OnINT func()
	// intObs are told after OnINT (debuggers, traces): ObserveINT.
	intObs sched.Observers[func()]
	// OnOutputChange is called when a channel's ZC/TO pulse train changes
	// (started, stopped, reprogrammed), so clocked devices can re-time.
	OnOutputChange func(ch int)
	// OnZC, if set, is called at each zero count of a channel that has an
	// event scheduled for it (interrupt enabled or aperiodic counting).
	OnZC func(ch int, now sched.Time)
}

// New returns a CTC in its reset state, keeping time with s.
func New(s *sched.Scheduler) *CTC {
	c := &CTC{s: s}
	for i := range c.ch {
		c.ch[i].c = c
		c.ch[i].num = i
		c.ch[i].zc.Init(ctcEventNames[i], c.ch[i].onZCEvent)
		s.Own(&c.ch[i].zc)
	}
	c.Reset()
	return c
}

// Reset is the /RESET pin: every channel stops, interrupts are disabled.
func (c *CTC) Reset() {
	for i := range c.ch {
		ch := &c.ch[i]
		ch.stop()
		ch.ctrl = 0
		ch.tc = 256
		ch.waitTC = false
		ch.ip, ch.ius = false, false
		ch.extCount = 0
	}
	c.notifyINT()
}

// SetTriggerClock declares that channel n's CLK/TRG input is a free-running
// clock of the given period (2 MHz for channels 0 and 1 on the board).
func (c *CTC) SetTriggerClock(n int, period sched.Time) { c.ch[n].trigPeriod = period }

// Cascade wires channel src's ZC/TO output to channel dst's CLK/TRG input
// (a board jumper), so dst counts src's zero counts: one long timer. While
// src runs periodically, dst is clocked like a periodic CLK/TRG whose edges
// are src's zero counts; otherwise each zero count src reaches is a pulse on
// dst's input.
func (c *CTC) Cascade(src, dst int) {
	c.ch[src].feeds = &c.ch[dst]
	c.ch[dst].fedBy = &c.ch[src]
}

// Channel returns channel n (0-3).
func (c *CTC) Channel(n int) *Channel { return &c.ch[n] }

// Read returns channel n's down counter at the scheduler's current time.
func (c *CTC) Read(n int) uint8 {
	return uint8(c.ch[n].count(c.s.Now()))
}

// Write handles a CPU write to channel n at the scheduler's current time.
func (c *CTC) Write(n int, v uint8) {
	ch := &c.ch[n]
	now := c.s.Now()
	if ch.waitTC {
		ch.waitTC = false
		ch.loadTC(int(v), now)
		return
	}
	if v&ctlControl == 0 {
		if n == 0 {
			c.vector = v & 0xF8
		}
		return
	}
	ch.ctrl = v
	if v&ctlIntEnable == 0 && ch.ip {
		// [A] Disabling interrupts also drops a request not yet acknowledged
		// (as MAME's CTC does).
		ch.ip = false
		c.notifyINT()
	}
	if v&ctlReset != 0 {
		ch.stop()
		c.output(n)
	}
	ch.waitTC = v&ctlTCFollows != 0
	ch.reschedule(now)
}

// Trigger drives channel n's CLK/TRG input to level at the current time (for
// inputs not declared periodic: 5380 IRQ or WD1772 INTRQ through jumpers).
func (c *CTC) Trigger(n int, level bool) {
	ch := &c.ch[n]
	if level == ch.trgLevel {
		return
	}
	ch.trgLevel = level
	if level != (ch.ctrl&ctlRising != 0) {
		return // not the active edge
	}
	now := c.s.Now()
	switch {
	case ch.waitTrg:
		ch.waitTrg = false
		ch.start(now, now)
	case ch.running && ch.ctrl&ctlCounter != 0 && ch.period == 0:
		ch.extCount--
		if ch.extCount == 0 {
			ch.extCount = ch.reloadValue()
			ch.zeroCount(now)
		}
	}
}

func (ch *Channel) reloadValue() int {
	if ch.pendingTC != 0 {
		ch.tc = ch.pendingTC
		ch.pendingTC = 0
	}
	return ch.tc
}

func (ch *Channel) stop() {
	ch.running = false
	ch.waitTrg = false
	ch.pendingTC = 0
	if ch.zcEvent != nil {
		ch.c.s.Cancel(ch.zcEvent)
		ch.zcEvent = nil
	}
}

func (ch *Channel) loadTC(v int, now sched.Time) {
	if v == 0 {
		v = 256
	}
	if ch.running {
		// A new time constant while counting is loaded at the next zero count.
		ch.pendingTC = v
		ch.reschedule(now)
		return
	}
	ch.tc = v
	if ch.ctrl&ctlCounter == 0 && ch.ctrl&ctlTrigger != 0 {
		ch.waitTrg = true
		if ch.periodicInput() {
			ch.waitTrg = false
			ch.start(now, ch.nextEdge(now))
		}
		return
	}
	ch.start(now, now)
}

// periodicInput reports whether CLK/TRG is a periodic clock now: a
// declared one, or a cascaded channel that runs periodically.
func (ch *Channel) periodicInput() bool {
	return ch.trigPeriod > 0 || ch.fedBy != nil && ch.fedBy.ZCPeriod() > 0
}

// inputPeriod is the period of a periodic CLK/TRG.
func (ch *Channel) inputPeriod() sched.Time {
	if ch.fedBy != nil {
		return ch.fedBy.ZCPeriod()
	}
	return ch.trigPeriod
}

// nextEdge is the first active edge of a periodic CLK/TRG strictly after t.
// A cascaded input's edges are the feeding channel's zero counts; [A] its
// ZC/TO pulse is taken as one instant for both edge polarities.
func (ch *Channel) nextEdge(t sched.Time) sched.Time {
	if ch.fedBy != nil {
		return ch.fedBy.PulseAfter(t, 1)
	}
	p := ch.trigPeriod
	off := sched.Time(0)
	if ch.ctrl&ctlRising == 0 {
		off = p / 2
	}
	k := (t-off)/p + 1
	if t < off {
		k = 0
	}
	return off + k*p
}

// start begins counting; origin is when the prescaler (timer) starts.
func (ch *Channel) start(now, origin sched.Time) {
	ch.running = true
	ch.pendingTC = 0
	switch {
	case ch.ctrl&ctlCounter == 0:
		pre := sched.Time(16)
		if ch.ctrl&ctlPre256 != 0 {
			pre = 256
		}
		ch.period = pre * sched.TState
		ch.first = origin + ch.period
	case ch.periodicInput():
		ch.period = ch.inputPeriod()
		ch.first = ch.nextEdge(now)
	default:
		ch.period = 0 // counting Trigger edges
		ch.extCount = ch.tc
	}
	ch.reschedule(now)
	ch.c.output(ch.num)
}

// decrements returns how many times the counter has decremented by time t.
func (ch *Channel) decrements(t sched.Time) int64 {
	if t < ch.first {
		return 0
	}
	return int64((t-ch.first)/ch.period) + 1
}

func (ch *Channel) count(t sched.Time) int {
	switch {
	case !ch.running:
		return ch.tc & 0xFF
	case ch.period == 0:
		return ch.extCount & 0xFF
	}
	n := ch.decrements(t)
	return (ch.tc - int(n%int64(ch.tc))) & 0xFF
}

// nextZC returns the first zero count strictly after t (periodic channels).
func (ch *Channel) nextZC(t sched.Time) sched.Time {
	n := ch.decrements(t)   // decrements done by t
	m := n/int64(ch.tc) + 1 // next zero count index
	k := m*int64(ch.tc) - 1 // its decrement index
	return ch.first + sched.Time(k)*ch.period
}

// reschedule arms the zero-count event if anything must happen at a zero
// count: an interrupt, or a pending time constant.
func (ch *Channel) reschedule(now sched.Time) {
	if ch.zcEvent != nil {
		ch.c.s.Cancel(ch.zcEvent)
		ch.zcEvent = nil
	}
	if !ch.running || ch.period == 0 {
		return
	}
	if ch.ctrl&ctlIntEnable == 0 && ch.pendingTC == 0 && ch.c.OnZC == nil {
		return
	}
	at := ch.nextZC(now - 1) // a zero count exactly now has not been handled yet
	ch.zcEvent = &ch.zc
	ch.c.s.Schedule(ch.zcEvent, at)
}

var ctcEventNames = [4]string{"ctc0 zc", "ctc1 zc", "ctc2 zc", "ctc3 zc"}

func (ch *Channel) onZCEvent(now sched.Time) {
	ch.zcEvent = nil
	if ch.pendingTC != 0 {
		// Rebase: the counter reloads with the new constant at this zero count.
		ch.tc = ch.pendingTC
		ch.pendingTC = 0
		ch.first = now + ch.period
		ch.c.output(ch.num)
	}
	ch.zeroCount(now)
	ch.reschedule(now + 1)
}

func (ch *Channel) zeroCount(now sched.Time) {
	if ch.feeds != nil && ch.period == 0 {
		// An aperiodic zero count is one pulse on the cascaded input; a
		// periodic one is already in the fed channel's timing (retime).
		ch.c.Trigger(ch.feeds.num, true)
		ch.c.Trigger(ch.feeds.num, false)
	}
	if ch.c.OnZC != nil {
		ch.c.OnZC(ch.num, now)
	}
	if ch.ctrl&ctlIntEnable != 0 && !ch.ip {
		ch.ip = true
		ch.c.notifyINT()
	}
}

func (c *CTC) output(n int) {
	if f := c.ch[n].feeds; f != nil {
		f.retime(c.s.Now())
	}
	if c.OnOutputChange != nil {
		c.OnOutputChange(n)
	}
}

// retime follows a change of the feeding channel's pulse train: a counter
// keeps its count and takes its next decrements from the new train; a timer
// waiting for its trigger starts at the first pulse.
func (ch *Channel) retime(now sched.Time) {
	if ch.waitTrg {
		if ch.periodicInput() {
			ch.waitTrg = false
			ch.start(now, ch.nextEdge(now))
		}
		return
	}
	if !ch.running || ch.ctrl&ctlCounter == 0 {
		return
	}
	rem := ch.extCount // decrements left to the next zero count
	if ch.period != 0 {
		rem = ch.tc - int(ch.decrements(now)%int64(ch.tc))
	}
	if ch.periodicInput() {
		ch.period = ch.inputPeriod()
		ch.first = ch.nextEdge(now) - sched.Time(ch.tc-rem)*ch.period
	} else {
		ch.period = 0
		ch.extCount = rem
	}
	ch.reschedule(now)
	ch.c.output(ch.num)
}

func (c *CTC) notifyINT() {
	if c.OnINT != nil {
		c.OnINT()
	}
	for _, fn := range c.intObs.List() {
		fn()
	}
}

// ObserveINT adds fn to the observers told, after OnINT (the board's
// daisy chain), whenever the interrupt state may have changed (IntState
// reads it), and returns a function that removes it. OnINT is the
// board's wire; observers come and go without touching it.
func (c *CTC) ObserveINT(fn func()) (remove func()) { return c.intObs.Add(fn, nil) }

// Running reports whether the channel is counting.
func (ch *Channel) Running() bool { return ch.running }

// ZCPeriod returns the time between ZC/TO pulses, or 0 when the channel is
// stopped or clocked by aperiodic trigger edges.
func (ch *Channel) ZCPeriod() sched.Time {
	if !ch.running || ch.period == 0 {
		return 0
	}
	return ch.period * sched.Time(ch.tc)
}

// PulseAfter returns the time of the n-th ZC/TO pulse strictly after t (n >=
// 1), or sched.MaxTime if the channel does not produce a periodic pulse
// train. A time constant waiting for the next zero count is not taken into
// account beyond that zero count [A: callers re-time on OnOutputChange].
func (ch *Channel) PulseAfter(t sched.Time, n int) sched.Time {
	if !ch.running || ch.period == 0 || n < 1 {
		return sched.MaxTime
	}
	return ch.nextZC(t) + sched.Time(n-1)*ch.period*sched.Time(ch.tc)
}

// IntState reports the chip's daisy-chain state: req when a channel may
// interrupt now (pending and not blocked by a channel in service above it),
// inService when any channel is under service (IEO low for lower devices).
func (c *CTC) IntState() (req, inService bool) {
	for i := range c.ch {
		ch := &c.ch[i]
		if ch.ius {
			return req, true
		}
		if ch.ip {
			req = true
		}
	}
	return req, false
}

// Acknowledge is the interrupt acknowledge cycle: the highest pending channel
// goes under service and its vector is returned.
func (c *CTC) Acknowledge() uint8 {
	for i := range c.ch {
		ch := &c.ch[i]
		if ch.ius {
			break
		}
		if ch.ip {
			ch.ip = false
			ch.ius = true
			c.notifyINT()
			return c.vector | uint8(i<<1)
		}
	}
	return 0xFF
}

// RETI ends the service of the highest-priority channel under service.
func (c *CTC) RETI() {
	for i := range c.ch {
		if c.ch[i].ius {
			c.ch[i].ius = false
			c.notifyINT()
			return
		}
	}
}
