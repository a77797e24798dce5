package acb4000

import (
	"errors"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The data path of READ and WRITE. Two independent sides meet at the 1 KB
// buffer, two 512-byte halves [F ACB-OEM]:
//
//   - the disk side (formatter) moves one sector at a time between a half
//     and the platter, at the sector's slot, 1.6 us a byte;
//   - the SCSI side moves one half at a time between the buffer and the
//     host, a byte per REQ/ACK, as fast as the initiator answers.
//
// Store and forward [A, docs/HARDWARE.md 9.1]: the host gets a read sector
// only once the whole of it is in and its ECC checked; a written sector
// goes to the platter only once all its 512 bytes are in. The formatter can take a
// sector only if it is armed before the sector's ID passes: armed at the
// latest of (buffer half ready or the previous ID found) + ArmLatency,
// (previous data field ended) + ChainLatency, and the head on track. If the
// ID passes earlier the sector waits a whole revolution. No rule looks at
// the interleave: lost revolutions emerge from these times.

type halfState uint8

const (
	halfFree halfState = iota
	halfBusy           // being filled or drained
	halfFull           // holds a whole sector for the other side
)

type half struct {
	state  halfState
	sector int        // index within the transfer
	at     sched.Time // when it last became free or full
}

// xfer is the state of one READ or WRITE.
type xfer struct {
	lun        int
	d          *drive
	write      bool
	lba, count int
	disk, host int // sectors done by the disk side and by the SCSI side
	halves     [2]half
	diskBusy   bool
	hostBusy   bool
	fwFree     sched.Time // firmware free to set up the next sector
	fmtFree    sched.Time // formatter free (previous data field ended)
	failed     bool

	// The sector under the formatter (its event is pending while
	// diskBusy) and the half the SCSI side is filling or draining (while
	// hostBusy): values, so that a transfer can be saved.
	secHalf, secLBA int
	secIDAt         sched.Time
	hostHalf        int
}

func (c *Controller) startTransfer(now sched.Time, lun int, d *drive, write bool, lba, count int) {
	x := &xfer{lun: lun, d: d, write: write, lba: lba, count: count, fwFree: now, fmtFree: now}
	c.x = x
	if !d.disk.meta.Formatted {
		c.noID(now, x)
		return
	}
	c.diskStep(now, x)
	c.hostStep(now, x)
}

// noID: on an unformatted medium the formatter never finds an ID.
func (c *Controller) noID(now sched.Time, x *xfer) {
	rev := x.d.spin.revolution()
	cyl, head, _ := x.d.geom.CHS(x.lba)
	ready := c.moveTo(x.d, cyl, head, now)
	// The drive may have been ready long ago (idle since its last seek).
	wait := max(ready-now, 0) + c.p.ArmLatency + sched.Time(c.p.NoIDRevolutions)*rev
	c.after(&c.events.noID, wait)
}

func (c *Controller) noIDFound(sched.Time) {
	x := c.x
	c.check(sense{code: SenseNoIDAddressMark, valid: true, lun: x.lun, lba: x.lba})
}

// findHalf returns the index of a half in state st holding sector (any
// sector when sector < 0), or -1.
func (x *xfer) findHalf(st halfState, sector int) int {
	best := -1
	for i, h := range x.halves {
		if h.state == st && (sector < 0 || h.sector == sector) {
			if best < 0 || h.at < x.halves[best].at {
				best = i
			}
		}
	}
	return best
}

// diskStep arms the formatter for the next sector if it can.
func (c *Controller) diskStep(now sched.Time, x *xfer) {
	if c.x != x || x.failed || x.diskBusy || x.disk == x.count {
		return
	}
	d := x.d
	lba := x.lba + x.disk
	cyl, head, k := d.geom.CHS(lba)
	// The firmware issues a seek or head select as soon as the formatter
	// is done with the previous track, whether or not a buffer half is
	// ready.
	if cyl != d.cyl || head != d.head {
		c.moveTo(d, cyl, head, now)
	}
	var h int
	if x.write {
		h = x.findHalf(halfFull, x.disk)
	} else {
		h = x.findHalf(halfFree, -1)
	}
	if h < 0 {
		return // the SCSI side calls again when a half is ready
	}
	hf := &x.halves[h]
	armAt := max(max(x.fwFree, hf.at)+c.p.ArmLatency, x.fmtFree+c.p.ChainLatency, d.readyAt, now)
	slot := d.layout[k]
	idAt := d.spin.boundary(d.spin.nextSlot(slot, armAt))
	end := idAt + sched.Time(c.p.DataStartByte+halfSize+c.p.ECCBytes)*c.p.ByteTime
	hf.state = halfBusy
	if !x.write {
		hf.sector = x.disk
	}
	x.diskBusy = true
	if c.sectorObs.Len() != 0 {
		rev := d.spin.revolution()
		// Would the slot have been taken had the half been ready at once?
		early := max(x.fwFree+c.p.ArmLatency, x.fmtFree+c.p.ChainLatency, d.readyAt, now)
		earlyID := d.spin.boundary(d.spin.nextSlot(slot, early))
		c.notifySector(SectorEvent{LUN: x.lun, LBA: lba, Write: x.write, Slot: slot, ArmedAt: armAt, IDAt: idAt,
			DataEnd: end, BufferReady: hf.at, HeadReady: d.readyAt,
			Revolutions: float64(idAt-armAt) / float64(rev), MissedByHalf: earlyID < idAt})
	}
	x.secHalf, x.secLBA, x.secIDAt = h, lba, idAt
	c.after(&c.events.sector, end-now)
}

// sectorDone: the formatter has passed the data field's last ECC byte.
func (c *Controller) sectorDone(now sched.Time) {
	x := c.x
	if x == nil {
		return
	}
	h, lba, idAt := x.secHalf, x.secLBA, x.secIDAt
	hf := &x.halves[h]
	buf := c.buf[h*halfSize : (h+1)*halfSize]
	x.diskBusy = false
	x.fmtFree, x.fwFree = now, idAt
	x.disk++
	if x.write {
		c.Stats.BlocksWritten++
		if err := x.d.disk.f.WriteBlock(int64(lba), buf); err != nil {
			c.mediumError(err)
			x.failed = true
			c.check(sense{code: SenseWriteFault, valid: true, lun: x.lun, lba: lba})
			return
		}
		hf.state, hf.at = halfFree, now
		if x.disk == x.count {
			// Every acknowledged block must survive a kill: sync before
			// GOOD.
			if err := x.d.disk.f.Sync(); err != nil {
				x.failed = true
				c.check(sense{code: SenseWriteFault, lun: x.lun})
				return
			}
			c.good()
			return
		}
		c.hostStep(now, x)
		c.diskStep(now, x)
		return
	}
	c.Stats.BlocksRead++
	if err := x.d.disk.f.ReadBlock(int64(lba), buf); err != nil {
		c.mediumError(err)
		x.failed = true
		c.check(sense{code: SenseUncorrectable, valid: true, lun: x.lun, lba: lba})
		return
	}
	c.diskStep(now, x)
	c.after(&c.events.ecc[h], c.p.ECCCheck)
}

// eccChecked hands a read sector in half h to the SCSI side.
func (c *Controller) eccChecked(now sched.Time, h int) {
	x := c.x
	if x == nil {
		return
	}
	x.halves[h].state, x.halves[h].at = halfFull, now
	c.hostStep(now, x)
}

// hostStep starts moving the next half over the SCSI bus if it can.
func (c *Controller) hostStep(now sched.Time, x *xfer) {
	if c.x != x || x.failed || x.hostBusy || x.host == x.count {
		return
	}
	var h int
	if x.write {
		h = x.findHalf(halfFree, -1)
	} else {
		h = x.findHalf(halfFull, x.host)
	}
	if h < 0 {
		return
	}
	hf := &x.halves[h]
	hf.state = halfBusy
	x.hostBusy = true
	x.hostHalf = h
	if x.write {
		hf.sector = x.host
		c.t.ReceiveK(scsi.DataOut, scsi.Cont{Op: kHostRecv})
		return
	}
	c.t.SendK(scsi.DataIn, c.buf[h*halfSize], scsi.Cont{Op: kHostSend})
}

// hostReceived stores byte i of the half being filled by WRITE.
func (c *Controller) hostReceived(now sched.Time, i int, b byte) {
	x := c.x
	if x == nil {
		return
	}
	h := x.hostHalf
	c.buf[h*halfSize+i] = b
	if i++; i < halfSize {
		c.t.ReceiveK(scsi.DataOut, scsi.Cont{Op: kHostRecv, Arg: i})
		return
	}
	x.halves[h].state, x.halves[h].at = halfFull, now
	x.hostBusy = false
	x.host++
	c.diskStep(now, x)
	c.hostStep(now, x)
}

// hostSent goes on after byte i of the half being drained by READ.
func (c *Controller) hostSent(now sched.Time, i int) {
	x := c.x
	if x == nil {
		return
	}
	h := x.hostHalf
	if i++; i < halfSize {
		c.t.SendK(scsi.DataIn, c.buf[h*halfSize+i], scsi.Cont{Op: kHostSend, Arg: i})
		return
	}
	x.halves[h].state, x.halves[h].at = halfFree, now
	x.hostBusy = false
	x.host++
	if x.host == x.count {
		c.good()
		return
	}
	c.diskStep(now, x)
	c.hostStep(now, x)
}

// mediumError: an image that another program changed under us stops the
// machine with that error (docs/CPM.md "Images shared with the host");
// the host still gets its CHECK CONDITION, as a drive gone bad would give.
func (c *Controller) mediumError(err error) {
	if errors.Is(err, image.ErrChangedOnHost) {
		c.Fail(err)
	}
}
