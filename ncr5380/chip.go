package ncr5380

import (
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Register numbers (offset from the chip's base port, 0x20 on the board).
const (
	RegData   = 0 // read current SCSI data / write output data
	RegICR    = 1 // initiator command
	RegMR     = 2 // mode
	RegTCR    = 3 // target command
	RegCSB    = 4 // read current SCSI bus status / write select enable
	RegBSR    = 5 // read bus and status / write start DMA send
	RegIDR    = 6 // read input data / write start DMA target receive
	RegReset  = 7 // read reset parity/interrupt / write start DMA initiator receive
	RegSelEn  = RegCSB
	RegDMASnd = RegBSR
	RegDMATRx = RegIDR
	RegDMAIRx = RegReset
)

// ICR bits.
const (
	ICRDataBus  = 1 << 0 // assert data bus (ODR)
	ICRATN      = 1 << 1
	ICRSEL      = 1 << 2
	ICRBSY      = 1 << 3
	ICRACK      = 1 << 4
	ICRLA       = 1 << 5 // read: lost arbitration (write: differential enable, 5381)
	ICRAIP      = 1 << 6 // read: arbitration in progress (write: test mode)
	ICRRST      = 1 << 7
	icrWritable = ICRRST | ICRACK | ICRBSY | ICRSEL | ICRATN | ICRDataBus
)

// MR bits.
const (
	MRArbitrate   = 1 << 0
	MRDMA         = 1 << 1
	MRMonitorBSY  = 1 << 2
	MREOPIRQ      = 1 << 3
	MRParityIRQ   = 1 << 4
	MRParityCheck = 1 << 5
	MRTarget      = 1 << 6
	MRBlockDMA    = 1 << 7
)

// TCR bits.
const (
	TCRIO      = 1 << 0
	TCRCD      = 1 << 1
	TCRMSG     = 1 << 2
	TCRREQ     = 1 << 3
	TCRPhase   = TCRMSG | TCRCD | TCRIO
	tcrStored  = TCRREQ | TCRPhase
	TCRLastBit = 1 << 7 // 53C80 only; reads 0 on the 5380
)

// CSB bits (register 4 read).
const (
	CSBDBP = 1 << 0
	CSBSEL = 1 << 1
	CSBIO  = 1 << 2
	CSBCD  = 1 << 3
	CSBMSG = 1 << 4
	CSBREQ = 1 << 5
	CSBBSY = 1 << 6
	CSBRST = 1 << 7
)

// BSR bits (register 5 read).
const (
	BSRACK        = 1 << 0
	BSRATN        = 1 << 1
	BSRBusyError  = 1 << 2
	BSRPhaseMatch = 1 << 3
	BSRIRQ        = 1 << 4
	BSRParityErr  = 1 << 5
	BSRDRQ        = 1 << 6
	BSREndOfDMA   = 1 << 7
)

// Timing holds the chip's own edge delays. The datasheet AC tables were not
// available; the 53C80 runs 3 MB/s asynchronous [F Z53C80], so each edge is
// a few hundred ns [A] (docs/HARDWARE.md 3.3).
type Timing struct {
	// ArbBusFree: BSY and SEL false -> the chip asserts BSY and its ID and
	// sets AIP. Bus settle delay 400 ns [F CLK, docs/HARDWARE.md 3.2].
	ArbBusFree sched.Time
	// ReqToDRQ: REQ (phase matching) -> IDR latched and DRQ on, DMA
	// receive. [A] 200 ns.
	ReqToDRQ sched.Time
	// DackToAck: DACK read of a latched byte -> ACK on, DMA receive. [A] 150 ns.
	DackToAck sched.Time
	// ReqToAck: REQ (phase matching, byte in ODR) -> data and ACK on, DMA
	// send; includes the data setup. [A] 200 ns.
	ReqToAck sched.Time
	// ReqOffToAckOff: REQ off -> ACK off, both directions. [A] 150 ns.
	ReqOffToAckOff sched.Time
	// AckOffToDRQ: ACK off (or start of DMA send) -> DRQ on for the next
	// output byte. [A] 100 ns.
	AckOffToDRQ sched.Time
}

// DefaultTiming returns the values documented on Timing.
func DefaultTiming() Timing {
	return Timing{
		ArbBusFree:     400 * sched.Nanosecond,
		ReqToDRQ:       200 * sched.Nanosecond,
		DackToAck:      150 * sched.Nanosecond,
		ReqToAck:       200 * sched.Nanosecond,
		ReqOffToAckOff: 150 * sched.Nanosecond,
		AckOffToDRQ:    100 * sched.Nanosecond,
	}
}

// Stats counts DMA events, for tests and traces.
type Stats struct {
	DMABytesIn      uint64 // bytes the chip acknowledged in DMA receive
	DMABytesOut     uint64 // bytes the chip acknowledged in DMA send
	StaleReads      uint64 // DACK reads with no byte latched (DRQ off): byte duplicated
	Overwrites      uint64 // DACK writes with DRQ off: the previous ODR byte is lost
	PhaseMismatches uint64 // REQ in DMA mode with bus phase != TCR
	BusyLosses      uint64 // BSY fell while connected
	Resets          uint64 // bus resets seen (RST)
	Arbitrations    uint64 // arbitrations begun (BSY asserted by the chip)
}

type dmaState uint8

const (
	dmaIdle         dmaState = iota
	rxWaitReq                // waiting for REQ with matching phase
	rxLatchPending           // event: latch IDR, DRQ on
	rxLatched                // DRQ on, waiting for DACK
	rxAckPending             // event: ACK on
	rxAck                    // ACK on, waiting for REQ off
	rxAckOffPending          // event: ACK off
	txDRQPending             // event: DRQ on
	txWaitDACK               // DRQ on, waiting for DACK write
	txWaitReq                // byte in ODR, waiting for REQ
	txAckPending             // event: data and ACK on
	txAck                    // ACK on, waiting for REQ off
	txAckOffPending          // event: ACK off
)

type arbState uint8

const (
	arbIdle    arbState = iota
	arbWaiting          // MR arbitrate set, waiting for bus free
	arbSettle           // bus free seen, event pending
	arbActive           // BSY and ID asserted, AIP set
)

// Chip is one NCR 5380.
type Chip struct {
	s      *sched.Scheduler
	bus    *scsi.Bus
	port   *scsi.Port
	name   string
	Timing Timing
	Stats  Stats

	odr, icr, mr, tcr, selEn, idr uint8
	aip, la                       bool
	irq, drq                      bool
	busyErr, endDMA               bool

	arb    arbState
	dma    dmaState
	ev     *sched.Event // pending DMA edge
	arbEv  *sched.Event
	dmaACK bool // the DMA engine drives ACK
	dmaDB  bool // the DMA engine drives ODR

	prev scsi.Line // bus lines at the last change, for edges

	// The chip's edges, each an event it owns and reschedules: several
	// fire per byte, so none is allocated per byte.
	evDRQ, evArb, evLatch, evRxAck, evTxAck, evRxAckOff, evTxAckOff sched.Event

	obs     sched.Observers[accessObserver]
	obsRegs uint16 // the registers some observer watches (OR of their masks)

	evObs sched.Observers[func(now sched.Time, event string)]

	// OnIRQ and OnDRQ, if set, are called when the IRQ or DRQ output
	// changes level: the board's wires (jumpers). Observers of the
	// outputs (ObserveOutputs) are told after them.
	OnIRQ  func(bool)
	OnDRQ  func(bool)
	outObs sched.Observers[func(now sched.Time, out Output, level bool)]
}

// Output is one of the chip's interrupt and DMA request outputs.
type Output uint8

// The outputs ObserveOutputs reports.
const (
	IRQ Output = iota
	DRQ
)

// ObserveOutputs adds fn to the observers told of each change of the IRQ
// and DRQ outputs, after OnIRQ/OnDRQ, and returns a function that removes
// it: a debugger records the lines without replacing the board's wires.
func (c *Chip) ObserveOutputs(fn func(now sched.Time, out Output, level bool)) (remove func()) {
	return c.outObs.Add(fn, nil)
}

// OutputsObserved reports whether an observer of IRQ and DRQ is attached:
// it must see each edge when it happens, so the chip's quiet DMA steps may
// not then run late.
func (c *Chip) OutputsObserved() bool { return c.outObs.Len() != 0 }

func (c *Chip) trace(event string) {
	for _, fn := range c.evObs.List() {
		fn(c.s.Now(), event)
	}
}

// New attaches a 5380 to bus.
func New(s *sched.Scheduler, bus *scsi.Bus, name string) *Chip {
	c := &Chip{s: s, bus: bus, name: name, Timing: DefaultTiming()}
	c.evDRQ.Init(name+" DMA DRQ", c.txDRQ)
	c.evArb.Init(name+" arbitration", c.arbSettled)
	c.evLatch.Init(name+" DMA latch", c.rxLatch)
	c.evRxAck.Init(name+" DMA receive ACK", c.rxAckOn)
	c.evTxAck.Init(name+" DMA send ACK", c.txAckOn)
	c.evRxAckOff.Init(name+" DMA receive ACK off", c.rxAckOff)
	c.evTxAckOff.Init(name+" DMA send ACK off", c.txAckOff)
	s.Own(&c.evDRQ, &c.evArb, &c.evLatch, &c.evRxAck, &c.evTxAck, &c.evRxAckOff, &c.evTxAckOff)
	// The DMA handshake steps change the bus and the chip's registers,
	// which the CPU reads through I/O accesses, and IRQ and DRQ, which
	// reach the CPU only through OnIRQ and OnDRQ (the board's jumpers; a
	// board with them set does not run quiet events late): quiet.
	for _, e := range []*sched.Event{&c.evDRQ, &c.evLatch, &c.evRxAck, &c.evTxAck, &c.evRxAckOff, &c.evTxAckOff} {
		e.SetQuiet(true)
	}
	c.port = bus.Attach(name, c.onChange)
	c.port.SetHandshaker(c)
	// The chip reacts to RST, BSY, SEL and REQ edges and levels and to
	// the phase lines (phase match, the data bus enable); the data byte
	// it only reads when SEL rises, ACK and ATN only when a register is
	// read. It evaluates itself after each of its own steps (register
	// writes, its events), so only these changes need to reach it.
	c.port.Listen(scsi.RST | scsi.BSY | scsi.SEL | scsi.REQ | scsi.PhaseMask)
	c.prev = bus.Lines()
	return c
}

// Port returns the chip's connector on the bus.
func (c *Chip) Port() *scsi.Port { return c.port }

// IRQ returns the level of the IRQ output.
func (c *Chip) IRQ() bool { return c.irq }

// DRQ returns the level of the DRQ output.
func (c *Chip) DRQ() bool { return c.drq }

func (c *Chip) setIRQ(v bool) {
	if v != c.irq {
		c.irq = v
		if c.OnIRQ != nil {
			c.OnIRQ(v)
		}
		c.notifyOutput(IRQ, v)
	}
}

func (c *Chip) setDRQ(v bool) {
	if v != c.drq {
		c.drq = v
		if c.OnDRQ != nil {
			c.OnDRQ(v)
		}
		c.notifyOutput(DRQ, v)
	}
}

func (c *Chip) notifyOutput(o Output, v bool) {
	if c.outObs.Len() == 0 {
		return
	}
	now := c.s.Now()
	for _, fn := range c.outObs.List() {
		fn(now, o, v)
	}
}

// Read returns register reg (0-7) at s.Now().
func (c *Chip) Read(reg int) uint8 {
	v := c.read(reg)
	if c.obsRegs&(1<<(reg&7)) != 0 {
		c.notify(Access{Reg: reg & 7, V: v})
	}
	return v
}

// SteadyRead reports whether reading register reg has no effect but
// returning its value, which only a register write or a scheduled event
// can change: registers 0-6 while no observer watches them (reading
// register 7 resets the interrupt). A board lets its CPU replay a loop
// that polls such a register (z80host's loop replay).
func (c *Chip) SteadyRead(reg int) bool {
	reg &= 7
	return reg != RegReset && c.obsRegs&(1<<reg) == 0
}

func (c *Chip) read(reg int) uint8 {
	switch reg & 7 {
	case RegData:
		return c.bus.Data()
	case RegICR:
		v := c.icr
		if c.aip {
			v |= ICRAIP
		}
		if c.la {
			v |= ICRLA
		}
		return v
	case RegMR:
		return c.mr
	case RegTCR:
		return c.tcr
	case RegCSB:
		return csb(c.bus.Lines())
	case RegBSR:
		return c.bsr()
	case RegIDR:
		return c.idr
	default: // reset parity/interrupt
		c.busyErr = false
		c.setIRQ(false)
		return 0
	}
}

// csbBits maps the bus lines to register 4's bits.
var csbBits = [...]struct {
	line scsi.Line
	bit  uint8
}{{scsi.DBP, CSBDBP}, {scsi.SEL, CSBSEL}, {scsi.IO, CSBIO}, {scsi.CD, CSBCD}, {scsi.MSG, CSBMSG}, {scsi.REQ, CSBREQ}, {scsi.BSY, CSBBSY}, {scsi.RST, CSBRST}}

func csb(l scsi.Line) uint8 { return csbTable[l&(scsi.DBP<<1-1)] }

// csbTable is csbOf for every combination of the lines up to DBP: a
// program's REQ poll reads register 4 several times a byte.
var csbTable = func() (t [scsi.DBP << 1]uint8) {
	for l := range t {
		t[l] = csbOf(scsi.Line(l))
	}
	return t
}()

func csbOf(l scsi.Line) uint8 {
	var v uint8
	for _, m := range csbBits {
		if l&m.line != 0 {
			v |= m.bit
		}
	}
	return v
}

func (c *Chip) phaseMatch(l scsi.Line) bool {
	return uint8(scsi.InfoPhase(l)) == c.tcr&TCRPhase
}

func (c *Chip) bsr() uint8 {
	l := c.bus.Lines()
	var v uint8
	if c.endDMA {
		v |= BSREndOfDMA
	}
	if c.drq {
		v |= BSRDRQ
	}
	if c.irq {
		v |= BSRIRQ
	}
	if c.phaseMatch(l) {
		v |= BSRPhaseMatch
	}
	if c.busyErr {
		v |= BSRBusyError
	}
	if l&scsi.ATN != 0 {
		v |= BSRATN
	}
	if l&scsi.ACK != 0 {
		v |= BSRACK
	}
	return v
}

// Write sets register reg (0-7) at s.Now().
func (c *Chip) Write(reg int, v uint8) {
	c.write(reg&7, v)
	if c.obsRegs&(1<<(reg&7)) != 0 {
		c.notify(Access{Reg: reg & 7, Write: true, V: v})
	}
}

func (c *Chip) write(reg int, v uint8) {
	if reg != RegICR && c.bus.Lines()&scsi.RST != 0 {
		return // held in reset while RST is on the bus [A]
	}
	switch reg {
	case RegData:
		c.odr = v
	case RegICR:
		c.icr = v & icrWritable
		if c.icr&ICRRST != 0 {
			c.drive()
			c.busReset()
			return
		}
	case RegMR:
		c.writeMR(v)
	case RegTCR:
		c.tcr = v & tcrStored
	case RegSelEn:
		c.selEn = v
	case RegDMASnd:
		if c.mr&MRDMA != 0 {
			c.stopDMA()
			c.dma = txDRQPending
			c.schedule(&c.evDRQ, c.Timing.AckOffToDRQ)
		}
	case RegDMATRx:
		// Target mode is not modelled.
	case RegDMAIRx:
		if c.mr&MRDMA != 0 && c.mr&MRTarget == 0 {
			c.stopDMA()
			c.dma = rxWaitReq
		}
	}
	c.drive()
	c.step()
}

func (c *Chip) writeMR(v uint8) {
	old := c.mr
	c.mr = v
	if v&MRMonitorBSY == 0 {
		c.busyErr = false
	}
	if old&MRDMA != 0 && v&MRDMA == 0 {
		c.stopDMA()
		c.endDMA = false
	}
	if (old^v)&MRArbitrate != 0 {
		if v&MRArbitrate != 0 {
			c.la = false
			c.arb = arbWaiting
		} else {
			c.s.Cancel(c.arbEv)
			c.arbEv = nil
			c.arb = arbIdle
			c.aip, c.la = false, false
		}
	}
}

// stopDMA abandons any handshake in progress and drops DRQ and ACK.
func (c *Chip) stopDMA() {
	c.s.Cancel(c.ev)
	c.ev = nil
	c.dma = dmaIdle
	c.dmaACK, c.dmaDB = false, false
	c.setDRQ(false)
}

// drive puts the chip's contribution on the bus: the ICR lines, the
// arbitration BSY, the DMA ACK, and ODR when one of them enables it.
func (c *Chip) drive() {
	l, db := c.output()
	c.port.DriveAll(l, scsi.AllControl, c.odr, db)
	// Our own edges are not reported back to us; remember the levels so
	// the next change from another device yields only its edges.
	c.prev = c.bus.Lines()
}

// output is the chip's contribution: its control lines, and whether it
// drives ODR on the data lines.
func (c *Chip) output() (l scsi.Line, db bool) {
	if c.icr&ICRRST != 0 {
		l |= scsi.RST
	}
	if c.icr&ICRACK != 0 || c.dmaACK {
		l |= scsi.ACK
	}
	if c.icr&ICRBSY != 0 || c.arb == arbActive {
		l |= scsi.BSY
	}
	if c.icr&ICRSEL != 0 {
		l |= scsi.SEL
	}
	if c.icr&ICRATN != 0 {
		l |= scsi.ATN
	}
	// Data before control lines, so a target that latches DB0-7 on our ACK
	// edge sees the byte (data setup). We never drive MSG, C/D or I/O, so
	// the enable below does not depend on the lines we are about to drive.
	bl := c.bus.Lines()
	// Initiator mode: ICR bit 0 drives ODR only while I/O is false and the
	// bus phase matches TCR; arbitration and the DMA send cycle drive it
	// unconditionally.
	db = c.arb == arbActive || c.dmaDB ||
		(c.icr&ICRDataBus != 0 && bl&scsi.IO == 0 && c.phaseMatch(bl))
	return l, db
}

// edgeLines are the lines whose changes the chip reacts to beyond REQ
// (onChange): with none of them changed and no arbitration under way, a
// change is a REQ edge (or of a line the chip only reads), and the chip's
// own contribution, which depends on its registers and the phase lines
// alone, stays what it drives already.
const edgeLines = scsi.RST | scsi.BSY | scsi.SEL | scsi.PhaseMask

// reqEdge reports whether the change to the lines l is one onChange
// answers with the DMA step alone (see edgeLines): no line it reacts to
// but REQ changed, no arbitration is under way, and a rising REQ is no
// phase mismatch.
func (c *Chip) reqEdge(l scsi.Line) bool {
	prev := c.prev
	return (l^prev)&edgeLines == 0 && l&scsi.RST == 0 && c.arb == arbIdle &&
		(l&^prev&scsi.REQ == 0 || c.mr&MRDMA == 0 || l&scsi.BSY == 0 || c.phaseMatch(l))
}

func (c *Chip) onChange(now sched.Time) {
	l := c.bus.Lines()
	prev := c.prev
	// The target's REQ edges, two a byte, take the short way when they
	// cannot be a phase mismatch: no reset, busy loss or selection to
	// look for, nothing to drive.
	if c.reqEdge(l) {
		c.prev = l
		c.stepDMA(l)
		return
	}
	c.prev = l
	rise := l &^ prev
	fall := prev &^ l
	if rise&scsi.RST != 0 {
		c.busReset()
		return
	}
	if l&scsi.RST != 0 {
		return
	}
	if fall&scsi.BSY != 0 && c.mr&MRTarget == 0 {
		c.busyLost()
	}
	if rise&scsi.REQ != 0 && c.mr&MRDMA != 0 && l&scsi.BSY != 0 && !c.phaseMatch(l) {
		c.Stats.PhaseMismatches++
		c.trace("phase mismatch")
		c.setIRQ(true)
	}
	// (Re)selection of an ID enabled in register 4.
	if rise&scsi.SEL != 0 && l&scsi.BSY == 0 && c.icr&ICRSEL == 0 && c.bus.Data()&c.selEn != 0 {
		c.setIRQ(true)
	}
	c.drive()
	c.step()
}

func (c *Chip) busyLost() {
	c.Stats.BusyLosses++
	c.trace("BSY lost")
	if c.mr&MRDMA != 0 {
		c.stopDMA()
		c.mr &^= MRDMA
		c.endDMA = false
	}
	if c.mr&MRMonitorBSY != 0 {
		c.busyErr = true
		c.icr &^= 0x3F
		c.setIRQ(true)
	}
}

// busReset: RST on the bus, from anyone (ICR bit 7 included), clears the
// chip and raises IRQ [F MAME-5380]. ICR bit 7 stays set until software
// clears it, so the chip keeps driving RST.
func (c *Chip) busReset() {
	c.Stats.Resets++
	c.trace("bus reset")
	c.stopDMA()
	c.s.Cancel(c.arbEv)
	c.arbEv = nil
	c.arb = arbIdle
	rst := c.icr & ICRRST
	c.odr, c.icr, c.mr, c.tcr, c.idr = 0, rst, 0, 0, 0
	c.aip, c.la, c.busyErr, c.endDMA = false, false, false, false
	c.drive()
	c.prev = c.bus.Lines()
	c.setIRQ(true)
}

// EOP is the chip's end-of-process input. Not wired on the Ampro [A]; here
// for completeness and tests.
func (c *Chip) EOP() {
	if c.mr&MRDMA == 0 {
		return
	}
	c.endDMA = true
	if c.mr&MREOPIRQ != 0 {
		c.setIRQ(true)
	}
}

// step advances arbitration and the DMA engine on the current bus levels.
func (c *Chip) step() {
	l := c.bus.Lines()
	switch c.arb {
	case arbWaiting:
		if l&(scsi.BSY|scsi.SEL|scsi.RST) == 0 {
			c.arb = arbSettle
			c.s.ScheduleAfter(&c.evArb, c.Timing.ArbBusFree)
			c.arbEv = &c.evArb
		}
	case arbSettle:
		if l&(scsi.BSY|scsi.SEL|scsi.RST) != 0 {
			c.s.Cancel(c.arbEv)
			c.arbEv = nil
			c.arb = arbWaiting
		}
	case arbActive:
		// Another device's SEL while we arbitrate: we lost.
		if l&scsi.SEL != 0 && c.icr&ICRSEL == 0 {
			c.la = true
			c.trace("arbitration lost")
			c.arb = arbIdle
			c.aip = false
			c.drive()
		}
	}
	c.stepDMA(l)
}

// stepDMA advances the DMA engine on the bus lines l (step).
func (c *Chip) stepDMA(l scsi.Line) {
	if e, at := c.dmaStep(l); e != nil {
		c.s.Schedule(e, at)
	}
}

// dmaStep is stepDMA but for the scheduling: it returns the DMA edge to
// schedule and when (nil for none), already the pending one (c.ev).
func (c *Chip) dmaStep(l scsi.Line) (*sched.Event, sched.Time) {
	req := l&scsi.REQ != 0
	match := c.phaseMatch(l) && l&scsi.BSY != 0
	var e *sched.Event
	var d sched.Time
	switch c.dma {
	case rxWaitReq:
		if req && match {
			c.dma = rxLatchPending
			e, d = &c.evLatch, c.Timing.ReqToDRQ
		}
	case rxAck:
		if !req {
			c.dma = rxAckOffPending
			e, d = &c.evRxAckOff, c.Timing.ReqOffToAckOff
		}
	case txWaitReq:
		if req && match {
			c.dma = txAckPending
			e, d = &c.evTxAck, c.Timing.ReqToAck
		}
	case txAck:
		if !req {
			c.dma = txAckOffPending
			e, d = &c.evTxAckOff, c.Timing.ReqOffToAckOff
		}
	}
	if e == nil {
		return nil, 0
	}
	c.ev = e
	return e, c.s.Now() + d
}

// schedule makes e the pending DMA edge, d from now.
func (c *Chip) schedule(e *sched.Event, d sched.Time) {
	c.s.ScheduleAfter(e, d)
	c.ev = e
}

// The DMA and arbitration edges, run by the chip's own events.

func (c *Chip) arbSettled(sched.Time) {
	c.arbEv = nil
	if c.bus.Lines()&(scsi.BSY|scsi.SEL|scsi.RST) != 0 {
		c.arb = arbWaiting
		return
	}
	c.arb = arbActive
	c.aip = true
	c.Stats.Arbitrations++
	c.trace("arbitration started")
	c.drive()
}

func (c *Chip) rxLatch(sched.Time) {
	c.ev = nil
	c.idr = c.bus.Data()
	c.dma = rxLatched
	c.setDRQ(true)
}

func (c *Chip) rxAckOn(now sched.Time) {
	c.ev = nil
	c.dmaACK = true
	c.dma = rxAck
	c.ackOn(now)
}

func (c *Chip) rxAckOff(now sched.Time) {
	c.ev = nil
	c.dmaACK = false
	c.dma = rxWaitReq
	if t := c.aheadTarget(); t != nil {
		c.driveAhead(t, now)
		c.step()
		return
	}
	c.drive()
	c.step()
}

func (c *Chip) txAckOn(now sched.Time) {
	c.ev = nil
	c.dmaDB, c.dmaACK = true, true
	c.dma = txAck
	c.Stats.DMABytesOut++
	c.ackOn(now)
}

func (c *Chip) txAckOff(now sched.Time) {
	c.ev = nil
	c.dmaDB, c.dmaACK = false, false
	if t := c.aheadTarget(); t != nil {
		c.driveAhead(t, now)
		c.dma = txDRQPending
		c.ev = &c.evDRQ
		c.s.RunOnAfter(c.ev, c.Timing.AckOffToDRQ)
		return
	}
	c.drive()
	c.dma = txDRQPending
	c.schedule(&c.evDRQ, c.Timing.AckOffToDRQ)
}

// ackOn ends the DMA ACK steps: ACK (and for a send the byte) on the bus.
// With REQ still asserted step has nothing to do after drive, so run
// ahead (scsi/ahead.go) the target's answer is the step's last act and
// may run its next step at once.
func (c *Chip) ackOn(now sched.Time) {
	if c.bus.Lines()&scsi.REQ != 0 {
		if t := c.aheadTarget(); t != nil {
			l, db := c.output()
			c.port.DriveAhead(l, scsi.AllControl, c.odr, db)
			c.prev = c.bus.Lines()
			t.AckAhead(now)
			return
		}
	}
	c.drive()
	c.step()
}

// aheadTarget returns the target the chip may run its DMA step with in
// closed form (scsi/ahead.go), or nil: not while it arbitrates.
func (c *Chip) aheadTarget() *scsi.Target {
	if c.arb != arbIdle {
		return nil
	}
	return c.bus.AheadTarget(c.port)
}

// driveAhead is drive run ahead with target t: the chip's contribution
// without the bus telling anyone, then t's answer, in drive's order.
func (c *Chip) driveAhead(t *scsi.Target, now sched.Time) {
	l, db := c.output()
	c.port.DriveAhead(l, scsi.AllControl, c.odr, db)
	t.AckAhead(now)
	c.prev = c.bus.Lines()
}

// ReqAhead answers a target's REQ edge run ahead (scsi.Handshaker): as
// onChange, except that a DMA step is returned for the target to run on
// (sched.RunOn) rather than scheduled.
func (c *Chip) ReqAhead(now sched.Time) (*sched.Event, sched.Time) {
	l := c.bus.Lines()
	if c.reqEdge(l) {
		c.prev = l
		return c.dmaStep(l)
	}
	c.onChange(now)
	return nil, 0
}

func (c *Chip) txDRQ(sched.Time) {
	c.ev = nil
	c.dma = txWaitDACK
	c.setDRQ(true)
}

// DMARead is a DACK read (port 0x28): it returns IDR. With a byte latched
// (DRQ on) it clears DRQ and lets the chip acknowledge the byte; without one
// the stale IDR is returned and nothing else happens (hypothesis A).
func (c *Chip) DMARead() uint8 {
	v := c.idr
	if c.dma != rxLatched {
		c.Stats.StaleReads++
		c.trace("stale DACK read")
	} else {
		c.setDRQ(false)
		c.Stats.DMABytesIn++
		c.dma = rxAckPending
		c.schedule(&c.evRxAck, c.Timing.DackToAck)
	}
	if c.obsRegs&(1<<RegDACK) != 0 { // the byte path: no wrapper call
		c.notify(Access{Reg: RegDACK, V: v})
	}
	return v
}

// DMAWrite is a DACK write (port 0x28): it loads ODR. With DRQ on the byte
// is taken for the next REQ; with DRQ off it replaces whatever ODR held,
// and that byte is lost (hypothesis A).
func (c *Chip) DMAWrite(v uint8) {
	c.odr = v
	if c.dma != txWaitDACK {
		c.Stats.Overwrites++
		c.trace("DACK write overwrote ODR")
		c.drive() // ODR may be on the bus right now
	} else {
		c.setDRQ(false)
		c.dma = txWaitReq
		c.drive()
		c.step()
	}
	if c.obsRegs&(1<<RegDACK) != 0 { // the byte path: no wrapper call
		c.notify(Access{Reg: RegDACK, Write: true, V: v})
	}
}
