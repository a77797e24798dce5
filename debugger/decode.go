package debugger

import (
	"fmt"
	"unsafe"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Segment is one stretch of the bus in one phase: SELECTION (arbitration
// and selection: SEL asserted), an information phase (entered at the first
// REQ with that MSG C/D I/O pattern, as the initiator samples it), or BUS
// FREE (BSY and SEL released). Bytes counts the bytes moved in it (ACK
// rising edges with REQ asserted); First keeps the first of them, which is
// the whole CDB, status or message.
type Segment struct {
	Phase  scsi.Phase
	Start  sched.Time
	End    sched.Time // 0 while the segment is the current one
	Target int        // selected target ID, -1 if unknown
	Bytes  int
	First  [16]byte
}

// FirstBytes returns the recorded bytes (at most 16).
func (s *Segment) FirstBytes() []byte { return s.First[:min(s.Bytes, len(s.First))] }

// Command is one SCSI command as the bus shows it: the CDB, the data moved
// and the status and message that ended it.
type Command struct {
	Target  int
	Start   sched.Time // COMMAND phase entered
	End     sched.Time // bus free after it (0 while in progress)
	CDB     [12]byte
	CDBLen  int // bytes received so far
	DataIn  int
	DataOut int
	Status  int // -1 until the STATUS phase
	Message int // -1 until MESSAGE IN
	// Memory is where the DATA IN's first byte went in memory (-1: not
	// known; transfer.go finds it while the command runs).
	Memory   int32
	complete bool
}

// Bytes returns the CDB bytes received.
func (c *Command) Bytes() []byte { return c.CDB[:min(c.CDBLen, len(c.CDB))] }

// Opcode is the CDB's first byte (-1 if none yet).
func (c *Command) Opcode() int {
	if c.CDBLen == 0 {
		return -1
	}
	return int(c.CDB[0])
}

// listener is told what the decoder sees (the Debugger's stop conditions).
type listener interface {
	edge(now sched.Time)
	segmentStarted(s *Segment)
	transfer(now sched.Time, p scsi.Phase, b uint8)
	commandReady(c *Command) // the CDB is complete
}

// Ring sizes of the decoder. [A] 16 Ki segments and 4 Ki commands cover
// the window of the default edge ring (a backup moves about 8 segments per
// command).
const (
	segmentRing = 1 << 14
	commandRing = 1 << 12
)

// decoder follows the bus edge by edge.
type decoder struct {
	initiator int // the host's SCSI ID, excluded when reading the target ID
	segs      ring[Segment]
	cmds      ring[Command]
	cur       *Segment
	prev      Segment // a copy of the segment that ended last
	cmd       *Command
	target    int
	l         listener
}

func (d *decoder) init() {
	d.initiator = 7
	d.segs = ring[Segment]{buf: make([]Segment, segmentRing)}
	d.cmds = ring[Command]{buf: make([]Command, commandRing)}
	d.target = -1
}

func (d *decoder) memoryBytes() int {
	return len(d.segs.buf)*int(sizeofSegment) + len(d.cmds.buf)*int(sizeofCommand)
}

// The rings' element sizes as the compiler lays them out (fixed-size
// structs: no element points to memory of its own).
const (
	sizeofSegment = unsafe.Sizeof(Segment{})
	sizeofCommand = unsafe.Sizeof(Command{})
)

func (d *decoder) start(now sched.Time, p scsi.Phase) {
	if d.cur != nil {
		d.cur.End = now
		d.prev = *d.cur
	}
	s := d.segs.add(Segment{Phase: p, Start: now, Target: d.target})
	d.cur = s
	if p == scsi.Command {
		d.cmd = d.cmds.add(Command{Target: d.target, Start: now, Status: -1, Message: -1, Memory: -1})
	}
	if d.l != nil {
		d.l.segmentStarted(s)
	}
}

func (d *decoder) bus(now sched.Time, prev, l scsi.Line, data uint8) {
	rose := l &^ prev
	switch {
	case l&scsi.SEL != 0:
		if d.cur == nil || d.cur.Phase != scsi.Selection {
			d.target = -1
			d.start(now, scsi.Selection)
		}
		// The target answers by asserting BSY while SEL is still on; its
		// ID bit and the initiator's are on the data bus.
		if l&scsi.BSY != 0 && d.target < 0 {
			if ids := data &^ (1 << d.initiator); ids != 0 {
				for id := 0; id < 8; id++ {
					if ids&(1<<id) != 0 {
						d.target = id
						break
					}
				}
				d.cur.Target = d.target
			}
		}
	case l&scsi.BSY == 0:
		if d.cur == nil || d.cur.Phase != scsi.BusFree {
			if d.cmd != nil {
				d.cmd.End = now
				d.cmd = nil
			}
			d.start(now, scsi.BusFree)
			d.target = -1
		}
	default:
		if rose&scsi.REQ != 0 {
			p := scsi.InfoPhase(l)
			if d.cur == nil || d.cur.Phase != p {
				d.start(now, p)
			}
		}
		if rose&scsi.ACK != 0 && l&scsi.REQ != 0 && d.cur != nil {
			d.byteMoved(now, scsi.InfoPhase(l), data)
		}
	}
}

func (d *decoder) byteMoved(now sched.Time, p scsi.Phase, b uint8) {
	s := d.cur
	if s.Bytes < len(s.First) {
		s.First[s.Bytes] = b
	}
	s.Bytes++
	if c := d.cmd; c != nil {
		switch p {
		case scsi.Command:
			if c.CDBLen < len(c.CDB) {
				c.CDB[c.CDBLen] = b
			}
			c.CDBLen++
		case scsi.DataIn:
			c.DataIn++
		case scsi.DataOut:
			c.DataOut++
		case scsi.Status:
			c.Status = int(b)
		case scsi.MsgIn:
			c.Message = int(b)
		}
	}
	if d.l != nil {
		d.l.transfer(now, p, b)
		if c := d.cmd; c != nil && p == scsi.Command && c.CDBLen == scsi.CDBLen(c.CDB[0]) {
			d.l.commandReady(c)
		}
	}
}

// Previous returns the segment that ended last.
func (r *Recorder) Previous() Segment { return r.dec.prev }

// Current returns the segment the bus is in now (nil before any edge).
func (r *Recorder) Current() *Segment { return r.dec.cur }

// CurrentCommand returns the command in progress (nil between commands).
func (r *Recorder) CurrentCommand() *Command { return r.dec.cmd }

// SetInitiator tells the decoder the host's SCSI ID (default 7), which is
// left out when it reads the selected target's ID from the data bus.
func (r *Recorder) SetInitiator(id int) { r.dec.initiator = id }

// Segments returns copies of the kept segments that overlap [from, to),
// oldest first. The current segment has End 0.
func (r *Recorder) Segments(from, to sched.Time) []Segment {
	return r.dec.segs.overlapping(from, to, func(s *Segment) (sched.Time, sched.Time) { return s.Start, s.End })
}

// Commands returns copies of the kept commands that overlap [from, to),
// oldest first.
func (r *Recorder) Commands(from, to sched.Time) []Command {
	return r.dec.cmds.overlapping(from, to, func(c *Command) (sched.Time, sched.Time) { return c.Start, c.End })
}

// CommandAfter returns the first kept command that started after t.
func (r *Recorder) CommandAfter(t sched.Time) (Command, bool) {
	for _, c := range r.Commands(t, sched.MaxTime) {
		if c.Start > t {
			return c, true
		}
	}
	return Command{}, false
}

// CommandBefore returns the last kept command that started before t.
func (r *Recorder) CommandBefore(t sched.Time) (Command, bool) {
	cs := r.Commands(0, t)
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Start < t {
			return cs[i], true
		}
	}
	return Command{}, false
}

// CommandAt returns the kept command that started at t.
func (r *Recorder) CommandAt(t sched.Time) (Command, bool) {
	for _, c := range r.Commands(t, t+1) {
		if c.Start == t {
			return c, true
		}
	}
	return Command{}, false
}

// ring keeps the newest len(buf) values of a decoder's record, overwriting
// the oldest.
type ring[T any] struct {
	buf  []T
	head int // where the next value goes
	n    int // values kept
}

// add stores v as the newest value and returns where it is kept (until
// the ring comes round to it again).
func (r *ring[T]) add(v T) *T {
	p := &r.buf[r.head]
	*p = v
	r.head = (r.head + 1) % len(r.buf)
	if r.n < len(r.buf) {
		r.n++
	}
	return p
}

// clear forgets every value.
func (r *ring[T]) clear() { r.head, r.n = 0, 0 }

// overlapping returns copies of the kept values that overlap [from, to),
// oldest first; span gives a value's start and end (0 while it lasts).
func (r *ring[T]) overlapping(from, to sched.Time, span func(*T) (start, end sched.Time)) []T {
	var out []T
	for i := 0; i < r.n; i++ {
		j := r.head - r.n + i
		if j < 0 {
			j += len(r.buf)
		}
		v := &r.buf[j]
		if start, end := span(v); start >= to || (end != 0 && end <= from) {
			continue
		}
		out = append(out, *v)
	}
	return out
}

// Kind says how to name a target's opcodes: a disk or a tape (01h is
// REWIND on a tape). Both address blocks by number.
type Kind int

// Target kinds.
const (
	Disk Kind = iota
	Tape
)

var opNames = map[byte]string{
	0x00: "TEST UNIT READY", 0x01: "REZERO UNIT", 0x03: "REQUEST SENSE",
	0x04: "FORMAT UNIT", 0x05: "READ BLOCK LIMITS", 0x07: "REASSIGN BLOCKS",
	0x08: "READ(6)", 0x0A: "WRITE(6)", 0x0B: "SEEK(6)", 0x10: "WRITE FILEMARKS",
	0x11: "SPACE", 0x12: "INQUIRY", 0x15: "MODE SELECT(6)", 0x16: "RESERVE",
	0x17: "RELEASE", 0x19: "ERASE", 0x1A: "MODE SENSE(6)", 0x1B: "LOAD UNLOAD",
	0x1C: "RECEIVE DIAGNOSTIC", 0x1D: "SEND DIAGNOSTIC", 0x25: "READ CAPACITY",
	0x28: "READ(10)", 0x2A: "WRITE(10)", 0x2F: "VERIFY(10)",
}

var tapeOpNames = map[byte]string{0x01: "REWIND", 0x1B: "LOAD UNLOAD"}

// DecodeCDB renders a CDB in words, e.g. "READ(6) LUN 0 LBA 0 blocks 1",
// following SCSI-1's field layout for a disk or a tape.
func DecodeCDB(cdb []byte, kind Kind) string {
	if len(cdb) == 0 {
		return "(no CDB)"
	}
	op := cdb[0]
	name, ok := opNames[op]
	if kind == Tape {
		if n, ok2 := tapeOpNames[op]; ok2 {
			name, ok = n, true
		}
	}
	if !ok {
		name = fmt.Sprintf("opcode %02Xh", op)
	}
	if len(cdb) < scsi.CDBLen(op) {
		return fmt.Sprintf("%s (CDB cut short: % X)", name, cdb)
	}
	lun := cdb[1] >> 5
	s := fmt.Sprintf("%s LUN %d", name, lun)
	switch op {
	case 0x08, 0x0A, 0x0B:
		// The MCD-403 addresses its blocks like a disk (docs/TAPE.md):
		// the same layout serves both kinds.
		lba := int(cdb[1]&0x1F)<<16 | int(cdb[2])<<8 | int(cdb[3])
		if op == 0x0B {
			return fmt.Sprintf("%s LBA %d", s, lba)
		}
		n := int(cdb[4])
		if n == 0 {
			n = 256
		}
		return fmt.Sprintf("%s LBA %d blocks %d", s, lba, n)
	case 0x28, 0x2A, 0x2F:
		lba := int(cdb[2])<<24 | int(cdb[3])<<16 | int(cdb[4])<<8 | int(cdb[5])
		return fmt.Sprintf("%s LBA %d blocks %d", s, lba, int(cdb[7])<<8|int(cdb[8]))
	case 0x03, 0x12, 0x1A:
		return fmt.Sprintf("%s length %d", s, cdb[4])
	case 0x04:
		return fmt.Sprintf("%s interleave %d", s, int(cdb[3])<<8|int(cdb[4]))
	case 0x10, 0x11:
		n := int(int32(uint32(cdb[2])<<24|uint32(cdb[3])<<16|uint32(cdb[4])<<8) >> 8)
		return fmt.Sprintf("%s count %d", s, n)
	}
	return s
}

// StatusName names a status byte.
func StatusName(b int) string {
	switch b & 0x3E {
	case 0x00:
		return "GOOD"
	case 0x02:
		return "CHECK CONDITION"
	case 0x04:
		return "CONDITION MET"
	case 0x08:
		return "BUSY"
	case 0x10:
		return "INTERMEDIATE"
	case 0x18:
		return "RESERVATION CONFLICT"
	}
	return fmt.Sprintf("status %02Xh", b)
}

// MessageName names a message byte.
func MessageName(b int) string {
	switch {
	case b == 0x00:
		return "COMMAND COMPLETE"
	case b == 0x02:
		return "SAVE DATA POINTER"
	case b == 0x03:
		return "RESTORE POINTERS"
	case b == 0x04:
		return "DISCONNECT"
	case b == 0x05:
		return "INITIATOR DETECTED ERROR"
	case b == 0x06:
		return "ABORT"
	case b == 0x07:
		return "MESSAGE REJECT"
	case b == 0x08:
		return "NO OPERATION"
	case b&0x80 != 0:
		return fmt.Sprintf("IDENTIFY LUN %d", b&7)
	}
	return fmt.Sprintf("message %02Xh", b)
}

// Describe renders a segment in words: the selected target, the CDB, the
// byte count, the status or the message.
func (s *Segment) Describe(kind func(target int) Kind) string {
	switch s.Phase {
	case scsi.Selection:
		if s.Target < 0 {
			return "arbitration/selection, no target answered yet"
		}
		return fmt.Sprintf("arbitration/selection of target %d", s.Target)
	case scsi.BusFree:
		return "bus free"
	case scsi.Command:
		k := Disk
		if kind != nil {
			k = kind(s.Target)
		}
		return DecodeCDB(s.FirstBytes(), k)
	case scsi.Status:
		if s.Bytes == 0 {
			return "no status byte yet"
		}
		return fmt.Sprintf("%s (%02Xh)", StatusName(int(s.First[0])), s.First[0])
	case scsi.MsgIn, scsi.MsgOut:
		if s.Bytes == 0 {
			return "no message byte yet"
		}
		return fmt.Sprintf("%s (%02Xh)", MessageName(int(s.First[0])), s.First[0])
	}
	return fmt.Sprintf("%d bytes", s.Bytes)
}
