package acb4000

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// ObserveSectors adds fn to the observers told of every sector the
// formatter arms for (experiments, traces, the debugger) and returns a
// function that removes it. With none the sector path skips the report.
func (c *Controller) ObserveSectors(fn func(SectorEvent)) (remove func()) {
	return c.sectorObs.Add(fn, nil)
}

func (c *Controller) notifySector(e SectorEvent) {
	for _, fn := range c.sectorObs.List() {
		fn(e)
	}
}

// HalfState is one half of the 1 KB buffer.
type HalfState struct {
	State  uint8 // 0 free, 1 busy (being filled or drained), 2 full
	Sector int   // index within the transfer
	At     sched.Time
}

var halfNames = [...]string{"free", "busy", "full"}

// String names the half's state for display.
func (h HalfState) String() string { return halfNames[h.State] }

// TransferState is a READ or WRITE in progress.
type TransferState struct {
	LUN                int
	Write              bool
	LBA, Count         int
	Disk, Host         int // sectors done by the formatter and by the SCSI side
	Halves             [2]HalfState
	DiskBusy, HostBusy bool
	FwFree, FmtFree    sched.Time
	Failed             bool
	SecHalf, SecLBA    int
	SecIDAt            sched.Time
	HostHalf           int
}

// DriveState is one drive's mechanics. The spindle needs no state: its
// angle is a function of time (spindle.go), so restoring the time restores
// it. Slot is the physical slot under the head when State was taken, for
// display only.
type DriveState struct {
	Present   bool // a drive on this LUN
	Cyl, Head int
	ReadyAt   sched.Time // heads on track and settled
	Mode      [modeLength]byte
	Stepped   bool // unbuffered seeks (MODE SELECT step code 0)
	Slot      int
}

// SenseState is the sense register.
type SenseState struct {
	Code  byte
	Valid bool
	LUN   int
	LBA   int
}

// State is the controller's complete state, for display and save states.
type State struct {
	Sense    SenseState
	Buffer   [bufferSize]byte
	Transfer *TransferState
	// The command in progress (see command).
	LUN          int
	CDB          []byte
	Status       byte
	Out, In      []byte
	InN          int
	InThen       uint8
	FormatIL     int
	FormatFill   byte
	Drives       [maxLUNs]DriveState
	Stats        Stats
	Bound        bool // attached to a target (events set up)
	PendingEvent []string
}

// State returns the controller's state; looking changes nothing.
func (c *Controller) State() State {
	st := State{Sense: SenseState{c.sense.code, c.sense.valid, c.sense.lun, c.sense.lba}, Buffer: c.buf,
		LUN: c.cmd.LUN, CDB: scsidev.CloneBytes(c.cmd.CDB), Status: c.cmd.Status, Out: scsidev.CloneBytes(c.cmd.Out), In: scsidev.CloneBytes(c.cmd.In),
		InN: c.cmd.InN, InThen: c.cmd.Then, FormatIL: c.cmd.fmtIL, FormatFill: c.cmd.fill, Stats: c.Stats, Bound: c.s != nil}
	if x := c.x; x != nil {
		ts := &TransferState{LUN: x.lun, Write: x.write, LBA: x.lba, Count: x.count, Disk: x.disk, Host: x.host,
			DiskBusy: x.diskBusy, HostBusy: x.hostBusy, FwFree: x.fwFree, FmtFree: x.fmtFree, Failed: x.failed,
			SecHalf: x.secHalf, SecLBA: x.secLBA, SecIDAt: x.secIDAt, HostHalf: x.hostHalf}
		for i, h := range x.halves {
			ts.Halves[i] = HalfState{uint8(h.state), h.sector, h.at}
		}
		st.Transfer = ts
	}
	for i, d := range c.drives {
		if d == nil {
			continue
		}
		ds := DriveState{Present: true, Cyl: d.cyl, Head: d.head, ReadyAt: d.readyAt, Mode: d.mode, Stepped: d.seek.stepped}
		if c.s != nil {
			ds.Slot, _ = d.spin.angle(c.s.Now())
		}
		st.Drives[i] = ds
	}
	if c.s != nil {
		st.PendingEvent = c.ownEvents().Pending()
	}
	return st
}

// SetState puts the controller in state st. The controller must be
// attached (Attach) with the same drives; the scheduler restores its
// pending events.
func (c *Controller) SetState(st State) error {
	if c.s == nil && st.Bound {
		return fmt.Errorf("acb4000: restoring a controller that is not attached to its target")
	}
	for i, d := range c.drives {
		if (d != nil) != st.Drives[i].Present {
			return fmt.Errorf("acb4000: LUN %d: saved with a drive %v, restored with one %v", i, st.Drives[i].Present, d != nil)
		}
	}
	if x := st.Transfer; x != nil && (x.LUN < 0 || x.LUN >= maxLUNs || c.drives[x.LUN] == nil) {
		return fmt.Errorf("acb4000: saved transfer on LUN %d, which has no drive", x.LUN)
	}
	c.sense = sense{code: st.Sense.Code, valid: st.Sense.Valid, lun: st.Sense.LUN, lba: st.Sense.LBA}
	c.buf = st.Buffer
	c.cmd = command{Command: scsidev.Command{LUN: st.LUN, CDB: scsidev.CloneBytes(st.CDB), Status: st.Status, Out: scsidev.CloneBytes(st.Out),
		In: scsidev.CloneBytes(st.In), InN: st.InN, Then: st.InThen}, fmtIL: st.FormatIL, fill: st.FormatFill}
	c.x = nil
	if ts := st.Transfer; ts != nil {
		x := &xfer{lun: ts.LUN, d: c.drives[ts.LUN], write: ts.Write, lba: ts.LBA, count: ts.Count, disk: ts.Disk,
			host: ts.Host, diskBusy: ts.DiskBusy, hostBusy: ts.HostBusy, fwFree: ts.FwFree, fmtFree: ts.FmtFree,
			failed: ts.Failed, secHalf: ts.SecHalf, secLBA: ts.SecLBA, secIDAt: ts.SecIDAt, hostHalf: ts.HostHalf}
		for i, h := range ts.Halves {
			x.halves[i] = half{halfState(h.State), h.Sector, h.At}
		}
		c.x = x
	}
	for i, d := range c.drives {
		if d == nil {
			continue
		}
		ds := st.Drives[i]
		d.cyl, d.head, d.readyAt, d.mode, d.seek.stepped = ds.Cyl, ds.Head, ds.ReadyAt, ds.Mode, ds.Stepped
		d.setLayout()
	}
	c.Stats = st.Stats
	return nil
}

// SaveState implements scsidev.Saver (gob: the controller's State and the
// target engine's).
func (c *Controller) SaveState() ([]byte, error) {
	return scsidev.SaveTarget("acb4000", c.t, c.State)
}

// LoadState implements scsidev.Saver.
func (c *Controller) LoadState(data []byte) error {
	return scsidev.LoadTarget("acb4000", c.t, data, c.SetState)
}

// Target returns the target engine the controller serves (nil before it
// is attached), for statistics and the debugger.
func (c *Controller) Target() *scsi.Target { return c.t }
