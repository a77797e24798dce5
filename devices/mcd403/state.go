package mcd403

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Observe adds fn to the observers told of the drive's decisions (command
// start, FIFO full, block complete, deadline missed, launch, slot read or
// written, reset), for bus traces and debuggers, and returns a function
// that removes it. With none attached no text is formatted.
func (d *Drive) Observe(fn func(now sched.Time, event string)) (remove func()) {
	return d.obs.Add(fn, nil)
}

func (d *Drive) notify(event string) {
	now := d.s.Now()
	for _, fn := range d.obs.List() {
		fn(now, event)
	}
}

// CommandState is the READ or WRITE in progress.
type CommandState struct {
	Write      bool
	Block      int // block being moved now
	Last       int // last block of the command
	Buf        []byte
	Received   int // DATA OUT bytes taken from the bus
	Stored     int // bytes copied from the FIFO into the buffer
	FIFO       int // bytes waiting in the FIFO
	Draining   bool
	ReqPending bool
	Complete   bool
	CompleteAt sched.Time
	Sending    bool
	DrainN     int
	// The second buffer of a multi-block WRITE (nil without one).
	Spare         []byte
	Ahead         bool
	AheadComplete bool
	AheadAt       sched.Time
}

// State is the drive's complete state, for display and save states: the
// motion (a standstill position, or a position and the time it held while
// streaming), the block the tape heads for, the command with its buffer
// and FIFO, the sense, the counters and the arguments of the pending
// events (the scheduler restores the events themselves).
type State struct {
	Loaded         bool
	RetensionUntil sched.Time
	Moving         bool
	X0             sched.Time // tape position (distance at write speed)
	T0             sched.Time
	BusyUntil      sched.Time
	Target         int
	TargetWrite    bool
	BackedUpFor    int
	Command        *CommandState
	Sense          [senseFields]uint32
	Stats          Stats
	Plan, Idle     string // names of the pending plan and idle events

	LUN          int
	CDB          []byte
	Status       byte
	Out, In      []byte
	InN          int
	Then         uint8
	DeadlineB    int
	LaunchB      int
	SlotB        int
	WrittenB     int
	ReadB        int
	CheckedB     int
	PreparedB    int
	DeadlineOp   uint8
	LaunchOp     uint8
	SlotOp       uint8
	DeadlineSlot sched.Time
	LaunchAt     sched.Time
	CheckedFail  bool
	CheckedBlank bool

	Interleave int // of the cartridge: checked on restore
	// For display: the head's place on the path now, whether the tape
	// streams at speed, and the track and physical slot under the head
	// (Slot -1 in a turnaround or before the first slot).
	Position  sched.Time
	Streaming bool
	Track     int
	Slot      int
	Block     int // the logical block of that slot at the cartridge's interleave, -1 when none
}

const senseFields = 6

func (s sense) fields() [senseFields]uint32 {
	return [senseFields]uint32{uint32(s.key), uint32(s.asc), uint32(s.ascq), b2u(s.eom), b2u(s.valid), s.info}
}

func senseFrom(f [senseFields]uint32) sense {
	return sense{key: byte(f[0]), asc: byte(f[1]), ascq: byte(f[2]), eom: f[3] != 0, valid: f[4] != 0, info: f[5]}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// State returns the drive's state; looking changes nothing.
func (d *Drive) State() State {
	p := &d.pend
	st := State{Loaded: d.loaded, RetensionUntil: d.retensionUntil, Moving: d.moving, X0: d.x0, T0: d.t0,
		BusyUntil: d.busyUntil, Target: d.target, TargetWrite: d.targetOp == opWrite, BackedUpFor: d.backedUpFor,
		Sense: d.sense.fields(), Stats: d.stats,
		LUN: p.LUN, CDB: scsidev.CloneBytes(p.CDB), Status: p.Status, Out: scsidev.CloneBytes(p.Out), In: scsidev.CloneBytes(p.In), InN: p.InN, Then: p.Then,
		DeadlineB: p.deadlineB, LaunchB: p.launchB, SlotB: p.slotB, WrittenB: p.writtenB, ReadB: p.readB, CheckedB: p.checkedB,
		PreparedB: p.preparedB, DeadlineOp: uint8(p.deadlineOp), LaunchOp: uint8(p.launchOp), SlotOp: uint8(p.slotOp),
		DeadlineSlot: p.deadlineSlot, LaunchAt: p.launchAt, CheckedFail: p.checkedFail, CheckedBlank: p.checkedBlank}
	if d.plan1 != nil {
		st.Plan = d.plan1.Name()
	}
	if d.idle != nil {
		st.Idle = d.idle.Name()
	}
	if d.tape != nil {
		st.Interleave = d.tape.Interleave()
	}
	st.Position = d.x0
	if d.s != nil && d.moving && d.s.Now() >= d.t0 {
		st.Position, st.Streaming = d.posAt(d.s.Now()), true
	}
	st.Track, st.Slot = d.slotAt(st.Position)
	st.Block = -1
	if st.Slot >= 0 && d.tape != nil {
		st.Block = d.lay.logical(st.Slot)
	}
	if c := d.cmd; c != nil {
		st.Command = &CommandState{Write: c.op == opWrite, Block: c.block, Last: c.last, Buf: scsidev.CloneBytes(c.buf),
			Received: c.received, Stored: c.stored, FIFO: c.fifo, Draining: c.draining, ReqPending: c.reqPending,
			Complete: c.complete, CompleteAt: c.completeAt, Sending: c.sending, DrainN: c.drainN,
			Spare: scsidev.CloneBytes(c.spare), Ahead: c.ahead, AheadComplete: c.aheadComplete, AheadAt: c.aheadAt}
	}
	return st
}

// slotAt returns the track and the physical slot at path position x (slot
// -1 before the first slot, in a turnaround or past the last).
func (d *Drive) slotAt(x position) (track, slot int) {
	rel := x - d.startOffset()
	if rel < 0 {
		return 0, -1
	}
	trackLen := sched.Time(d.p.SlotsPerTrack()) * d.p.SlotTime
	seg := trackLen + d.p.Turnaround
	track = int(rel / seg)
	within := rel % seg
	if track >= d.p.Tracks || within >= trackLen {
		return min(track, d.p.Tracks-1), -1
	}
	return track, track*d.p.SlotsPerTrack() + int(within/d.p.SlotTime)
}

// SetState puts the drive in state st. The drive must be attached (Attach)
// with a cartridge of the same interleave when one was loaded.
func (d *Drive) SetState(st State) error {
	if d.s == nil {
		return fmt.Errorf("mcd403: restoring a drive that is not attached to its target")
	}
	if d.tape != nil && st.Interleave != d.tape.Interleave() {
		return fmt.Errorf("mcd403: saved with a cartridge at interleave %d, restored with one at %d", st.Interleave, d.tape.Interleave())
	}
	if st.Loaded && d.tape == nil {
		return fmt.Errorf("mcd403: saved with a cartridge loaded, restored without one")
	}
	find := func(name string) (*sched.Event, error) {
		if name == "" {
			return nil, nil
		}
		for _, e := range d.events() {
			if e.Name() == name {
				return e, nil
			}
		}
		return nil, fmt.Errorf("mcd403: saved event %q is not the drive's", name)
	}
	plan1, err := find(st.Plan)
	if err != nil {
		return err
	}
	idle, err := find(st.Idle)
	if err != nil {
		return err
	}
	if c := st.Command; c != nil && (len(c.Buf) != d.p.BlockSize || c.Received > d.p.BlockSize ||
		(c.Spare != nil && len(c.Spare) != d.p.BlockSize) || (c.Ahead && c.Spare == nil)) {
		return fmt.Errorf("mcd403: saved block buffer of %d bytes, the drive's is %d", len(c.Buf), d.p.BlockSize)
	}
	d.loaded, d.retensionUntil, d.moving, d.x0, d.t0, d.busyUntil = st.Loaded, st.RetensionUntil, st.Moving, st.X0, st.T0, st.BusyUntil
	d.target, d.backedUpFor = st.Target, st.BackedUpFor
	d.targetOp = opRead
	if st.TargetWrite {
		d.targetOp = opWrite
	}
	d.sense, d.stats, d.plan1, d.idle = senseFrom(st.Sense), st.Stats, plan1, idle
	d.pend = pend{Command: scsidev.Command{LUN: st.LUN, CDB: scsidev.CloneBytes(st.CDB), Status: st.Status, Out: scsidev.CloneBytes(st.Out),
		In: scsidev.CloneBytes(st.In), InN: st.InN, Then: st.Then}, deadlineB: st.DeadlineB, launchB: st.LaunchB, slotB: st.SlotB, writtenB: st.WrittenB,
		readB: st.ReadB, checkedB: st.CheckedB, preparedB: st.PreparedB, deadlineOp: op(st.DeadlineOp), launchOp: op(st.LaunchOp),
		slotOp: op(st.SlotOp), deadlineSlot: st.DeadlineSlot, launchAt: st.LaunchAt,
		checkedFail: st.CheckedFail, checkedBlank: st.CheckedBlank}
	d.cmd = nil
	if c := st.Command; c != nil {
		o := opRead
		if c.Write {
			o = opWrite
		}
		d.cmd = &command{op: o, block: c.Block, last: c.Last, buf: scsidev.CloneBytes(c.Buf), received: c.Received, stored: c.Stored,
			fifo: c.FIFO, draining: c.Draining, reqPending: c.ReqPending, complete: c.Complete, completeAt: c.CompleteAt,
			sending: c.Sending, drainN: c.DrainN,
			spare: scsidev.CloneBytes(c.Spare), ahead: c.Ahead, aheadComplete: c.AheadComplete, aheadAt: c.AheadAt}
	}
	if d.tape != nil {
		d.lay = newLayout(d.p.Blocks, d.tape.Interleave())
	}
	return nil
}

// SaveState implements scsidev.Saver (gob: the drive's State and the
// target engine's).
func (d *Drive) SaveState() ([]byte, error) {
	return scsidev.SaveTarget("mcd403", d.t, d.State)
}

// LoadState implements scsidev.Saver.
func (d *Drive) LoadState(data []byte) error {
	return scsidev.LoadTarget("mcd403", d.t, data, d.SetState)
}

// Target returns the target engine the drive serves (nil before it is
// attached), for statistics and the debugger.
func (d *Drive) Target() *scsi.Target { return d.t }
