package scsihd

import (
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Opcodes the drive executes [F SCSI-1].
const (
	OpTestUnitReady  = 0x00
	OpRezeroUnit     = 0x01
	OpRequestSense   = 0x03
	OpFormatUnit     = 0x04
	OpRead6          = 0x08
	OpWrite6         = 0x0A
	OpSeek6          = 0x0B
	OpInquiry        = 0x12
	OpModeSelect6    = 0x15
	OpModeSense6     = 0x1A
	OpStartStopUnit  = 0x1B
	OpReadCapacity   = 0x25
	OpRead10         = 0x28
	OpWrite10        = 0x2A
	OpVerify10       = 0x2F
	inquiryLength    = 36
	capacityLength   = 8
	formatHeaderSize = 4
)

// Vendor, product and revision INQUIRY returns: the drive imitated, as
// BlueSCSI and SCSI2SD present it to old hosts [A].
const (
	Vendor   = "SEAGATE"
	Product  = "ST225N"
	Revision = "1.0"
)

// What follows a parameter list received (scsidev.Command.Then).
const (
	thenModeSelect    = 1
	thenFormatHeader  = 2
	thenFormatDefects = 3
)

// Continuations of the data blocks (scsi.Cont.Op), after the byte runs'.
const (
	kHostSend = scsidev.OpModel + iota // READ: Arg = byte index in the block
	kHostRecv                          // WRITE: Arg = byte index in the block
)

// Drive is the disk and its controller. It implements scsi.Device.
type Drive struct {
	scsidev.FailHook // an image changed on the host stops the machine
	p                Params
	m                mech
	disk             *Disk

	t     *scsi.Target
	s     *sched.Scheduler
	sense sense
	cmd   scsidev.Command
	x     *xfer // READ, WRITE or VERIFY in progress
	buf   []byte

	// Head and spindle.
	cyl, head int
	readyAt   sched.Time // heads on track and settled
	seg       segment    // blocks read ahead after the last READ
	stopped   bool       // START STOP UNIT stopped the spindle
	spunUpAt  sched.Time // ready again after a start

	events events
	stats  Stats
}

// Stats counts what the drive did: the counters every model keeps and
// the reads served from the read-ahead.
type Stats struct {
	scsidev.Stats
	CacheHits uint64 // blocks a READ took from the read-ahead segment
}

// events are the drive's own steps, owned and named (save states).
type events struct {
	decode, status, block, done sched.Event
}

func (e *events) list() scsidev.Events {
	return scsidev.Events{&e.decode, &e.status, &e.block, &e.done}
}

// New returns a drive on disk d with parameters p (valid: Validate).
func New(p Params, d *Disk) *Drive {
	return &Drive{p: p, m: newMech(p, d.Blocks()), disk: d, buf: make([]byte, p.BufferBlocks*BlockSize)}
}

// Attach connects a new drive on disk d to bus as SCSI ID id; name labels
// its events and must be unique on the machine. It is the idiom of
// acb4000.Attach and mcd403.Attach; a machine attaches through Type.
func Attach(bus *scsi.Bus, id int, name string, p Params, d *Disk) (*Drive, *scsi.Target) {
	dr := New(p, d)
	t := scsi.NewTarget(bus, id, name, dr, dr.Timing())
	dr.bind(t)
	return dr, t
}

// Timing returns the scsi.Timing the drive's target engine uses.
func (d *Drive) Timing() scsi.Timing {
	t := scsi.DefaultTiming()
	t.ReqAfterAck = d.p.ReqAfterAck
	return t
}

func (d *Drive) bind(t *scsi.Target) {
	if d.t == t && d.s != nil {
		return
	}
	d.t, d.s = t, t.Sched()
	n := t.Name() + " "
	ev := &d.events
	ev.decode.Init(n+"decode", d.execute)
	ev.status.Init(n+"status", func(sched.Time) { d.t.Complete(d.cmd.Status) })
	ev.block.Init(n+"block", d.blockDone)
	ev.done.Init(n+"done", d.mechDone)
	d.s.Own(ev.list()...)
}

// Params returns the drive's parameters.
func (d *Drive) Params() Params { return d.p }

// Blocks is the drive's capacity.
func (d *Drive) Blocks() int64 { return d.m.blocks }

// Cylinders is how many cylinders the image fills (the last may be
// partial).
func (d *Drive) Cylinders() int { return d.m.cylinders }

// Counts implements scsidev.Device.
func (d *Drive) Counts() scsidev.Stats { return d.stats.Stats }

// Stats returns the drive's counters.
func (d *Drive) Stats() Stats { return d.stats }

// Close implements scsidev.Device: it closes the image.
func (d *Drive) Close() error { return d.disk.Close() }

// Reset implements scsi.Device: bus RST aborts the command. Blocks already
// written stay written; the heads stay where they are; the read-ahead
// stops.
func (d *Drive) Reset() {
	d.events.list().Cancel(d.s)
	d.x = nil
	d.cmd = scsidev.Command{}
	d.sense = sense{}
	if d.s != nil {
		d.seg.truncate(d.m, d.s.Now())
	}
}

// Command implements scsi.Device.
func (d *Drive) Command(t *scsi.Target, cdb []byte) {
	d.bind(t)
	d.stats.Commands++
	d.cmd.Start(t, cdb)
	d.s.ScheduleAfter(&d.events.decode, d.p.CommandOverhead)
}

func (d *Drive) good() { d.finish(scsi.StatusGood) }

// check records s and ends the command with CHECK CONDITION.
func (d *Drive) check(s sense) {
	d.sense = s
	d.stats.Checks++
	d.finish(scsi.StatusCheckCondition)
}

func (d *Drive) illegal(asc byte) { d.check(sense{Key: KeyIllegalRequest, ASC: asc}) }

// finish ends the command after the firmware's wrap-up.
func (d *Drive) finish(status byte) {
	d.x = nil
	d.cmd.Status = status
	d.s.ScheduleAfter(&d.events.status, d.p.StatusOverhead)
}

// notReady says why the medium cannot be used at now, or ok.
func (d *Drive) notReady(now sched.Time) (sense, bool) {
	switch {
	case d.stopped:
		return sense{Key: KeyNotReady, ASC: ASCNotReady, ASCQ: ASCQStartNeeded}, true
	case now < d.spunUpAt:
		return sense{Key: KeyNotReady, ASC: ASCNotReady, ASCQ: ASCQBecomingReady}, true
	}
	return sense{}, false
}

func (d *Drive) execute(now sched.Time) {
	cdb := d.cmd.CDB
	op := cdb[0]
	switch op {
	case OpRequestSense:
		b := d.sense.bytes()
		d.sense = sense{}
		d.sendBytes(scsidev.SenseReply(b, cdb[4]))
		return
	case OpInquiry:
		d.sense = sense{}
		d.inquiry(cdb)
		return
	}
	d.sense = sense{}
	if d.cmd.LUN != 0 {
		d.illegal(ASCInvalidLUN)
		return
	}
	switch op {
	case OpTestUnitReady, OpRezeroUnit, OpFormatUnit, OpRead6, OpWrite6, OpSeek6, OpReadCapacity,
		OpRead10, OpWrite10, OpVerify10:
		if s, bad := d.notReady(now); bad {
			d.check(s)
			return
		}
	case OpModeSelect6, OpModeSense6, OpStartStopUnit:
	default:
		d.illegal(ASCInvalidCommand)
		return
	}
	switch op {
	case OpTestUnitReady:
		d.good()
	case OpRezeroUnit:
		d.seekTo(now, 0)
	case OpSeek6:
		lba := int64(cdb[1]&0x1f)<<16 | int64(cdb[2])<<8 | int64(cdb[3])
		if lba >= d.m.blocks {
			d.check(sense{Key: KeyIllegalRequest, ASC: ASCBadBlock, Valid: true, Info: uint32(lba)})
			return
		}
		cyl, _, _ := d.m.chs(lba)
		d.seekTo(now, cyl)
	case OpRead6, OpWrite6:
		lba := int64(cdb[1]&0x1f)<<16 | int64(cdb[2])<<8 | int64(cdb[3])
		n := int(cdb[4])
		if n == 0 {
			n = 256
		}
		d.transfer(now, op == OpWrite6, false, lba, n)
	case OpRead10, OpWrite10, OpVerify10:
		lba := int64(cdb[2])<<24 | int64(cdb[3])<<16 | int64(cdb[4])<<8 | int64(cdb[5])
		n := int(cdb[7])<<8 | int(cdb[8])
		if op == OpVerify10 && cdb[1]&0x02 != 0 {
			d.illegal(ASCInvalidField) // BytChk: comparing with host data is not modelled [A]
			return
		}
		d.transfer(now, op == OpWrite10, op == OpVerify10, lba, n)
	case OpReadCapacity:
		last := d.m.blocks - 1
		d.sendBytes([]byte{byte(last >> 24), byte(last >> 16), byte(last >> 8), byte(last), 0, 0, BlockSize >> 8, BlockSize & 0xFF})
	case OpModeSense6:
		d.modeSense(cdb)
	case OpModeSelect6:
		if cdb[4] == 0 {
			d.good()
			return
		}
		d.receiveBytes(int(cdb[4]), thenModeSelect)
	case OpFormatUnit:
		d.formatUnit(now, cdb)
	case OpStartStopUnit:
		d.startStop(now, cdb)
	}
}

// inquiry answers INQUIRY: a direct-access device, not removable, SCSI-1
// with the CCS response format, the imitated drive's names. A LUN other
// than 0 is "no device" (peripheral type 1Fh, qualifier 3) [A: SCSI-2's
// convention, which hosts of the time tolerate]. EVPD is not supported.
func (d *Drive) inquiry(cdb []byte) {
	if cdb[1]&0x01 != 0 {
		d.illegal(ASCInvalidField)
		return
	}
	b := make([]byte, inquiryLength)
	if d.cmd.LUN != 0 {
		b[0] = 0x7F
	}
	b[2] = 0x01 // ANSI version: SCSI-1
	b[3] = 0x01 // response data format: CCS
	b[4] = inquiryLength - 5
	copy(b[8:16], pad(Vendor, 8))
	copy(b[16:32], pad(Product, 16))
	copy(b[32:36], pad(Revision, 4))
	d.sendBytes(b[:min(int(cdb[4]), len(b))])
}

func pad(s string, n int) []byte {
	b := []byte(s)
	for len(b) < n {
		b = append(b, ' ')
	}
	return b[:n]
}

// sendBytes sends data as DATA IN, then GOOD.
func (d *Drive) sendBytes(data []byte) {
	if !d.cmd.Send(d.t, data) {
		d.good()
	}
}

// receiveBytes takes n DATA OUT bytes, then goes on as then says.
func (d *Drive) receiveBytes(n int, then uint8) {
	if !d.cmd.Receive(d.t, n, then) {
		d.received()
	}
}

// Continue implements scsi.Continuer.
func (d *Drive) Continue(_ *scsi.Target, now sched.Time, k scsi.Cont, b byte) {
	switch d.cmd.Continue(d.t, k, b) {
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
	case kHostSend:
		d.hostSent(now, k.Arg)
	case kHostRecv:
		d.hostReceived(now, k.Arg, b)
	}
}

// received goes on after a parameter list.
func (d *Drive) received() {
	data := d.cmd.In
	switch d.cmd.Then {
	case thenModeSelect:
		d.modeSelect(data)
	case thenFormatHeader:
		n := int(data[2])<<8 | int(data[3])
		if n == 0 {
			d.startFormat(d.s.Now())
			return
		}
		d.receiveBytes(n, thenFormatDefects)
	case thenFormatDefects:
		d.startFormat(d.s.Now()) // the defect list is taken and ignored [A]
	}
}

// moveTo starts positioning the heads over (cyl, head) at from and returns
// when they are ready, never before from.
func (d *Drive) moveTo(cyl, head int, from sched.Time) sched.Time {
	start := max(from, d.readyAt)
	switch {
	case cyl != d.cyl:
		d.stats.Seeks++
		d.readyAt = start + d.m.seek(cyl-d.cyl)
	case head != d.head:
		d.readyAt = start + d.p.HeadSwitch
	default:
		d.readyAt = start
	}
	d.cyl, d.head = cyl, head
	return d.readyAt
}

// seekTo moves the heads to cyl and answers GOOD when they are there.
func (d *Drive) seekTo(now sched.Time, cyl int) {
	d.seg.truncate(d.m, now)
	ready := d.moveTo(cyl, d.head, now)
	d.s.ScheduleAfter(&d.events.done, max(ready-now, 0))
}

// mechDone ends a command whose mechanics were timed at its start (SEEK,
// REZERO, START, FORMAT).
func (d *Drive) mechDone(sched.Time) {
	if d.cmd.CDB[0] == OpFormatUnit {
		d.formatDone()
		return
	}
	d.good()
}

// startStop is START STOP UNIT: stop makes the drive not ready until a
// start; a start on a stopped drive takes SpinUp (with Immed, GOOD at
// once and NOT READY, becoming ready, meanwhile).
func (d *Drive) startStop(now sched.Time, cdb []byte) {
	immed, start := cdb[1]&0x01 != 0, cdb[4]&0x01 != 0
	if !start {
		d.seg.truncate(d.m, now)
		d.seg = segment{}
		d.stopped = true
		d.good()
		return
	}
	if d.stopped {
		d.stopped = false
		d.spunUpAt = now + d.p.SpinUp
	}
	if immed || now >= d.spunUpAt {
		d.good()
		return
	}
	d.s.ScheduleAfter(&d.events.done, d.spunUpAt-now)
}

// formatUnit checks FORMAT UNIT's CDB and takes its parameter list if
// FmtData says one follows. The interleave (bytes 3-4) must be 0 or 1: the
// drive formats 1:1 [A].
func (d *Drive) formatUnit(now sched.Time, cdb []byte) {
	il := int(cdb[3])<<8 | int(cdb[4])
	if il > 1 {
		d.illegal(ASCInvalidField)
		return
	}
	if d.disk.f.ReadOnly() {
		d.check(sense{Key: KeyDataProtect, ASC: ASCWriteProtected})
		return
	}
	if cdb[1]&0x10 != 0 {
		d.receiveBytes(formatHeaderSize, thenFormatHeader)
		return
	}
	d.startFormat(now)
}

// startFormat times the format: every track FormatTrackRevolutions, a
// track-to-track step between cylinders.
func (d *Drive) startFormat(now sched.Time) {
	d.seg.truncate(d.m, now)
	d.seg = segment{}
	start := d.moveTo(0, 0, now)
	tracks := sched.Time(d.m.cylinders) * sched.Time(d.p.Heads)
	done := start + tracks*sched.Time(d.p.FormatTrackRevolutions)*d.m.rev + sched.Time(d.m.cylinders-1)*d.m.seek(1)
	d.cyl, d.head, d.readyAt = d.m.cylinders-1, d.p.Heads-1, done
	d.s.ScheduleAfter(&d.events.done, done-now)
}

// formatDone writes zeros into every block [A: what a freshly formatted
// drive reads] when the last track is done.
func (d *Drive) formatDone() {
	if err := d.disk.f.Fill(0); err != nil {
		d.mediumError(err)
		d.check(sense{Key: KeyMediumError, ASC: ASCWriteError})
		return
	}
	d.good()
}
