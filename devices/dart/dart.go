// Package dart models the Zilog Z80 DART (dual asynchronous receiver/
// transmitter) as used on the Ampro Little Board/PLUS: channel A is the
// console, channel B the second serial port; both are clocked by CTC zero
// count outputs (ZC/TO0 -> TxCA/RxCA, ZC/TO1 -> RxTxCB) [F MAME-ampro,
// docs/HARDWARE.md 1.1].
//
// Registers [F Zilog Z80 SIO/DART UM0081]: write registers WR0 (pointer and
// commands), WR1 (interrupt enables, status affects vector), WR2 (vector,
// channel B), WR3 (receiver: enable, auto enables, bits per character), WR4
// (clock mode x1/x16/x32/x64, stop bits, parity), WR5 (transmitter: enable,
// bits, DTR, RTS, break); read registers RR0 (receive character available,
// interrupt pending, transmit buffer empty, DCD, RI, CTS, break), RR1 (all
// sent, parity/overrun/framing errors) and RR2 (vector, channel B).
//
// Characters take real time: a transmitted character occupies the line for
// start + data + parity + stop bits, each bit lasting clock-mode pulses of the
// channel's Clock (a CTC channel), so a character at x16 with TC 13 takes
// 10 x 16 x 13 x 500 ns = 1.04 ms (9615 baud). The far end of channel A is a
// terminal: bytes given to Feed are sent to the receiver back to back, never
// faster than the programmed rate. Each receiver has the DART's three-byte
// FIFO; a fourth character overruns it.
//
// Interrupts follow the Z80 daisy chain (after the CTC on the board); within
// the chip the priority is A receive, A transmit, A external/status, then the
// same for B. With "status affects vector" (WR1 bit 2 of channel B) bits 3-1
// of the vector name the source.
//
// Known inaccuracies / assumptions:
//   - [A] The terminal uses the same format and rate as the receiver is
//     programmed for; a character starts as soon as the previous one ends.
//   - [A] Characters fed while the receiver is disabled (WR3 bit 0) or its
//     clock is stopped wait at the far end instead of being lost, as if the
//     terminal were flow-controlled; a real terminal would lose them.
//   - [A] A Paced far end (the board's console terminal) also holds its
//     next character while the receive FIFO is full, and sends it when the
//     program reads one, so typed or pasted text is never overrun; a real
//     terminal without flow control would overrun the FIFO.
//   - [A] A character in flight keeps the timing computed when it started if
//     the CTC is reprogrammed meanwhile; only a stopped clock is re-timed.
//   - [A] The receiver delivers a character at the end of its stop bit(s)
//     (the real DART samples mid stop bit, half a bit earlier).
//   - [A] A transmitted byte moves from the buffer to the shift register at
//     once when the transmitter is idle (no wait for the next clock edge).
//   - RR0 shows the live DCD/CTS/RI levels, not latched ones; no synchronous
//     or SDLC features (the DART has none); no break detection; W/RDY unused.
package dart

import "github.com/lbplus/lbplus/sched"

// Clock is a baud-rate clock input (a CTC ZC/TO output).
type Clock interface {
	// PulseAfter returns the time of the n-th clock pulse strictly after t,
	// or sched.MaxTime if the clock is stopped.
	PulseAfter(t sched.Time, n int) sched.Time
}

// Interrupt sources in daisy-chain priority order within the chip.
const (
	srcRxA = iota
	srcTxA
	srcExtA
	srcRxB
	srcTxB
	srcExtB
	numSources
)

// Status-affects-vector codes (vector bits 3-1) per source [F UM0081].
var vectorCode = [numSources]uint8{srcRxA: 6, srcTxA: 4, srcExtA: 5, srcRxB: 2, srcTxB: 0, srcExtB: 1}

const (
	codeSpecialA = 7
	codeSpecialB = 3
	codeNone     = 3
	rxFIFODepth  = 3 // [F UM0081] three-byte receive buffer
)

// DART is the whole chip.
type DART struct {
	s  *sched.Scheduler
	ch [2]Channel
	ip [numSources]bool
	is [numSources]bool // in service

	// OnINT is called when the chip's interrupt state may have changed.
	OnINT func()
	// intObs are told after OnINT (debuggers, traces): ObserveINT.
	intObs sched.Observers[func()]
}

// Channel is one of the two serial channels (A = 0, B = 1).
type Channel struct {
	d   *DART
	num int

	wr  [6]uint8
	ptr int

	clock Clock

	// Transmitter: one buffer byte and the shift register.
	txBuf      uint8
	txFull     bool
	txShifting bool
	txShift    uint8
	txEvent    *sched.Event // &txEv while pending
	txEv       sched.Event
	txIntArmed bool // a Tx-empty interrupt may fire (after a data write)

	// Paced makes the far end hold its next character while the
	// receiver's FIFO is full, and send it when the program reads one: a
	// terminal that keeps pace with the program (as with hardware flow
	// control), so typed or pasted characters are never overrun [A]. Set by
	// the board for the console; off, the far end sends regardless.
	Paced bool

	// Receiver: the far end's queue, the character on the line, the FIFO.
	lineIn      []byte
	rxEvent     *sched.Event // &rxEv while pending
	rxEv        sched.Event
	fifo        []uint8
	lastRx      uint8
	overrun     bool
	firstArmed  bool // "interrupt on first character" armed
	specialCond bool

	dcd, cts, ri bool

	// OnTx receives each transmitted character when its stop bit ends.
	OnTx func(now sched.Time, b uint8)
	// OnDTR hears the /DTR output change (WR5 bit 7; true = active). The
	// board uses channel A's to pick that channel's clock
	// (docs/HARDWARE.md 1.6).
	OnDTR func(now sched.Time, active bool)
}

// New returns a DART in its reset state keeping time with s.
func New(s *sched.Scheduler) *DART {
	d := &DART{s: s}
	for i := range d.ch {
		d.ch[i] = Channel{d: d, num: i}
		c := &d.ch[i]
		c.txEv.Init(txNames[i], c.txDone)
		c.rxEv.Init(rxNames[i], c.rxDone)
		s.Own(&c.txEv, &c.rxEv)
	}
	d.Reset()
	return d
}

// Reset is the /RESET pin.
func (d *DART) Reset() {
	for i := range d.ch {
		d.ch[i].reset()
	}
	d.is = [numSources]bool{}
	d.notify()
}

// Channel returns channel n (0 = A, 1 = B).
func (d *DART) Channel(n int) *Channel { return &d.ch[n] }

// SetClock connects the channel's receive and transmit clock.
func (c *Channel) SetClock(clk Clock) { c.clock = clk }

func (c *Channel) reset() {
	dtr := c.DTR()
	c.wr = [6]uint8{}
	c.ptr = 0
	c.dtrChanged(dtr)
	if c.txEvent != nil {
		c.d.s.Cancel(c.txEvent)
		c.txEvent = nil
	}
	c.txFull, c.txShifting, c.txIntArmed = false, false, false
	c.fifo = c.fifo[:0]
	c.overrun, c.firstArmed, c.specialCond = false, false, false
	base := c.num * 3
	for i := base; i < base+3; i++ {
		c.d.ip[i] = false
	}
}

// ReadData is a CPU read of the channel's data port.
func (c *Channel) ReadData() uint8 {
	if len(c.fifo) > 0 {
		c.lastRx = c.fifo[0]
		c.fifo = c.fifo[1:]
		if c.Paced && len(c.fifo) == rxFIFODepth-1 {
			c.startRx(c.d.s.Now()) // room again: the far end sends on
		}
	}
	mode := c.rxIntMode()
	c.setIP(c.src(srcRxA), len(c.fifo) > 0 && (mode == 2 || mode == 3))
	return c.lastRx
}

// WriteData is a CPU write of the channel's data port.
func (c *Channel) WriteData(v uint8) {
	c.txBuf = v
	c.txFull = true
	c.txIntArmed = true
	c.setIP(c.src(srcTxA), false)
	c.startTx(c.d.s.Now())
}

// ReadControl reads the register selected by the pointer (RR0, RR1, RR2).
func (c *Channel) ReadControl() uint8 {
	p := c.ptr
	c.ptr = 0
	switch p {
	case 0:
		v := uint8(0)
		if len(c.fifo) > 0 {
			v |= 0x01
		}
		if c.num == 0 && c.d.anyIP() {
			v |= 0x02
		}
		if !c.txFull {
			v |= 0x04
		}
		if c.dcd {
			v |= 0x08
		}
		if c.ri {
			v |= 0x10
		}
		if c.cts {
			v |= 0x20
		}
		return v
	case 1:
		v := uint8(0)
		if !c.txFull && !c.txShifting {
			v |= 0x01
		}
		if c.overrun {
			v |= 0x20
		}
		return v
	case 2:
		if c.num == 1 {
			return c.d.vector()
		}
	}
	return 0xFF // [A] unimplemented read registers float high
}

// WriteControl writes WR0, or the register WR0's pointer selected.
func (c *Channel) WriteControl(v uint8) {
	p := c.ptr
	c.ptr = 0
	if p != 0 {
		dtr := c.DTR()
		if p < len(c.wr) {
			c.wr[p] = v
		}
		c.written(p)
		c.dtrChanged(dtr)
		return
	}
	c.ptr = int(v & 7)
	switch (v >> 3) & 7 {
	case 2: // reset external/status interrupts
		c.setIP(c.src(srcExtA), false)
	case 3: // channel reset
		c.reset()
		c.d.notify()
	case 4: // enable interrupt on next received character
		c.firstArmed = true
	case 5: // reset transmitter interrupt pending
		c.txIntArmed = false
		c.setIP(c.src(srcTxA), false)
	case 6: // error reset
		c.overrun = false
		c.specialCond = false
		c.d.notify()
	case 7: // return from interrupt (channel A only)
		if c.num == 0 {
			c.d.RETI()
		}
	}
}

func (c *Channel) written(reg int) {
	now := c.d.s.Now()
	switch reg {
	case 1:
		if c.wr[1]&0x02 == 0 {
			c.setIP(c.src(srcTxA), false)
		}
		c.d.notify()
	case 3:
		c.startRx(now)
	case 5:
		c.startTx(now)
	}
}

// DTR reports the /DTR output: WR5 bit 7, active when set.
func (c *Channel) DTR() bool { return c.wr[5]&0x80 != 0 }

// dtrChanged tells OnDTR when /DTR is no longer what it was (was).
func (c *Channel) dtrChanged(was bool) {
	if now := c.DTR(); now != was && c.OnDTR != nil {
		c.OnDTR(c.d.s.Now(), now)
	}
}

// src maps a channel A source constant to this channel's source.
func (c *Channel) src(a int) int { return a + 3*c.num }

func (c *Channel) setIP(src int, v bool) {
	if c.d.ip[src] != v {
		c.d.ip[src] = v
		c.d.notify()
	}
}

func (c *Channel) rxIntMode() uint8 { return (c.wr[1] >> 3) & 3 }

func clockMode(wr4 uint8) int {
	return [4]int{1, 16, 32, 64}[wr4>>6]
}

// framePulses is the length of one character in clock pulses.
func framePulses(wr4 uint8, bits int) int {
	m := clockMode(wr4)
	n := 1 + bits
	if wr4&1 != 0 {
		n++
	}
	stop := m // 1 stop bit (and the sync-mode setting, unused on the DART)
	switch (wr4 >> 2) & 3 {
	case 2:
		stop = (3*m + 1) / 2
	case 3:
		stop = 2 * m
	}
	return n*m + stop
}

var bitsPerChar = [4]int{5, 7, 6, 8}

func (c *Channel) txBits() int { return bitsPerChar[(c.wr[5]>>5)&3] }
func (c *Channel) rxBits() int { return bitsPerChar[c.wr[3]>>6] }

func (c *Channel) txEnabled() bool {
	if c.wr[5]&0x08 == 0 {
		return false
	}
	return c.wr[3]&0x20 == 0 || c.cts // auto enables: CTS gates the transmitter
}

func (c *Channel) startTx(now sched.Time) {
	if c.txShifting {
		if c.txEvent == nil {
			c.scheduleTx(now)
		}
		return
	}
	if !c.txFull || !c.txEnabled() {
		return
	}
	c.txShift = c.txBuf
	c.txFull = false
	c.txShifting = true
	if c.txIntArmed && c.wr[1]&0x02 != 0 {
		c.setIP(c.src(srcTxA), true)
	}
	c.scheduleTx(now)
}

var txNames = [2]string{"dart A tx", "dart B tx"}
var rxNames = [2]string{"dart A rx", "dart B rx"}

func (c *Channel) scheduleTx(now sched.Time) {
	if c.clock == nil {
		return
	}
	end := c.clock.PulseAfter(now, framePulses(c.wr[4], c.txBits()))
	if end == sched.MaxTime {
		return // clock stopped: resumes in ClockChanged
	}
	c.txEvent = &c.txEv
	c.d.s.Schedule(c.txEvent, end)
}

func (c *Channel) txDone(now sched.Time) {
	c.txEvent = nil
	c.txShifting = false
	b := c.txShift & uint8(1<<c.txBits()-1)
	if c.OnTx != nil {
		c.OnTx(now, b)
	}
	c.startTx(now)
}

// Feed queues bytes sent by the far end (the terminal) to this channel's
// receiver. They arrive one character time apart at the programmed rate.
func (c *Channel) Feed(b []byte) {
	c.lineIn = append(c.lineIn, b...)
	c.startRx(c.d.s.Now())
}

// Queued returns how many fed bytes have not yet reached the receiver.
func (c *Channel) Queued() int { return len(c.lineIn) }

func (c *Channel) startRx(now sched.Time) {
	if c.rxEvent != nil || len(c.lineIn) == 0 || c.clock == nil || c.wr[3]&0x01 == 0 {
		return // [A] the far end holds its characters while the receiver is off
	}
	if c.Paced && len(c.fifo) == rxFIFODepth {
		return // held until the program reads (ReadData)
	}
	end := c.clock.PulseAfter(now, framePulses(c.wr[4], c.rxBits()))
	if end == sched.MaxTime {
		return
	}
	c.rxEvent = &c.rxEv
	c.d.s.Schedule(c.rxEvent, end)
}

func (c *Channel) rxDone(now sched.Time) {
	c.rxEvent = nil
	b := c.lineIn[0]
	c.lineIn = c.lineIn[1:]
	if c.wr[3]&0x01 != 0 && (c.wr[3]&0x20 == 0 || c.dcd) {
		c.receive(b & uint8(1<<c.rxBits()-1))
	} // else: the receiver is off and the character is lost on the line
	c.startRx(now)
}

func (c *Channel) receive(b uint8) {
	if len(c.fifo) == rxFIFODepth {
		// Overrun: the newest character replaces the last one in the FIFO.
		c.fifo[rxFIFODepth-1] = b
		c.overrun = true
		if c.rxIntMode() != 0 {
			c.specialCond = true
			c.setIP(c.src(srcRxA), true)
		}
		return
	}
	c.fifo = append(c.fifo, b)
	switch c.rxIntMode() {
	case 1:
		if c.firstArmed {
			c.firstArmed = false
			c.setIP(c.src(srcRxA), true)
		}
	case 2, 3:
		c.setIP(c.src(srcRxA), true)
	}
}

// ClockChanged tells the channel its clock was started or reprogrammed, so a
// character waiting for a stopped clock can go.
func (c *Channel) ClockChanged() {
	now := c.d.s.Now()
	if c.txShifting && c.txEvent == nil {
		c.scheduleTx(now)
	}
	c.startRx(now)
}

// SetDCD, SetCTS and SetRI drive the modem inputs (true = active). A change
// raises an external/status interrupt when WR1 bit 0 enables it.
func (c *Channel) SetDCD(v bool) { c.modem(&c.dcd, v) }

// SetCTS drives the clear-to-send input.
func (c *Channel) SetCTS(v bool) {
	c.modem(&c.cts, v)
	c.startTx(c.d.s.Now())
}

// SetRI drives the ring indicator input.
func (c *Channel) SetRI(v bool) { c.modem(&c.ri, v) }

func (c *Channel) modem(line *bool, v bool) {
	if *line == v {
		return
	}
	*line = v
	if c.wr[1]&0x01 != 0 {
		c.setIP(c.src(srcExtA), true)
	}
}

func (d *DART) notify() {
	if d.OnINT != nil {
		d.OnINT()
	}
	for _, fn := range d.intObs.List() {
		fn()
	}
}

// ObserveINT adds fn to the observers told, after OnINT (the board's
// daisy chain), whenever the interrupt state may have changed (IntState
// reads it), and returns a function that removes it. OnINT is the
// board's wire; observers come and go without touching it.
func (d *DART) ObserveINT(fn func()) (remove func()) { return d.intObs.Add(fn, nil) }

func (d *DART) anyIP() bool {
	for _, p := range d.ip {
		if p {
			return true
		}
	}
	return false
}

// enabled reports whether a pending source is allowed to request (its
// enable bit in WR1 is set).
func (d *DART) enabled(src int) bool {
	c := &d.ch[src/3]
	switch src % 3 {
	case srcRxA:
		return c.rxIntMode() != 0
	case srcTxA:
		return c.wr[1]&0x02 != 0
	default:
		return c.wr[1]&0x01 != 0
	}
}

// IntState reports the daisy-chain state (see ctc.CTC.IntState).
func (d *DART) IntState() (req, inService bool) {
	for i := 0; i < numSources; i++ {
		if d.is[i] {
			return req, true
		}
		if d.ip[i] && d.enabled(i) {
			req = true
		}
	}
	return req, false
}

func (d *DART) highest() int {
	for i := 0; i < numSources; i++ {
		if d.is[i] {
			return -1
		}
		if d.ip[i] && d.enabled(i) {
			return i
		}
	}
	return -1
}

// vector returns the interrupt vector: WR2 of channel B, with bits 3-1 naming
// the highest pending source when "status affects vector" is set.
func (d *DART) vector() uint8 {
	base := d.ch[1].wr[2]
	if d.ch[1].wr[1]&0x04 == 0 {
		return base
	}
	code := uint8(codeNone)
	if src := d.highest(); src >= 0 {
		code = vectorCode[src]
		if src%3 == srcRxA && d.ch[src/3].specialCond {
			code = [2]uint8{codeSpecialA, codeSpecialB}[src/3]
		}
	}
	return base&0xF1 | code<<1
}

// Acknowledge is the interrupt acknowledge cycle: the highest pending source
// goes under service (its pending condition stays until the program clears
// it) and the vector is returned.
func (d *DART) Acknowledge() uint8 {
	src := d.highest()
	if src < 0 {
		return 0xFF
	}
	v := d.vector()
	d.is[src] = true
	d.notify()
	return v
}

// RETI ends service of the highest-priority source under service.
func (d *DART) RETI() {
	for i := 0; i < numSources; i++ {
		if d.is[i] {
			d.is[i] = false
			d.notify()
			return
		}
	}
}
