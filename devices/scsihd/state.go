package scsihd

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// TransferState is a READ, WRITE or VERIFY in progress.
type TransferState = xfer

// SegmentState is the read-ahead segment.
type SegmentState = segment

// State is the drive's complete state, for display and save states. The
// spindle needs none: its angle is a function of time.
type State struct {
	Sense    sense
	Command  scsidev.Command
	Transfer *TransferState
	Buffer   []byte
	Cyl      int
	Head     int
	ReadyAt  sched.Time
	Segment  SegmentState
	Stopped  bool
	SpunUpAt sched.Time
	Stats    Stats
	Bound    bool
	Slot     int // under the head when State was taken, for display
	Pending  []string
}

// State returns the drive's state; looking changes nothing.
func (d *Drive) State() State {
	st := State{Sense: d.sense, Command: d.cmd.Clone(), Buffer: scsidev.CloneBytes(d.buf), Cyl: d.cyl, Head: d.head,
		ReadyAt: d.readyAt, Segment: d.seg, Stopped: d.stopped, SpunUpAt: d.spunUpAt, Stats: d.stats, Bound: d.s != nil}
	if d.x != nil {
		x := *d.x
		st.Transfer = &x
	}
	if d.s != nil {
		st.Slot = d.m.angle(d.s.Now())
		st.Pending = d.events.list().Pending()
	}
	return st
}

// SetState puts the drive in state st. The drive must be attached with
// the same image and parameters; the scheduler restores its pending
// events.
func (d *Drive) SetState(st State) error {
	if d.s == nil && st.Bound {
		return fmt.Errorf("scsihd: restoring a drive that is not attached to its target")
	}
	if len(st.Buffer) != len(d.buf) {
		return fmt.Errorf("scsihd: saved with a buffer of %d bytes, restored with %d", len(st.Buffer), len(d.buf))
	}
	if x := st.Transfer; x != nil && x.LBA+int64(x.Count) > d.m.blocks {
		return fmt.Errorf("scsihd: saved transfer of blocks %d-%d, but the image has %d", x.LBA, x.LBA+int64(x.Count)-1, d.m.blocks)
	}
	d.sense, d.cmd = st.Sense, st.Command.Clone()
	copy(d.buf, st.Buffer)
	d.x = nil
	if st.Transfer != nil {
		x := *st.Transfer
		d.x = &x
	}
	d.cyl, d.head, d.readyAt, d.seg = st.Cyl, st.Head, st.ReadyAt, st.Segment
	d.stopped, d.spunUpAt, d.stats = st.Stopped, st.SpunUpAt, st.Stats
	return nil
}

// SaveState implements scsidev.Saver.
func (d *Drive) SaveState() ([]byte, error) { return scsidev.SaveTarget("scsihd", d.t, d.State) }

// LoadState implements scsidev.Saver.
func (d *Drive) LoadState(data []byte) error {
	return scsidev.LoadTarget("scsihd", d.t, data, d.SetState)
}

// Target returns the target engine the drive serves (nil before it is
// attached).
func (d *Drive) Target() *scsi.Target { return d.t }
