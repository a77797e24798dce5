package scsi

import (
	"fmt"
	"math/bits"

	"github.com/lbplus/lbplus/sched"
)

// Status bytes and messages (docs/HARDWARE.md 4).
const (
	StatusGood           = 0x00
	StatusCheckCondition = 0x02
	StatusBusy           = 0x08

	MsgCommandComplete = 0x00
	MsgIdentify        = 0x80 // + LUN
)

// Device is what a target engine serves: a disk or tape command set.
type Device interface {
	// Command is called with a complete CDB. The device continues through
	// t (SendByte, ReceiveByte, Send, Receive) from its own events or from
	// the done callbacks, and ends with t.Complete.
	Command(t *Target, cdb []byte)
	// Reset is called when the bus RST line is asserted. The device must
	// cancel its pending events: the engine has already dropped the
	// connection.
	Reset()
}

// CDBLen returns the CDB length implied by the group code of opcode op:
// group 0 6 bytes, 1 and 2 10 bytes, 5 12 bytes [F SCSI-1]; the reserved
// groups 3 and 4 and the vendor groups 6 and 7 are taken as 6 bytes [A].
func CDBLen(op byte) int {
	switch op >> 5 {
	case 1, 2:
		return 10
	case 5:
		return 12
	}
	return 6
}

type tstate uint8

const (
	stIdle      tstate = iota // not connected
	stSelecting               // selection seen, response pending
	stSelected                // BSY asserted, waiting for SEL false
	stConnected               // own the bus
)

type xstate uint8

const (
	xNone    xstate = iota
	xStart          // event pending: phase lines / data
	xReq            // event pending: assert REQ
	xWaitAck        // REQ asserted
	xReqOff         // event pending: release REQ
	xWaitOff        // REQ released, waiting for ACK false
)

// Cont is a device's continuation after a byte, as a value: an operation
// of the device's own and an argument. Unlike a closure it can be saved
// and restored, so a device that continues through Cont values (SendK,
// ReceiveK) survives a save state in the middle of a transfer.
type Cont struct {
	Op  uint16
	Arg int
}

// Continuer is a Device that continues through Cont values: Continue runs
// when the byte's handshake ends (b is the byte received, or the byte sent).
type Continuer interface {
	Continue(t *Target, now sched.Time, k Cont, b byte)
}

// then says what runs when a byte's handshake ends.
type then uint8

const (
	thenClosure then = iota // doneIn / doneOut (cannot be saved)
	thenDevice              // the device's Continue with k
	thenStatus              // STATUS sent: MESSAGE IN COMMAND COMPLETE
	thenMessage             // COMMAND COMPLETE sent: bus free
	thenMsgOut              // a MESSAGE OUT byte received
	thenCommand             // a COMMAND byte received
)

type transfer struct {
	phase   Phase
	in      bool // target -> initiator
	b       byte
	gap     sched.Time
	delay   sched.Time
	then    then
	k       Cont
	doneIn  func(now sched.Time)
	doneOut func(now sched.Time, b byte)
}

// TargetStats counts what the engine did, for tests and reports.
type TargetStats struct {
	Selections uint64 // selections answered
	Commands   uint64 // CDBs handed to the device
	BytesIn    uint64 // bytes sent to the initiator (all phases)
	BytesOut   uint64 // bytes received from the initiator (all phases)
	Resets     uint64 // RST assertions seen
}

// Target is the target-side protocol engine for one SCSI ID.
type Target struct {
	bus    *Bus
	port   *Port
	s      *sched.Scheduler
	id     int
	name   string
	dev    Device
	cont   Continuer // dev, when it continues through Cont values
	timing Timing

	state      tstate
	x          *transfer // the transfer in progress: nil, or &xbuf
	xbuf       transfer
	xs         xstate
	ev         *sched.Event
	lastAckOff sched.Time
	inReset    bool
	acting     bool // inside one of the engine's own steps (see act)

	identified bool
	lun        int
	cdb        []byte
	msgBytes   int

	Stats TargetStats

	// The per-byte steps are events the engine owns and reschedules, so
	// nothing is allocated per byte: one phase step per information phase
	// (each named after its phase), REQ on, REQ off. The connection's
	// other steps are owned too, so that every pending step can be saved.
	evPhase                                     [8]sched.Event
	evReq, evReqOff                             sched.Event
	evRespond, evAfterSel, evCommand, evBusFree sched.Event
}

// NewTarget attaches a target engine with SCSI ID id (0-7) to bus.
func NewTarget(bus *Bus, id int, name string, dev Device, timing Timing) *Target {
	if id < 0 || id > 7 {
		panic(fmt.Sprintf("scsi: target %q: ID %d out of range 0-7", name, id))
	}
	t := &Target{bus: bus, s: bus.Sched(), id: id, name: name, dev: dev, timing: timing}
	t.cont, _ = dev.(Continuer)
	t.port = bus.Attach(name, t.onChange)
	t.port.eng = t
	t.listenIdle(bus.Lines())
	for p := range t.evPhase {
		t.evPhase[p].Init(name+" "+Phase(p).String(), t.stepPhase)
	}
	t.evReq.Init(name+" REQ", t.reqOn)
	t.evReqOff.Init(name+" REQ off", t.reqOff)
	// The byte steps touch the bus alone (and, at the end of a byte, the
	// device's continuation, which does the same or schedules its own
	// events): quiet, they may run at the CPU's next I/O access.
	for p := range t.evPhase {
		t.evPhase[p].SetQuiet(true)
	}
	t.evReq.SetQuiet(true)
	t.evReqOff.SetQuiet(true)
	t.evRespond.Init(name+" select response", t.respond)
	t.evAfterSel.Init(name+" after selection", t.afterSelection)
	t.evCommand.Init(name+" command", t.command)
	t.evBusFree.Init(name+" bus free", t.busFree)
	for _, e := range t.events() {
		t.s.Own(e)
	}
	return t
}

// ID returns the target's SCSI ID.
func (t *Target) ID() int { return t.id }

// Name returns the name given at NewTarget.
func (t *Target) Name() string { return t.name }

// Sched returns the scheduler of the bus.
func (t *Target) Sched() *sched.Scheduler { return t.s }

// Port returns the target's connector (its own line contribution).
func (t *Target) Port() *Port { return t.port }

// Timing returns the engine's delays.
func (t *Target) Timing() Timing { return t.timing }

// Connected reports whether the target holds the bus (from its BSY response
// to bus free).
func (t *Target) Connected() bool { return t.state == stSelected || t.state == stConnected }

// Busy reports whether a byte transfer is in progress (requested and not
// yet finished with ACK released).
func (t *Target) Busy() bool { return t.x != nil }

// LUN returns the logical unit addressed: from the IDENTIFY message if the
// initiator sent one, else from CDB byte 1 bits 7-5.
func (t *Target) LUN(cdb []byte) int {
	if t.identified {
		return t.lun
	}
	if len(cdb) > 1 {
		return int(cdb[1] >> 5)
	}
	return 0
}

// Identified reports whether an IDENTIFY message was received for the
// current connection.
func (t *Target) Identified() bool { return t.identified }

// SendByte sends one DATA IN byte; done runs once the initiator has
// released ACK.
func (t *Target) SendByte(b byte, done func(now sched.Time)) { t.Send(DataIn, b, done) }

// ReceiveByte takes one DATA OUT byte; done runs with the byte once the
// initiator has released ACK.
func (t *Target) ReceiveByte(done func(now sched.Time, b byte)) { t.Receive(DataOut, done) }

// Send sends one byte in phase p (DataIn, Status, MsgIn), switching the
// phase lines first if needed. REQ is asserted ReqAfterAck after the
// previous byte's ACK release at the earliest.
func (t *Target) Send(p Phase, b byte, done func(now sched.Time)) {
	t.start(transfer{phase: p, in: true, b: b, gap: t.timing.ReqAfterAck, doneIn: done})
}

// Receive takes one byte in phase p (DataOut, Command, MsgOut).
func (t *Target) Receive(p Phase, done func(now sched.Time, b byte)) {
	t.start(transfer{phase: p, in: false, gap: t.timing.ReqAfterAck, doneOut: done})
}

// SendK is Send with a saveable continuation: the device's Continue runs
// with k once the initiator has released ACK.
func (t *Target) SendK(p Phase, b byte, k Cont) {
	t.mustContinue()
	t.start(transfer{phase: p, in: true, b: b, gap: t.timing.ReqAfterAck, then: thenDevice, k: k})
}

// ReceiveK is Receive with a saveable continuation: the device's Continue
// runs with k and the byte once the initiator has released ACK.
func (t *Target) ReceiveK(p Phase, k Cont) {
	t.mustContinue()
	t.start(transfer{phase: p, in: false, gap: t.timing.ReqAfterAck, then: thenDevice, k: k})
}

func (t *Target) mustContinue() {
	if t.cont == nil {
		panic(fmt.Sprintf("scsi: target %q: SendK/ReceiveK from a device without Continue", t.name))
	}
}

// receiveSlow takes a byte handled by the target's firmware (COMMAND,
// MESSAGE OUT), paced by CommandReqAfterAck.
func (t *Target) receiveSlow(p Phase, th then) {
	t.start(transfer{phase: p, in: false, gap: t.timing.CommandReqAfterAck, then: th})
}

// Complete ends the command: STATUS (status), MESSAGE IN COMMAND COMPLETE,
// then bus free, each after its Timing delay.
func (t *Target) Complete(status byte) {
	if t.state != stConnected {
		return // the connection was reset under the device
	}
	t.start(transfer{phase: Status, in: true, b: status, delay: t.timing.StatusDelay, gap: t.timing.ReqAfterAck, then: thenStatus})
}

func (t *Target) busFree(sched.Time) {
	t.ev = nil
	t.disconnect()
}

func (t *Target) start(x transfer) {
	if t.state != stConnected {
		return // stale call after a bus reset: the device's event outlived it
	}
	if t.x != nil || t.ev != nil {
		panic(fmt.Sprintf("scsi: target %q: %v byte requested while another step is pending", t.name, x.phase))
	}
	if x.phase > MsgIn || x.phase == Reserved4 || x.phase == Reserved5 {
		panic(fmt.Sprintf("scsi: target %q: transfer in phase %v", t.name, x.phase))
	}
	t.xbuf = x
	t.x = &t.xbuf
	t.xs = xStart
	now := t.s.Now()
	at := now + x.delay
	if g := t.lastAckOff + x.gap; g > at {
		at = g
	}
	t.ev = &t.evPhase[x.phase]
	t.s.Schedule(t.ev, at)
}

// stepPhase drives the phase lines and, for a byte to the initiator, the
// data; REQ follows after the settle or setup delay.
//
// The byte steps run several times per byte: they bracket their work with
// begin and end rather than passing act a closure.
func (t *Target) stepPhase(now sched.Time) {
	t.ev = nil
	if t.stepPhaseAhead(now) {
		return
	}
	outer := t.begin()
	x := t.x
	reqAt := now
	want := x.phase.Lines()
	if t.port.Lines()&PhaseMask != want {
		t.port.Drive(want, PhaseMask)
		reqAt = now + t.timing.PhaseSettle
	}
	if x.in {
		t.port.DriveData(x.b, true)
		if s := now + t.timing.DataSetup; s > reqAt {
			reqAt = s
		}
	} else {
		t.port.DriveData(0, false)
	}
	t.xs = xReq
	t.ev = &t.evReq
	t.s.Schedule(t.ev, reqAt)
	t.end(now, outer)
}

func (t *Target) reqOn(now sched.Time) {
	t.ev = nil
	if t.reqOnAhead(now) {
		return
	}
	outer := t.begin()
	t.xs = xWaitAck
	t.port.Drive(REQ, REQ)
	t.end(now, outer)
}

func (t *Target) reqOff(now sched.Time) {
	t.ev = nil
	if t.reqOffAhead(now) {
		return
	}
	outer := t.begin()
	t.xs = xWaitOff
	t.port.Drive(0, REQ)
	if t.x.in {
		t.port.DriveData(0, false)
	}
	t.end(now, outer)
}

// act runs one of the engine's own steps that drives lines, then looks at
// the bus once. Every Drive reaches the other ports synchronously, and an
// initiator may answer inside its callback (drop ACK the instant REQ falls,
// select again the instant BSY falls); taking that answer in the middle of
// the step would run the next step (finish, the device's continuation, a
// second selection response) before this one has ended. The engine is
// level-sensitive, so looking at the lines after the step sees the answer.
func (t *Target) act(now sched.Time, step func()) {
	outer := t.begin()
	step()
	t.end(now, outer)
}

// begin starts a step as act does and reports whether it is the outer
// one (a step inside a step leaves the look at the bus to the outer).
func (t *Target) begin() (outer bool) {
	outer = !t.acting
	t.acting = true
	return outer
}

// end ends a step begun by begin: the outer step looks at the bus.
func (t *Target) end(now sched.Time, outer bool) {
	if outer {
		t.acting = false
		t.onChange(now)
	}
}

func (t *Target) onChange(now sched.Time) {
	if t.acting {
		return // act looks at the bus when the step is done
	}
	lines := t.bus.Lines()
	if lines&RST != 0 {
		if !t.inReset {
			t.inReset = true
			t.reset()
		}
		return
	}
	t.inReset = false
	t.poll(now)
}

// poll advances the engine on the current line levels.
func (t *Target) poll(now sched.Time) {
	lines := t.bus.Lines()
	switch t.state {
	case stIdle:
		t.listenIdle(lines)
		if t.selectedBy(lines) {
			t.setState(stSelecting)
			t.ev = &t.evRespond
			t.s.ScheduleAfter(t.ev, t.timing.SelectResponse)
		}
	case stSelected:
		if lines&SEL == 0 {
			t.setState(stConnected)
			t.ev = &t.evAfterSel
			t.s.ScheduleAfter(t.ev, t.timing.SelectToPhase)
		}
	case stConnected:
		switch t.xs {
		case xWaitAck:
			if lines&ACK != 0 {
				if !t.x.in {
					t.x.b = t.bus.Data()
				}
				t.xs = xReqOff
				t.ev = &t.evReqOff
				t.s.ScheduleAfter(t.ev, t.timing.ReqOffAfterAck)
			}
		case xWaitOff:
			if lines&ACK == 0 {
				t.finish(now)
			}
		}
	}
}

// listenIn is what the engine reacts to in each connection state (poll,
// and RST in onChange): idle, a selection (SEL, BSY, and the IDs on the
// data lines while SEL is asserted, listenIdle); selected, SEL released;
// connected, ACK. Every step that changes the state or the byte step
// looks at the bus itself (act), so a change of another line finds
// nothing to do and is not reported (Port.Listen).
var listenIn = [...]Line{
	stIdle:      RST | SEL | BSY,
	stSelecting: RST,
	stSelected:  RST | SEL,
	stConnected: RST | ACK,
}

func (t *Target) setState(s tstate) {
	t.state = s
	t.port.Listen(listenIn[s])
	if s == stIdle {
		t.listenIdle(t.bus.Lines())
	}
}

// listenIdle: an idle target is selected only while SEL is asserted, so
// it hears the data lines only then (it hears SEL's edges). Otherwise
// every byte of another target's transfer, two data changes a byte,
// would reach it for nothing.
func (t *Target) listenIdle(lines Line) {
	m := listenIn[stIdle]
	if lines&SEL != 0 {
		m |= DataLines
	}
	t.port.Listen(m)
}

func (t *Target) selectedBy(lines Line) bool {
	if lines&(SEL|BSY) != SEL {
		return false
	}
	d := t.bus.Data()
	return d&(1<<t.id) != 0 && bits.OnesCount8(d) <= 2
}

func (t *Target) respond(now sched.Time) {
	t.ev = nil
	if !t.selectedBy(t.bus.Lines()) {
		t.setState(stIdle) // the initiator gave up
		return
	}
	t.Stats.Selections++
	t.setState(stSelected)
	t.identified, t.lun, t.cdb, t.msgBytes = false, 0, nil, 0
	t.lastAckOff = noAck
	t.act(now, func() { t.port.Drive(BSY, BSY) })
}

func (t *Target) afterSelection(now sched.Time) {
	t.ev = nil
	if t.bus.Lines()&ATN != 0 {
		t.receiveSlow(MsgOut, thenMsgOut)
		return
	}
	t.receiveSlow(Command, thenCommand)
}

// noAck marks "no byte yet in this connection" so the first REQ is not held
// back by a previous connection's handshake.
const noAck = -sched.MaxTime

// maxMessageBytes bounds MESSAGE OUT so an initiator stuck on ATN cannot
// keep the target there forever [A].
const maxMessageBytes = 16

func (t *Target) messageOut(now sched.Time, b byte) {
	t.msgBytes++
	if b&MsgIdentify != 0 && !t.identified {
		t.identified, t.lun = true, int(b&7)
	}
	if t.bus.Lines()&ATN != 0 && t.msgBytes < maxMessageBytes {
		t.receiveSlow(MsgOut, thenMsgOut)
		return
	}
	t.receiveSlow(Command, thenCommand)
}

func (t *Target) commandByte(b byte) {
	t.cdb = append(t.cdb, b)
	if len(t.cdb) < CDBLen(t.cdb[0]) {
		t.receiveSlow(Command, thenCommand)
		return
	}
	t.Stats.Commands++
	t.ev = &t.evCommand
	t.s.ScheduleAfter(t.ev, t.timing.CommandDecode)
}

func (t *Target) command(sched.Time) {
	t.ev = nil
	t.dev.Command(t, t.cdb)
}

func (t *Target) finish(now sched.Time) {
	x := t.x
	if x.then == thenDevice {
		// The byte steps' common end, without a copy of the transfer
		// (what follows may start the next one in xbuf).
		in, k, b := x.in, x.k, x.b
		t.x, t.xs = nil, xNone
		t.lastAckOff = now
		if in {
			t.Stats.BytesIn++
		} else {
			t.Stats.BytesOut++
		}
		t.cont.Continue(t, now, k, b)
		return
	}
	t.finishOther(now)
}

// finishOther is finish for every continuation but the device's.
func (t *Target) finishOther(now sched.Time) {
	x := *t.x // a copy: done may start the next transfer in xbuf
	t.x, t.xs = nil, xNone
	t.lastAckOff = now
	if x.in {
		t.Stats.BytesIn++
	} else {
		t.Stats.BytesOut++
	}
	switch x.then {
	case thenClosure:
		if x.in && x.doneIn != nil {
			x.doneIn(now)
		} else if !x.in && x.doneOut != nil {
			x.doneOut(now, x.b)
		}
	case thenDevice:
		t.cont.Continue(t, now, x.k, x.b)
	case thenStatus:
		t.start(transfer{phase: MsgIn, in: true, b: MsgCommandComplete, delay: t.timing.MessageDelay, gap: t.timing.ReqAfterAck, then: thenMessage})
	case thenMessage:
		t.ev = &t.evBusFree
		t.s.ScheduleAfter(t.ev, t.timing.BusFreeDelay)
	case thenMsgOut:
		t.messageOut(now, x.b)
	case thenCommand:
		t.commandByte(x.b)
	}
}

// disconnect goes to bus free; act then looks at the bus, where a new
// selection may already be waiting.
func (t *Target) disconnect() {
	t.act(t.s.Now(), func() {
		t.setState(stIdle)
		t.x, t.xs = nil, xNone
		t.port.Release()
	})
}

func (t *Target) reset() {
	t.Stats.Resets++
	t.s.Cancel(t.ev)
	t.ev = nil
	t.x, t.xs = nil, xNone
	t.setState(stIdle)
	t.identified, t.cdb = false, nil
	t.port.Release()
	t.dev.Reset()
}
