package mcd403

import (
	"errors"
	"fmt"
	"math"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// SCSI opcodes the drive answers (group 0, 6-byte CDBs) [A: the MCD-403's
// command set is undocumented; a block-addressed set of standard group-0
// codes, docs/HARDWARE.md 7].
const (
	OpTestUnitReady = 0x00
	OpRewind        = 0x01
	OpRequestSense  = 0x03
	OpRead          = 0x08
	OpWrite         = 0x0A
	OpInquiry       = 0x12
	OpModeSelect    = 0x15
	OpModeSense     = 0x1A
	OpLoad          = 0x1B // LOAD/UNLOAD: byte 4 bit 0 = load
)

// Mode parameter list: 4-byte header, 8-byte block descriptor, then one
// vendor byte holding the interleave [A].
const modeLength = 13

type op uint8

const (
	opNone op = iota
	opRead
	opWrite
)

// Stats counts what the drive did: the counters every target model keeps
// (BlocksRead and BlocksWritten are tape blocks; Seeks are positioning
// moves from standstill: first access, random access, rewind) and the
// tape's own.
type Stats struct {
	scsidev.Stats
	// Repositions: blocks read or written after the drive had stopped and
	// backed up for them because the data (or the command) came too late
	// while streaming: the audible stop-and-restart of the story.
	Repositions int
	// Misses: deadlines passed without the block ready (each is a stop and
	// back-up; the last one of a run may never be followed by the block).
	Misses int
	// FIFOFull: times the DATA OUT FIFO filled while the block still had
	// bytes to come (REQ held off until the firmware freed a chunk).
	FIFOFull   int
	Retensions int
}

// command is the READ or WRITE in progress.
type command struct {
	op    op
	block int // block being moved now
	last  int // last block of the command
	buf   []byte

	// DATA OUT: bytes taken from the bus, bytes copied into the buffer,
	// bytes waiting in the FIFO.
	received, stored, fifo int
	draining, reqPending   bool
	complete               bool       // the block is whole in the buffer
	completeAt             sched.Time // when it became whole
	sending                bool       // DATA IN of a read block running
	drainN                 int        // bytes of the chunk being copied

	// The second buffer of a multi-block WRITE (Params.Buffers): ahead
	// says DATA OUT is filling spare with block+1 while buf waits for
	// block's slot; aheadComplete and aheadAt are block+1's complete and
	// completeAt until it becomes the tape's block.
	spare         []byte
	ahead         bool
	aheadComplete bool
	aheadAt       sched.Time
}

// rx is the buffer DATA OUT is filling, and rxBlock its block.
func (c *command) rx() []byte {
	if c.ahead {
		return c.spare
	}
	return c.buf
}

func (c *command) rxBlock() int {
	if c.ahead {
		return c.block + 1
	}
	return c.block
}

// Continuations of the drive's own bytes on the bus (scsi.Cont.Op), after
// the byte runs' (scsidev.OpSend, OpReceive).
const (
	kBlockByte = scsidev.OpModel + iota // a DATA OUT byte of a WRITE block
	kBlockSent                          // a DATA IN byte of a READ block: Arg = its index
)

// What follows the parameter bytes of receiveBytes.
const thenModeSelect = 1

// events are the drive's own steps, owned and named so that a pending one
// can be saved; the values they act on are fields of the drive (pend).
type events struct {
	command, status, rewound, unloaded, loaded    sched.Event
	plan, positioned, backedUp, deadline, launch  sched.Event
	slot, written, verified, read, checked, chunk sched.Event
	idle, prepared                                sched.Event
}

// pend holds the arguments of the pending events and of the short
// transfers, as values.
type pend struct {
	scsidev.Command // LUN, CDB, status, the short byte run

	deadlineB, launchB, slotB, writtenB, readB, checkedB int
	preparedB                                            int
	deadlineOp, launchOp, slotOp                         op
	deadlineSlot                                         sched.Time
	launchAt                                             position
	checkedFail, checkedBlank                            bool
}

// Drive is the MCD-403 as a scsi.Device.
type Drive struct {
	scsidev.FailHook // a cartridge changed on the host stops the machine
	p                Params
	tape             *Tape
	lay              layout
	s                *sched.Scheduler
	t                *scsi.Target

	loaded         bool
	retensionUntil sched.Time

	// Motion. While moving, the head is at x0 + (t - t0) for t >= t0 (t0
	// is the end of the ramp after a launch). While stopped it is at x0
	// from busyUntil on; before busyUntil a move is still running.
	moving    bool
	x0        position
	t0        sched.Time
	busyUntil sched.Time

	// The block the tape is heading for and what for; -1 when none.
	target   int
	targetOp op
	// backedUpFor is the block the drive stopped and backed up for.
	backedUpFor int

	cmd   *command
	sense sense
	ev    events
	pend  pend
	plan1 *sched.Event // pending plan/deadline/launch event
	idle  *sched.Event // pending IdleStop

	stats Stats

	obs sched.Observers[func(now sched.Time, event string)]
}

func (d *Drive) trace(format string, args ...any) {
	if d.obs.Len() != 0 {
		d.notify(fmt.Sprintf(format, args...))
	}
}

// BytesReceived is how many DATA OUT bytes of the current write block the
// drive has taken from the bus (0 when no write is in progress).
func (d *Drive) BytesReceived() int {
	if d.cmd == nil || d.cmd.op != opWrite {
		return 0
	}
	return d.cmd.received
}

// New returns a drive with tape loaded (nil: no cartridge). A loaded
// cartridge starts retensioned and at its load point [A]: the harness
// inserted it before the run (use Load to model an insertion).
func New(p Params, tape *Tape) *Drive {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	d := &Drive{p: p, tape: tape, loaded: tape != nil, target: -1, backedUpFor: -1}
	if tape != nil {
		d.lay = newLayout(p.Blocks, tape.Interleave())
	}
	return d
}

// Attach connects a new drive with tape loaded to bus as SCSI target id;
// name labels the drive's events and must be unique on the machine (save
// states find events by name). It is the same idiom as acb4000.Attach; a
// machine attaches through Type (a scsidev.Spec).
func Attach(bus *scsi.Bus, id int, name string, p Params, tape *Tape) (*Drive, *scsi.Target) {
	d := New(p, tape)
	t := scsi.NewTarget(bus, id, name, d, d.Timing())
	d.bind(t)
	return d, t
}

// bind takes the target engine the drive serves and sets up its events,
// named after the target. A drive attached with scsi.NewTarget directly
// is bound at its first command.
func (d *Drive) bind(t *scsi.Target) {
	if d.t == t {
		return
	}
	d.t, d.s = t, t.Sched()
	n := t.Name() + " "
	e := &d.ev
	e.command.Init(n+"command", func(now sched.Time) { d.execute(now, d.pend.LUN, d.pend.CDB) })
	e.status.Init(n+"status", func(sched.Time) { d.t.Complete(d.pend.Status) })
	e.rewound.Init(n+"rewound", func(sched.Time) { d.good() })
	e.unloaded.Init(n+"unloaded", func(sched.Time) { d.loaded = false; d.good() })
	e.loaded.Init(n+"loaded", func(sched.Time) { d.good() })
	e.plan.Init(n+"plan", d.planned)
	e.positioned.Init(n+"positioned", d.planned)
	e.backedUp.Init(n+"backed up", d.planned)
	e.deadline.Init(n+"deadline", d.deadline)
	e.launch.Init(n+"launch", d.launch)
	e.slot.Init(n+"slot", func(now sched.Time) { d.slot(now, d.pend.slotB, d.pend.slotOp) })
	e.written.Init(n+"written", d.written)
	e.verified.Init(n+"verified", d.verified)
	e.read.Init(n+"read", func(now sched.Time) { d.anticipate(now, d.pend.readB) })
	e.checked.Init(n+"checked", d.checked)
	e.chunk.Init(n+"FIFO chunk", d.chunkCopied)
	e.idle.Init(n+"idle", d.idleStop)
	e.prepared.Init(n+"prepared", d.prepared)
	d.s.Own(d.events()...)
}

func (d *Drive) events() scsidev.Events {
	e := &d.ev
	return scsidev.Events{&e.command, &e.status, &e.rewound, &e.unloaded, &e.loaded, &e.plan, &e.positioned,
		&e.backedUp, &e.deadline, &e.launch, &e.slot, &e.written, &e.verified, &e.read, &e.checked, &e.chunk, &e.idle, &e.prepared}
}

// Params returns the drive's parameters.
func (d *Drive) Params() Params { return d.p }

// Timing is the drive's SCSI engine timing: the engine defaults with the
// drive's hardware handshake turnaround.
func (d *Drive) Timing() scsi.Timing {
	t := scsi.DefaultTiming()
	t.ReqAfterAck = d.p.ReqAfterAck
	return t
}

// Stats returns the counters.
func (d *Drive) Stats() Stats { return d.stats }

// Counts implements scsidev.Device.
func (d *Drive) Counts() scsidev.Stats { return d.stats.Stats }

// Repositions is Stats().Repositions (for harnesses).
func (d *Drive) Repositions() int { return d.stats.Repositions }

// Tape returns the loaded cartridge image, or nil.
func (d *Drive) Tape() *Tape { return d.tape }

// Close closes the cartridge image.
func (d *Drive) Close() error {
	if d.tape == nil {
		return nil
	}
	return d.tape.Close()
}

// Load starts a cartridge insertion at the scheduler's current time: the
// drive retensions (RetensionTime, NOT READY meanwhile) and stops at the
// load point [F CCTALK03 "always retensions on insert"].
func (d *Drive) Load(s *sched.Scheduler) {
	d.s = s
	d.retension(s.Now())
}

func (d *Drive) retension(now sched.Time) {
	d.stats.Retensions++
	d.loaded = d.tape != nil
	d.moving = false
	d.target, d.backedUpFor = -1, -1
	d.x0 = 0
	d.busyUntil = now + d.p.RetensionTime
	d.retensionUntil = d.busyUntil
}

// at schedules the drive's own event e at t and returns it.
func (d *Drive) at(t sched.Time, e *sched.Event) *sched.Event {
	d.s.Schedule(e, t)
	return e
}

func (d *Drive) cancel(e *sched.Event) {
	if e != nil {
		d.s.Cancel(e)
	}
}

// Reset is the bus RST: the command in progress is dropped (a block not yet
// written is lost, it was never acknowledged); the tape stops.
func (d *Drive) Reset() {
	d.events().Cancel(d.s)
	d.plan1, d.idle = nil, nil
	if d.cmd != nil && d.s != nil {
		d.trace("bus reset: block %d dropped (%d bytes received, not acknowledged)", d.cmd.block, d.cmd.received)
	}
	d.cmd = nil
	if d.s != nil && d.moving {
		now := d.s.Now()
		d.x0 = d.posAt(now) + d.p.RampTime/2
		d.moving = false
		d.busyUntil = max(d.busyUntil, now+d.p.RampTime)
	}
	d.target = -1
}

// Command implements scsi.Device.
func (d *Drive) Command(t *scsi.Target, cdb []byte) {
	d.bind(t)
	d.stats.Commands++
	d.pend.Start(t, cdb)
	d.at(d.s.Now()+d.p.CommandOverhead, &d.ev.command)
}

func (d *Drive) finish(status byte) {
	d.pend.Status = status
	d.at(d.s.Now()+d.p.StatusOverhead, &d.ev.status)
}

func (d *Drive) good() { d.finish(scsi.StatusGood) }

func (d *Drive) check(s sense) {
	d.sense = s
	d.stats.Checks++
	d.finish(scsi.StatusCheckCondition)
}

func (d *Drive) illegal(asc byte) { d.check(sense{key: KeyIllegalRequest, asc: asc}) }

// ready checks the cartridge for a medium access.
func (d *Drive) ready(now sched.Time) bool {
	switch {
	case !d.loaded:
		d.check(sense{key: KeyNotReady, asc: ASCNoMedium})
	case now < d.retensionUntil:
		d.check(sense{key: KeyNotReady, asc: ASCNotReady, ascq: ASCQBecomingReady})
	default:
		return true
	}
	return false
}

func (d *Drive) execute(now sched.Time, lun int, cdb []byte) {
	if cdb[0] != OpRequestSense && cdb[0] != OpInquiry && lun != 0 {
		d.illegal(ASCInvalidLUN)
		return
	}
	switch cdb[0] {
	case OpTestUnitReady:
		if d.ready(now) {
			d.good()
		}
	case OpRequestSense:
		s := d.sense.bytes()
		if lun != 0 {
			s = sense{key: KeyIllegalRequest, asc: ASCInvalidLUN}.bytes()
		}
		d.sense = sense{}
		d.sendBytes(scsidev.SenseReply(s, cdb[4]))
	case OpInquiry:
		d.sendBytes(inquiry(lun)[:min(int(cdb[4]), 36)])
	case OpModeSense:
		if !d.ready(now) {
			return
		}
		d.sendBytes(d.modeData()[:min(int(cdb[4]), modeLength)])
	case OpModeSelect:
		if !d.ready(now) {
			return
		}
		d.modeSelect(int(cdb[4]))
	case OpRewind:
		if !d.ready(now) {
			return
		}
		d.target = -1
		d.cancel(d.plan1)
		end := d.moveTo(now, d.slotPos(0)-d.startOffset())
		d.at(end, &d.ev.rewound)
	case OpLoad:
		if d.tape == nil {
			d.check(sense{key: KeyNotReady, asc: ASCNoMedium})
			return
		}
		d.cancel(d.plan1)
		if cdb[4]&1 == 0 { // unload: rewind, then the cartridge is out
			end := d.moveTo(now, 0)
			d.at(end, &d.ev.unloaded)
			return
		}
		d.retension(now)
		if cdb[1]&1 != 0 { // immediate
			d.good()
		} else {
			d.at(d.busyUntil, &d.ev.loaded)
		}
	case OpRead, OpWrite:
		d.readWrite(now, cdb)
	default:
		d.illegal(ASCInvalidCommand)
	}
}

func inquiry(lun int) []byte {
	b := make([]byte, 36)
	b[0] = 0x01 // sequential-access device [A]
	if lun != 0 {
		b[0] = 0x7F // no such LUN
	}
	b[1] = 0x80 // removable
	b[2] = 0x01 // SCSI-1
	b[4] = 31
	copy(b[8:], "3M      MCD-403         4.0 ")
	return b
}

func (d *Drive) modeData() []byte {
	b := make([]byte, modeLength)
	b[0] = modeLength - 1
	if d.tape.WriteProtected() {
		b[2] = 0x80
	}
	b[3] = 8
	n, bs := d.p.Blocks, d.p.BlockSize
	b[5], b[6], b[7] = byte(n>>16), byte(n>>8), byte(n)
	b[9], b[10], b[11] = byte(bs>>16), byte(bs>>8), byte(bs)
	b[12] = byte(d.tape.Interleave())
	return b
}

// modeSelect takes the parameter list; a new interleave in byte 12
// reformats the cartridge [A].
func (d *Drive) modeSelect(n int) { d.receiveBytes(n, thenModeSelect) }

// modeSelected applies the parameter list.
func (d *Drive) modeSelected(data []byte) {
	{
		if len(data) >= 12 && data[3] >= 8 {
			bs := int(data[9])<<16 | int(data[10])<<8 | int(data[11])
			if bs != 0 && bs != d.p.BlockSize {
				d.illegal(ASCInvalidParam)
				return
			}
		}
		if len(data) < modeLength || data[12] == 0 || int(data[12]) == d.tape.Interleave() {
			d.good()
			return
		}
		k := int(data[12])
		if k > d.p.MaxInterleave {
			d.illegal(ASCInvalidParam)
			return
		}
		if d.tape.WriteProtected() {
			d.check(sense{key: KeyDataProtect, asc: ASCWriteProtected})
			return
		}
		if err := d.tape.Reformat(k); err != nil {
			d.check(sense{key: KeyMediumError, asc: ASCWriteError})
			return
		}
		d.lay = newLayout(d.p.Blocks, k)
		d.target, d.backedUpFor = -1, -1
		d.good()
	}
}

// sendBytes sends data (a copy is kept) as DATA IN, then GOOD.
func (d *Drive) sendBytes(data []byte) {
	if !d.pend.Send(d.t, data) {
		d.good()
	}
}

// receiveBytes takes n DATA OUT bytes, then goes on as then says.
func (d *Drive) receiveBytes(n int, then uint8) {
	if !d.pend.Receive(d.t, n, then) {
		d.received()
	}
}

func (d *Drive) received() {
	switch d.pend.Then {
	case thenModeSelect:
		d.modeSelected(d.pend.In)
	}
}

// Continue implements scsi.Continuer: the next step after a byte.
func (d *Drive) Continue(_ *scsi.Target, now sched.Time, k scsi.Cont, b byte) {
	switch d.pend.Continue(d.t, k, b) {
	case scsidev.Sent:
		d.good()
		return
	case scsidev.Received:
		d.received()
		return
	case scsidev.Moving:
		return
	}
	switch k.Op {
	case kBlockByte:
		d.blockByte(now, b)
	case kBlockSent:
		d.blockSent(now, k.Arg)
	}
}

func (d *Drive) readWrite(now sched.Time, cdb []byte) {
	if !d.ready(now) {
		return
	}
	block := int(cdb[1]&0x1F)<<16 | int(cdb[2])<<8 | int(cdb[3])
	count := int(cdb[4])
	if count == 0 {
		count = 256
	}
	if block+count > d.p.Blocks {
		// Refused before any motion [A]: the drive knows the cartridge's
		// size. Information = the first block past the end.
		d.check(sense{key: KeyVolumeOverflow, eom: true, asc: ASCEndOfMedium, ascq: ASCQEndOfMedium,
			valid: true, info: uint32(max(block, d.p.Blocks))})
		return
	}
	c := &command{op: opRead, block: block, last: block + count - 1, buf: make([]byte, d.p.BlockSize)}
	if cdb[0] == OpWrite {
		if d.tape.WriteProtected() {
			d.check(sense{key: KeyDataProtect, asc: ASCWriteProtected})
			return
		}
		c.op = opWrite
		if count > 1 && d.p.Buffers > 1 {
			c.spare = make([]byte, d.p.BlockSize)
		}
	}
	d.cancel(d.idle)
	d.idle = nil
	d.cmd = c
	d.trace("%s block %d, %d block(s)", map[op]string{opRead: "READ", opWrite: "WRITE"}[c.op], block, count)
	d.startBlock(now)
}

// startBlock begins moving the command's current block: DATA OUT into the
// buffer for a write, and the tape heads for the block's slot.
func (d *Drive) startBlock(now sched.Time) {
	c := d.cmd
	if c.op == opWrite {
		c.complete = false
		d.startReceive()
	}
	d.headFor(now)
}

// startReceive starts DATA OUT of the next block into the buffer rx.
func (d *Drive) startReceive() {
	c := d.cmd
	c.received, c.stored, c.fifo = 0, 0, 0
	c.draining, c.reqPending = false, false
	d.requestNext()
}

// headFor makes the command's current block the tape's target.
func (d *Drive) headFor(now sched.Time) {
	c := d.cmd
	c.sending = false
	if c.block != d.backedUpFor {
		d.backedUpFor = -1 // the host went elsewhere: a later visit is a seek
	}
	d.target, d.targetOp = c.block, c.op
	d.plan(now)
}

// requestNext asks the engine for the next DATA OUT byte if the FIFO has
// room: REQ stays off while it is full.
func (d *Drive) requestNext() {
	c := d.cmd
	if c == nil || c.reqPending || c.received >= d.p.BlockSize {
		return
	}
	if c.fifo >= d.p.FIFOSize-1 {
		return
	}
	c.reqPending = true
	d.t.ReceiveK(scsi.DataOut, scsi.Cont{Op: kBlockByte})
}

// blockByte takes a DATA OUT byte of the block into the FIFO.
func (d *Drive) blockByte(now sched.Time, b byte) {
	c := d.cmd
	if c == nil {
		return
	}
	c.reqPending = false
	c.rx()[c.received] = b
	c.received++
	c.fifo++
	if c.fifo >= d.p.FIFOSize-1 && c.received < d.p.BlockSize {
		d.stats.FIFOFull++
		if d.obs.Len() != 0 {
			d.trace("FIFO full after byte %d of block %d: REQ held off", c.received-1, c.rxBlock())
		}
	}
	d.drain()
	d.requestNext()
}

// drain is the firmware copying a chunk from the FIFO to the buffer; the
// chunk's room is freed when the copy ends.
func (d *Drive) drain() {
	c := d.cmd
	if c.draining {
		return
	}
	n := 0
	switch {
	case c.fifo >= d.p.DrainChunk:
		n = d.p.DrainChunk
	case c.received == d.p.BlockSize && c.fifo > 0:
		n = c.fifo
	}
	if n == 0 {
		return
	}
	c.draining = true
	c.drainN = n
	d.at(d.s.Now()+sched.Time(n)*d.p.DrainByteTime+d.p.DrainChunkOverhead, &d.ev.chunk)
}

// chunkCopied frees the FIFO room of the chunk just copied.
func (d *Drive) chunkCopied(now sched.Time) {
	c := d.cmd
	n := c.drainN
	c.draining = false
	c.fifo -= n
	c.stored += n
	if c.stored == d.p.BlockSize {
		if c.ahead {
			c.aheadComplete, c.aheadAt = true, now
			d.trace("block %d complete in the second buffer", c.block+1)
			return
		}
		c.complete, c.completeAt = true, now
		d.trace("block %d complete in the buffer", c.block)
		d.armPrepared(now)
		d.plan(now)
		return
	}
	d.drain()
	d.requestNext()
}

// posAt is the head position at t while moving (ramp approximated as
// speed; only used at decision points after a ramp).
func (d *Drive) posAt(t sched.Time) position { return d.x0 + (t - d.t0) }

// lead is how long before its slot a block must be ready.
func (d *Drive) lead(o op) sched.Time {
	if o == opWrite {
		return d.p.ArmLead + d.p.BlockPrepare
	}
	return d.p.ArmLead
}

// readyFor reports whether block b can be moved at its slot now.
func (d *Drive) readyFor(b int, o op) bool {
	c := d.cmd
	if c == nil || c.op != o || c.block != b || c.sending {
		return false
	}
	return o == opRead || c.complete
}

// plan decides the tape's next motion for the current target: stream to
// its slot (with a deadline check), stop and move to its launch point, or
// launch from there when the block is ready.
func (d *Drive) plan(now sched.Time) { d.replan(now, false) }

// replan is plan; anticipating says the target is the next block after the
// one just moved, so being already too late for it is a miss (the host did
// not keep up), not a seek.
func (d *Drive) replan(now sched.Time, anticipating bool) {
	d.cancel(d.plan1)
	d.plan1 = nil
	if now < d.busyUntil {
		d.plan1 = d.at(d.busyUntil, &d.ev.plan)
		return
	}
	b, o := d.target, d.targetOp
	if b < 0 {
		if d.moving { // nothing to head for: stop
			d.x0 = d.posAt(now) + d.p.RampTime/2
			d.moving = false
			d.busyUntil = now + d.p.RampTime
		}
		return
	}
	xs := d.slotPos(d.lay.physical(b))
	if d.moving {
		tSlot := d.t0 + (xs - d.x0)
		td := tSlot - d.lead(o)
		if c := d.cmd; o == opWrite && d.readyFor(b, o) && c.completeAt+d.p.BlockPrepare <= tSlot-d.p.ArmLead {
			// Already complete (the second buffer): it only needs
			// its preparation done and the formatter armed.
			td = tSlot - d.p.ArmLead
		}
		if td >= now && xs-d.posAt(now) <= sched.Time(d.p.SearchAhead)*d.p.SlotTime {
			d.pend.deadlineB, d.pend.deadlineOp, d.pend.deadlineSlot = b, o, tSlot
			d.plan1 = d.at(td, &d.ev.deadline)
			return
		}
		// Too late for the next block already (interleave too small for
		// any host) is a miss; a command that retargeted the tape to a
		// block behind it, too near or too far is a seek. (A deadline
		// passed while heading for a block is handled by its event.)
		d.stopAndBackUp(now, b, anticipating && td < now)
		return
	}
	launch := xs - d.startOffset()
	if d.x0 != launch {
		d.stats.Seeks++
		d.plan1 = d.at(d.moveTo(now, launch), &d.ev.positioned)
		return
	}
	if !d.readyFor(b, o) {
		return // stopped at the launch point: the data or command will call plan
	}
	tl := now
	if o == opWrite {
		tl = max(now, d.cmd.completeAt+d.lead(o)-d.p.RampTime-d.p.Resync(d.frame()))
	}
	d.pend.launchB, d.pend.launchOp, d.pend.launchAt = b, o, launch
	d.plan1 = d.at(tl, &d.ev.launch)
}

// planned is plan run by one of the drive's events (a move ended).
func (d *Drive) planned(now sched.Time) { d.plan(now) }

// deadline: block b must be ready now to be moved at its slot.
func (d *Drive) deadline(now sched.Time) {
	b, o := d.pend.deadlineB, d.pend.deadlineOp
	d.plan1 = nil
	if d.readyFor(b, o) {
		d.toSlot(d.pend.deadlineSlot, b, o)
		return
	}
	d.stopAndBackUp(now, b, true)
}

// launch starts the tape from its launch point towards block b's slot.
func (d *Drive) launch(now sched.Time) {
	b, o, launch := d.pend.launchB, d.pend.launchOp, d.pend.launchAt
	d.plan1 = nil
	if d.backedUpFor == b {
		d.stats.Repositions++
		d.backedUpFor = -1
		d.trace("restart for block %d (reposition %d)", b, d.stats.Repositions)
	} else {
		d.trace("start for block %d", b)
	}
	d.moving = true
	d.x0 = launch + d.p.RampTime/2
	d.t0 = now + d.p.RampTime
	d.busyUntil = now
	d.toSlot(now+d.p.RampTime+d.p.Resync(d.frame()), b, o)
}

// toSlot schedules the slot of block b at t. [A] At most one slot is
// pending: a slot is scheduled only by the deadline or the launch of the
// block the tape heads for, and the next one only after it ran.
func (d *Drive) toSlot(t sched.Time, b int, o op) {
	d.pend.slotB, d.pend.slotOp = b, o
	d.at(t, &d.ev.slot)
}

// stopAndBackUp stops the streaming tape and moves it to b's launch point.
func (d *Drive) stopAndBackUp(now sched.Time, b int, miss bool) {
	if miss {
		d.stats.Misses++
		d.backedUpFor = b
		d.trace("block %d not ready at its deadline: stop and back up", b)
	} else {
		d.stats.Seeks++
		d.trace("block %d out of reach: stop and position", b)
	}
	d.cancel(d.plan1)
	launch := d.slotPos(d.lay.physical(b)) - d.startOffset()
	d.plan1 = d.at(d.moveTo(now, launch), &d.ev.backedUp)
}

// moveTo brings the tape to a standstill at x: decelerate if moving, then
// a move at search speed with constant acceleration. It returns when the
// tape stands at x.
func (d *Drive) moveTo(now sched.Time, x position) sched.Time {
	from := d.x0
	t := max(now, d.busyUntil)
	if d.moving {
		from = d.posAt(now) + d.p.RampTime/2
		t = now + d.p.RampTime
		d.moving = false
	}
	t += d.seekTime(from, x)
	d.x0, d.busyUntil = x, t
	return t
}

// moveTime is a start-stop move over dist (either direction) with the
// drive's acceleration (write speed in RampTime) and top speed SearchFactor
// times write speed [D].
func (d *Drive) moveTime(dist position) sched.Time {
	if dist < 0 {
		dist = -dist
	}
	if dist == 0 {
		return 0
	}
	r := float64(d.p.RampTime)
	v := float64(d.p.SearchFactor)
	x := float64(dist)
	if x < v*v*r { // never reaches search speed: accelerate half, brake half
		return sched.Time(2 * math.Sqrt(x*r))
	}
	return sched.Time(2*v*r + (x-v*v*r)/v)
}

// slot runs when block b's slot reaches the head at speed.
func (d *Drive) slot(now sched.Time, b int, o op) {
	c := d.cmd
	dataEnd := now + d.p.DataTime
	if o == opWrite {
		if err := d.tape.WriteBlock(b, c.buf); err != nil {
			d.mediumError(err)
			d.cmd = nil
			d.target = -1
			d.check(sense{key: KeyMediumError, asc: ASCWriteError, valid: true, info: uint32(b)})
			return
		}
		d.stats.BlocksWritten++
		d.trace("slot of block %d: written", b)
		d.pend.writtenB = b
		d.at(dataEnd, &d.ev.written)
		return
	}
	blank, err := d.tape.ReadBlock(b, c.buf)
	d.mediumError(err)
	d.stats.BlocksRead++
	d.trace("slot of block %d: read", b)
	c.sending = true
	d.pend.readB = b
	d.at(dataEnd, &d.ev.read)
	d.pend.checkedB, d.pend.checkedFail, d.pend.checkedBlank = b, err != nil, blank
	d.at(dataEnd+d.p.ReadCheck, &d.ev.checked)
}

// armPrepared: with a second buffer and more blocks to come, the firmware
// takes the next block once it has prepared this one.
func (d *Drive) armPrepared(now sched.Time) {
	c := d.cmd
	if c.spare == nil || c.ahead || c.block >= c.last {
		return
	}
	d.pend.preparedB = c.block
	d.at(max(now, c.completeAt+d.p.BlockPrepare), &d.ev.prepared)
}

// prepared: the firmware has prepared the tape's block; the second buffer
// takes the next block's DATA OUT while this one waits for its slot.
func (d *Drive) prepared(sched.Time) {
	c := d.cmd
	if c == nil || c.op != opWrite || c.spare == nil || c.ahead || c.block != d.pend.preparedB || c.block >= c.last {
		return
	}
	c.ahead, c.aheadComplete = true, false
	d.trace("block %d: DATA OUT into the second buffer", c.block+1)
	d.startReceive()
}

// written: block b's data field has passed the head.
func (d *Drive) written(now sched.Time) {
	b := d.pend.writtenB
	c := d.cmd
	if b < c.last && c.ahead {
		// The second buffer's block is next; the written one's buffer
		// becomes the spare. The tape heads on for it (anticipate) as
		// for any next block, now knowing whether it is complete.
		c.block = b + 1
		c.buf, c.spare = c.spare, c.buf
		c.ahead = false
		c.complete, c.completeAt = c.aheadComplete, c.aheadAt
		if c.complete {
			d.armPrepared(now)
		}
		d.anticipate(now, b)
		return
	}
	d.anticipate(now, b)
	if b < c.last {
		c.block = b + 1
		d.startBlock(now)
		return
	}
	d.at(now+d.p.VerifyLag, &d.ev.verified)
}

// verified: the last block was read back after writing: the command ends.
func (d *Drive) verified(sched.Time) {
	d.cmd = nil
	d.good()
	d.armIdle()
}

// checked: block b was read and checked; send it, or report the error.
func (d *Drive) checked(sched.Time) {
	b, c := d.pend.checkedB, d.cmd
	switch {
	case d.pend.checkedFail:
		d.cmd = nil
		d.check(sense{key: KeyMediumError, asc: ASCReadError, valid: true, info: uint32(b)})
	case d.pend.checkedBlank:
		d.cmd = nil
		d.check(sense{key: KeyBlankCheck, valid: true, info: uint32(b)})
	default:
		d.t.SendK(scsi.DataIn, c.buf[0], scsi.Cont{Op: kBlockSent})
	}
}

// blockSent goes on after byte i of a read block.
func (d *Drive) blockSent(now sched.Time, i int) {
	c := d.cmd
	if i++; i < len(c.buf) {
		d.t.SendK(scsi.DataIn, c.buf[i], scsi.Cont{Op: kBlockSent, Arg: i})
		return
	}
	if b := c.block; b < c.last {
		c.block = b + 1
		d.startBlock(d.s.Now())
		return
	}
	d.cmd = nil
	d.good()
	d.armIdle()
}

// armIdle starts the IdleStop timer after a READ or WRITE ends.
func (d *Drive) armIdle() {
	d.cancel(d.idle)
	d.idle = d.at(d.s.Now()+d.p.StatusOverhead+d.p.IdleStop, &d.ev.idle)
}

// idleStop: no command came for IdleStop; a streaming tape stops.
func (d *Drive) idleStop(now sched.Time) {
	d.idle = nil
	if d.cmd != nil || !d.moving || now < d.busyUntil || d.target < 0 {
		return
	}
	d.trace("no command for %v: stop", d.p.IdleStop)
	d.stopAndBackUp(now, d.target, true)
}

// anticipate keeps the tape streaming toward the next block after b, as a
// streamer does: if that block is not ready by its deadline the drive stops
// and backs up for it.
func (d *Drive) anticipate(now sched.Time, b int) {
	if d.target != b {
		return // a command already retargeted the tape
	}
	if b+1 >= d.p.Blocks {
		d.target = -1
	} else {
		d.target = b + 1
	}
	d.replan(now, true)
}

// mediumError: a cartridge image that another program changed under us
// stops the machine with that error (docs/CPM.md "Images shared with the
// host"); the host still gets its CHECK CONDITION.
func (d *Drive) mediumError(err error) {
	if errors.Is(err, image.ErrChangedOnHost) {
		d.Fail(err)
	}
}
