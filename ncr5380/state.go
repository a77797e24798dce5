package ncr5380

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// RegDACK is the register number Access uses for a pseudo-DMA (DACK)
// access through the board's port 28h.
const RegDACK = 8

// Access is one register access seen by an observer, after the chip has
// applied it: Reg is 0-7 or RegDACK, V the value read or written.
type Access struct {
	Reg   int
	Write bool
	V     uint8
}

type accessObserver struct {
	regs uint16
	fn   func(now sched.Time, a Access)
}

// Observe adds fn to the register-access observers and returns a function
// that removes it. With none attached an access costs one length check.
// fn must not access the chip's registers (Peek and State are free).
func (c *Chip) Observe(fn func(now sched.Time, a Access)) (remove func()) {
	return c.ObserveRegs(1<<(RegDACK+1)-1, fn)
}

// ObserveRegs is Observe for the registers whose bits are set in regs
// (bit r for register r, bit RegDACK for DACK accesses): watching the
// rare ones costs the per-byte DACK path a mask test, not a call.
func (c *Chip) ObserveRegs(regs uint16, fn func(now sched.Time, a Access)) (remove func()) {
	return c.obs.Add(accessObserver{regs, fn}, func() {
		c.obsRegs = 0
		for _, o := range c.obs.List() {
			c.obsRegs |= o.regs
		}
	})
}

// ObserveEvents adds fn to the observers told of the events Stats counts
// ("stale DACK read", "DACK write overwrote ODR", "phase mismatch", "BSY
// lost", "bus reset", "arbitration started", "arbitration lost"), for bus
// traces and debuggers, and returns a function that removes it.
func (c *Chip) ObserveEvents(fn func(now sched.Time, event string)) (remove func()) {
	return c.evObs.Add(fn, nil)
}

func (c *Chip) notify(a Access) {
	now := c.s.Now()
	for _, o := range c.obs.List() {
		if o.regs&(1<<a.Reg) != 0 {
			o.fn(now, a)
		}
	}
}

// Peek returns what a read of register reg (0-7, or RegDACK) would return
// now, without its side effects: peeking register 7 does not clear the
// interrupt or the busy error, peeking RegDACK does not start a handshake.
func (c *Chip) Peek(reg int) uint8 {
	switch {
	case reg == RegDACK:
		return c.idr
	case reg&7 == RegReset:
		return 0
	}
	return c.read(reg)
}

// State is the chip's complete internal state: the registers, the latches
// and flags, the arbitration and DMA engines and which of the chip's own
// events is pending (the scheduler keeps its time, see sched.State). It is
// also what a debugger displays.
type State struct {
	ODR, ICR, MR, TCR, SelEn, IDR uint8
	AIP, LA                       bool // arbitration in progress, lost arbitration
	IRQ, DRQ                      bool
	BusyErr, EndDMA               bool
	Arb                           uint8 // arbitration engine: idle, waiting, settle, active
	DMA                           uint8 // DMA engine step, see DMAStep
	DMAEvent                      string
	ArbEvent                      bool
	DMAACK, DMADB                 bool // the DMA engine drives ACK / the data bus
	Prev                          scsi.Line
	Stats                         Stats
}

var dmaStepNames = [...]string{"idle", "receive: wait REQ", "receive: latch", "receive: DRQ", "receive: ACK pending",
	"receive: ACK", "receive: ACK off pending", "send: DRQ pending", "send: DRQ", "send: wait REQ", "send: ACK pending",
	"send: ACK", "send: ACK off pending"}

// DMAStep names the DMA engine's step for display.
func (st State) DMAStep() string {
	if int(st.DMA) < len(dmaStepNames) {
		return dmaStepNames[st.DMA]
	}
	return "?"
}

// State returns the chip's state; looking changes nothing.
func (c *Chip) State() State {
	st := State{ODR: c.odr, ICR: c.icr, MR: c.mr, TCR: c.tcr, SelEn: c.selEn, IDR: c.idr,
		AIP: c.aip, LA: c.la, IRQ: c.irq, DRQ: c.drq, BusyErr: c.busyErr, EndDMA: c.endDMA,
		Arb: uint8(c.arb), DMA: uint8(c.dma), ArbEvent: c.arbEv != nil,
		DMAACK: c.dmaACK, DMADB: c.dmaDB, Prev: c.prev, Stats: c.Stats}
	if c.ev != nil {
		st.DMAEvent = c.ev.Name()
	}
	return st
}

// SetState puts the chip in state st. The bus lines the chip drives are
// restored from the port's saved state by the machine, and the pending
// events by the scheduler (sched.SetState); IRQ and DRQ are set without
// calling OnIRQ/OnDRQ, since the wires they feed are restored too.
func (c *Chip) SetState(st State) error {
	c.ev = nil
	if st.DMAEvent != "" {
		for _, e := range []*sched.Event{&c.evDRQ, &c.evLatch, &c.evRxAck, &c.evTxAck, &c.evRxAckOff, &c.evTxAckOff} {
			if e.Name() == st.DMAEvent {
				c.ev = e
			}
		}
		if c.ev == nil {
			return fmt.Errorf("ncr5380 %s: saved DMA event %q is not one of the chip's", c.name, st.DMAEvent)
		}
	}
	if int(st.DMA) >= len(dmaStepNames) || st.Arb > uint8(arbActive) {
		return fmt.Errorf("ncr5380 %s: saved engine state %d/%d out of range", c.name, st.Arb, st.DMA)
	}
	c.odr, c.icr, c.mr, c.tcr, c.selEn, c.idr = st.ODR, st.ICR, st.MR, st.TCR, st.SelEn, st.IDR
	c.aip, c.la, c.irq, c.drq, c.busyErr, c.endDMA = st.AIP, st.LA, st.IRQ, st.DRQ, st.BusyErr, st.EndDMA
	c.arb, c.dma = arbState(st.Arb), dmaState(st.DMA)
	c.arbEv = nil
	if st.ArbEvent {
		c.arbEv = &c.evArb
	}
	c.dmaACK, c.dmaDB, c.prev, c.Stats = st.DMAACK, st.DMADB, st.Prev, st.Stats
	return nil
}
