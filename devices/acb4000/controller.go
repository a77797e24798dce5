package acb4000

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Opcodes the ACB-4000 executes [F ACB5500, MAME-acb4070, docs/HARDWARE.md 5].
const (
	OpTestUnitReady = 0x00
	OpRezeroUnit    = 0x01
	OpRequestSense  = 0x03
	OpFormatUnit    = 0x04
	OpRead          = 0x08
	OpWrite         = 0x0A
	OpSeek          = 0x0B
	OpWriteBuffer   = 0x13 // vendor: 1 KB host -> controller buffer
	OpReadBuffer    = 0x14 // vendor: 1 KB controller buffer -> host
	OpModeSelect    = 0x15
	OpModeSense     = 0x1A
)

// Sizes of the controller.
const (
	halfSize   = 512          // one half of the buffer: a sector [F ACB-OEM 1 KB]
	bufferSize = 2 * halfSize // the dual-ported buffer [F ACB-OEM]
	modeLength = 0x18         // MODE SELECT/SENSE parameter list [F ZOT, MAME-acb4070]
	maxLUNs    = 2            // two ST-506 drives [F ACB-OEM]
	senseLen   = 4            // non-extended sense bytes [F ACB4525]
)

// SectorEvent reports one sector passing the formatter, for experiments and
// traces: which logical block, when the formatter was armed, when its ID
// passed under the head, and when its data field ended.
type SectorEvent struct {
	LUN          int
	LBA          int
	Write        bool
	Slot         int        // physical slot on the track
	ArmedAt      sched.Time // formatter armed (buffer half ready, head on track)
	IDAt         sched.Time // start of the sector's slot (ID sync)
	DataEnd      sched.Time // last ECC byte
	BufferReady  sched.Time // the half became free (read) or full (write)
	HeadReady    sched.Time // head on track and settled
	Revolutions  float64    // (IDAt - ArmedAt) / revolution: >0 means waiting for the slot
	MissedByHalf bool       // the slot passed while no buffer half was ready
}

// Controller is an ACB-4000 with up to two drives. It implements
// scsi.Device.
type Controller struct {
	scsidev.FailHook // an image changed on the host stops the machine
	p                Params
	drives           [maxLUNs]*drive

	t     *scsi.Target
	s     *sched.Scheduler
	sense sense
	buf   [bufferSize]byte
	x     *xfer // the data transfer in progress, nil when none

	// The command in progress, as values, so that every pending step can
	// be saved: the decoded CDB, the status to send, the bytes of a short
	// transfer (sense, mode, buffer) and what follows it, FORMAT's
	// arguments.
	cmd    command
	events events

	sectorObs sched.Observers[func(SectorEvent)]

	// Stats counts what the controller did.
	Stats Stats
}

// command is the state of the command in progress outside READ and WRITE:
// what every target model keeps (LUN, CDB, status, the short byte run) and
// FORMAT's arguments.
type command struct {
	scsidev.Command
	fmtIL int  // FORMAT UNIT interleave
	fill  byte // FORMAT UNIT fill byte
}

// What follows receiveBytes (scsidev.Command.Then).
const (
	thenBuffer     = 1 // WRITE BUFFER: into the buffer, GOOD
	thenModeSelect = 2 // MODE SELECT: apply to cmd.lun's drive
)

// Continuations of the controller's own bytes on the bus (scsi.Cont.Op),
// after the byte runs' (scsidev.OpSend, OpReceive).
const (
	kHostSend = scsidev.OpModel + iota // READ: Arg = index in the half of the byte sent
	kHostRecv                          // WRITE: Arg = index in the half of the byte received
)

// events are the controller's own steps: each is owned and named, so a
// pending one can be saved (sched.State).
type events struct {
	decode, status, seek, noID, sector, format sched.Event
	ecc                                        [2]sched.Event // per buffer half
}

// Stats counts controller activity for tests and reports: the counters
// every target model keeps (BlocksRead and BlocksWritten are sectors).
type Stats = scsidev.Stats

// Counts implements scsidev.Device.
func (c *Controller) Counts() scsidev.Stats { return c.Stats }

// drive is one ST-506 drive: its medium, head position and mode.
type drive struct {
	disk    *Disk
	geom    Geometry
	layout  []int // logical sector -> physical slot, from the format's interleave
	spin    spindle
	seek    seekCurve
	cyl     int
	head    int
	readyAt sched.Time // head on track and settled
	mode    [modeLength]byte
}

// New returns a controller with disk d0 on LUN 0 and, if not nil, d1 on
// LUN 1. A LUN without a disk answers NOT READY.
func New(p Params, d0, d1 *Disk) *Controller {
	c := &Controller{p: p}
	for i, d := range []*Disk{d0, d1} {
		if d == nil {
			continue
		}
		c.drives[i] = newDrive(p, d)
	}
	return c
}

func newDrive(p Params, d *Disk) *drive {
	g := d.meta.Geom()
	dr := &drive{disk: d, geom: g, spin: newSpindle(p, g.Sectors), seek: newSeekCurve(p)}
	dr.setLayout()
	dr.mode = defaultMode(g, d.Blocks())
	return dr
}

func (d *drive) setLayout() {
	il := d.disk.meta.Interleave
	if il < 1 {
		il = 1
	}
	d.layout = Interleave(d.geom.Sectors, il)
}

// Params returns the controller's parameters.
func (c *Controller) Params() Params { return c.p }

// Timing returns the scsi.Timing the controller's target engine should use.
func (c *Controller) Timing() scsi.Timing {
	t := scsi.DefaultTiming()
	t.ReqAfterAck = c.p.ReqAfterAck
	return t
}

// Revolution returns one platter revolution.
func (c *Controller) Revolution() sched.Time { return newSpindle(c.p, ST125.Sectors).revolution() }

// Attach connects a new controller with drives d0 and d1 (nil: none) to bus
// as SCSI ID id; name labels its events and must be unique on the machine
// (save states find events by name). It is the same idiom as
// mcd403.Attach; a machine attaches through Type (a scsidev.Spec).
func Attach(bus *scsi.Bus, id int, name string, p Params, d0, d1 *Disk) (*Controller, *scsi.Target) {
	c := New(p, d0, d1)
	t := scsi.NewTarget(bus, id, name, c, c.Timing())
	c.bind(t)
	return c, t
}

// bind takes the target engine the controller serves and sets up its own
// events, named after the target. A controller attached with
// scsi.NewTarget directly is bound at its first command.
func (c *Controller) bind(t *scsi.Target) {
	if c.t == t && c.s != nil {
		return
	}
	c.t, c.s = t, t.Sched()
	n := t.Name() + " "
	ev := &c.events
	ev.decode.Init(n+"decode", func(now sched.Time) { c.execute(now) })
	ev.status.Init(n+"status", c.sendStatus)
	ev.seek.Init(n+"seek complete", func(sched.Time) { c.good() })
	ev.noID.Init(n+"no ID", c.noIDFound)
	ev.sector.Init(n+"sector", c.sectorDone)
	ev.format.Init(n+"format done", c.formatDone)
	ev.ecc[0].Init(n+"ECC checked 0", func(now sched.Time) { c.eccChecked(now, 0) })
	ev.ecc[1].Init(n+"ECC checked 1", func(now sched.Time) { c.eccChecked(now, 1) })
	c.s.Own(c.ownEvents()...)
}

func (c *Controller) ownEvents() scsidev.Events {
	ev := &c.events
	return scsidev.Events{&ev.decode, &ev.status, &ev.seek, &ev.noID, &ev.sector, &ev.format, &ev.ecc[0], &ev.ecc[1]}
}

// after schedules the controller's own event e d from now.
func (c *Controller) after(e *sched.Event, d sched.Time) { c.s.ScheduleAfter(e, d) }

// Reset implements scsi.Device: bus RST aborts the command. Sectors already
// written stay written; the heads stay where they are.
func (c *Controller) Reset() {
	c.ownEvents().Cancel(c.s)
	c.x = nil
	c.cmd = command{}
	c.sense = sense{}
}

// Command implements scsi.Device.
func (c *Controller) Command(t *scsi.Target, cdb []byte) {
	c.bind(t)
	c.Stats.Commands++
	c.cmd = command{}
	c.cmd.Start(t, cdb)
	c.after(&c.events.decode, c.p.CommandOverhead)
}

func (c *Controller) execute(now sched.Time) {
	lun, cdb := c.cmd.LUN, c.cmd.CDB
	op := cdb[0]
	if op == OpRequestSense {
		c.requestSense(cdb)
		return
	}
	c.sense = sense{}
	if lun >= maxLUNs {
		c.check(sense{code: SenseInvalidLUN, lun: lun})
		return
	}
	switch op {
	case OpTestUnitReady, OpRezeroUnit, OpFormatUnit, OpRead, OpWrite, OpSeek, OpModeSelect, OpModeSense:
	case OpWriteBuffer:
		c.receiveBuffer()
		return
	case OpReadBuffer:
		c.sendBytes(c.buf[:])
		return
	default:
		c.check(sense{code: SenseInvalidCommand, lun: lun})
		return
	}
	d := c.drives[lun]
	if d == nil {
		c.check(sense{code: SenseNotReady, lun: lun})
		return
	}
	lba := int(cdb[1]&0x1f)<<16 | int(cdb[2])<<8 | int(cdb[3])
	count := int(cdb[4])
	switch op {
	case OpTestUnitReady:
		c.good()
	case OpRezeroUnit:
		c.seekTo(now, d, 0)
	case OpSeek:
		if lba >= d.disk.Blocks() {
			c.check(sense{code: SenseIllegalBlock, valid: true, lun: lun, lba: lba})
			return
		}
		cyl, _, _ := d.geom.CHS(lba)
		c.seekTo(now, d, cyl)
	case OpRead, OpWrite:
		if count == 0 {
			count = 256
		}
		if lba+count > d.disk.Blocks() {
			bad := max(lba, d.disk.Blocks())
			c.check(sense{code: SenseIllegalBlock, valid: true, lun: lun, lba: bad})
			return
		}
		if op == OpWrite && d.disk.f.ReadOnly() {
			c.check(sense{code: SenseWriteProtected, lun: lun})
			return
		}
		c.startTransfer(now, lun, d, op == OpWrite, lba, count)
	case OpFormatUnit:
		c.formatUnit(now, lun, d, cdb)
	case OpModeSelect:
		c.modeSelect(int(cdb[4]))
	case OpModeSense:
		n := min(int(cdb[4]), modeLength)
		c.sendBytes(d.mode[:n])
	}
}

func (c *Controller) good() { c.finish(scsi.StatusGood) }

// check records s and ends the command with CHECK CONDITION.
func (c *Controller) check(s sense) {
	c.sense = s
	c.Stats.Checks++
	c.finish(scsi.StatusCheckCondition)
}

// finish ends the command after the firmware's wrap-up.
func (c *Controller) finish(status byte) {
	c.cmd.Status = status
	c.after(&c.events.status, c.p.StatusOverhead)
}

func (c *Controller) sendStatus(sched.Time) {
	c.x = nil
	c.t.Complete(c.cmd.Status)
}

// requestSense returns the 4-byte sense for any LUN (an initiator must be
// able to learn why its command on a bad LUN failed) and clears it.
// Allocation length 0 means 4 bytes [F SCSI-1 non-extended sense].
func (c *Controller) requestSense(cdb []byte) {
	b := c.sense.bytes()
	c.sense = sense{}
	c.sendBytes(scsidev.SenseReply(b[:], cdb[4]))
}

// sendBytes sends data (a copy is kept) as DATA IN, then GOOD.
func (c *Controller) sendBytes(data []byte) {
	if !c.cmd.Send(c.t, data) {
		c.good()
	}
}

// receiveBytes takes n DATA OUT bytes, then goes on as then says.
func (c *Controller) receiveBytes(n int, then uint8) {
	if !c.cmd.Receive(c.t, n, then) {
		c.received()
	}
}

// Continue implements scsi.Continuer: the next step after a byte.
func (c *Controller) Continue(_ *scsi.Target, now sched.Time, k scsi.Cont, b byte) {
	switch c.cmd.Continue(c.t, k, b) {
	case scsidev.Sent:
		c.good()
		return
	case scsidev.Received:
		c.received()
		return
	case scsidev.Moving:
		return
	}
	switch k.Op {
	case kHostSend:
		c.hostSent(now, k.Arg)
	case kHostRecv:
		c.hostReceived(now, k.Arg, b)
	}
}

// received ends a receiveBytes.
func (c *Controller) received() {
	data := c.cmd.In
	switch c.cmd.Then {
	case thenBuffer:
		copy(c.buf[:], data)
		c.good()
	case thenModeSelect:
		if err := c.drives[c.cmd.LUN].applyMode(data); err != nil {
			c.check(sense{code: SenseBadArgument, lun: c.cmd.LUN})
			return
		}
		c.good()
	}
}

func (c *Controller) receiveBuffer() { c.receiveBytes(bufferSize, thenBuffer) }

// moveTo starts positioning d's heads over (cyl, head) at from and
// returns when they are ready, never before from. A cylinder change seeks
// along the curve; a head change on the same cylinder costs HeadSwitch.
func (c *Controller) moveTo(d *drive, cyl, head int, from sched.Time) sched.Time {
	start := max(from, d.readyAt)
	switch {
	case cyl != d.cyl:
		c.Stats.Seeks++
		d.readyAt = start + d.seek.time(cyl-d.cyl)
	case head != d.head:
		d.readyAt = start + c.p.HeadSwitch
	default:
		// No move: ready now, or when a move still under way ends. The
		// old ready time may lie long in the past; callers schedule from
		// what this returns.
		d.readyAt = start
	}
	d.cyl, d.head = cyl, head
	return d.readyAt
}

// seekTo moves d's heads to cyl and answers GOOD when they are there.
func (c *Controller) seekTo(now sched.Time, d *drive, cyl int) {
	ready := c.moveTo(d, cyl, d.head, now)
	c.after(&c.events.seek, max(ready-now, 0))
}

// defaultMode is what MODE SENSE returns before any MODE SELECT: the
// attached drive's geometry and capacity, buffered step [A].
func defaultMode(g Geometry, blocks int) [modeLength]byte {
	var m [modeLength]byte
	m[3] = 8 // block descriptor length
	m[5], m[6], m[7] = byte(blocks>>16), byte(blocks>>8), byte(blocks)
	m[9], m[10], m[11] = byte(g.SectorSize>>16), byte(g.SectorSize>>8), byte(g.SectorSize)
	m[12] = 1 // format code: soft-sectored [F ACB5500 p.95]
	m[13], m[14] = byte(g.Cylinders>>8), byte(g.Cylinders)
	m[15] = byte(g.Heads)
	m[16], m[17] = byte(g.Cylinders>>8), byte(g.Cylinders) // reduced write current: none
	m[18], m[19] = byte(g.Cylinders>>8), byte(g.Cylinders) // precompensation: none
	m[20] = 0                                              // landing zone
	m[21] = 2                                              // step code: 12 us buffered
	m[22] = 0
	m[23] = byte(g.Sectors)
	return m
}

// modeSelect takes the drive parameter list. The physical drive is fixed
// by the image; parameters are checked against it, stored for MODE SENSE,
// and the step code chooses buffered or unbuffered seeks [A].
func (c *Controller) modeSelect(n int) {
	if n == 0 {
		c.good()
		return
	}
	c.receiveBytes(n, thenModeSelect)
}

func (d *drive) applyMode(data []byte) error {
	if len(data) >= 12 && data[3] >= 8 {
		bl := int(data[9])<<16 | int(data[10])<<8 | int(data[11])
		if bl != d.geom.SectorSize {
			return fmt.Errorf("block length %d", bl)
		}
	}
	if len(data) >= modeLength {
		cyl := int(data[13])<<8 | int(data[14])
		heads := int(data[15])
		spt := int(data[23])
		switch {
		case data[12] != 1 && data[12] != 2:
			return fmt.Errorf("format code %d", data[12])
		case cyl < 1 || cyl > d.geom.Cylinders || heads < 1 || heads > d.geom.Heads:
			return fmt.Errorf("drive %d x %d exceeds the attached drive", cyl, heads)
		case spt != 0 && spt != d.geom.Sectors:
			return fmt.Errorf("%d sectors per track", spt)
		case data[21] > 2:
			return fmt.Errorf("step code %d", data[21])
		}
		d.seek.stepped = data[21] == 0
	}
	copy(d.mode[:], data)
	return nil
}

// formatUnit lays the track out at the CDB's interleave: byte 4, 0 means
// 1; byte 3 must be 0 and the interleave below the sectors per track, else
// bad argument [F ACB5500 p.72]. The fill byte is 6Ch, or byte 2 when byte
// 1 bit 1 is set. A defect list (byte 1 bit 4) is not supported [A].
func (c *Controller) formatUnit(now sched.Time, lun int, d *drive, cdb []byte) {
	il := int(cdb[4])
	if il == 0 {
		il = 1
	}
	if cdb[3] != 0 || il > d.geom.Sectors-1 || cdb[1]&0x10 != 0 {
		c.check(sense{code: SenseBadArgument, lun: lun})
		return
	}
	if d.disk.f.ReadOnly() {
		c.check(sense{code: SenseWriteProtected, lun: lun})
		return
	}
	fill := byte(FormatFill)
	if cdb[1]&0x02 != 0 {
		fill = cdb[2]
	}
	// Each track: wait for the index, write it, switch head; a step
	// between cylinders. Timed, not ticked.
	start := c.moveTo(d, 0, 0, now)
	tracks := d.geom.Cylinders * d.geom.Heads
	rev := d.spin.revolution()
	done := start + sched.Time(tracks*c.p.FormatTrackRevolutions)*rev +
		sched.Time(d.geom.Cylinders-1)*d.seek.time(1)
	d.cyl, d.head, d.readyAt = d.geom.Cylinders-1, d.geom.Heads-1, done
	c.cmd.fmtIL, c.cmd.fill = il, fill
	c.after(&c.events.format, done-now)
}

// formatDone writes the new format into the image when the last track is
// done.
func (c *Controller) formatDone(sched.Time) {
	lun := c.cmd.LUN
	d := c.drives[lun]
	if err := d.disk.format(c.cmd.fmtIL, c.cmd.fill); err != nil {
		c.mediumError(err)
		c.check(sense{code: SenseWriteFault, lun: lun})
		return
	}
	d.setLayout()
	c.good()
}
