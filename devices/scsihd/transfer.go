package scsihd

import (
	"errors"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The data path of READ, WRITE and VERIFY. Two sides meet at the buffer
// (BufferBlocks blocks, a ring):
//
//   - the platter side moves one block at a time between the buffer and
//     the medium, as the block's slot passes under the head (or, for a
//     READ of blocks read ahead, as soon as they are in the buffer);
//   - the SCSI side moves one block at a time between the buffer and the
//     host, a byte per REQ/ACK, as fast as the initiator answers.
//
// A READ's platter side runs ahead of the host until the buffer is full; a
// WRITE's host side runs ahead of the platter until it is full. A block
// whose slot passes while the platter side waits for room comes round a
// revolution later. Store and forward: a block goes to the host only when
// all of it is in, and to the medium only when all of it has come [A].

// xfer is one READ, WRITE or VERIFY in progress, as values (save states).
type xfer struct {
	Write, Verify      bool
	LBA                int64
	Count              int
	Disk, Host         int  // blocks done by the platter side and the SCSI side
	DiskBusy, HostBusy bool // a block under the head / on the bus
}

// segment is what the drive read ahead after a READ: blocks [First, End)
// of one track, read in order from From on as their slots passed, until
// the head was needed elsewhere (truncate).
type segment struct {
	First, End int64
	From       sched.Time
}

func (s segment) has(b int64) bool { return b >= s.First && b < s.End }

// cachedAt is when block b of the segment is in the buffer.
func (s segment) cachedAt(m mech, b int64) sched.Time {
	t := s.From
	for k := s.First; k <= b; k++ {
		cyl, head, sec := m.chs(k)
		sl := m.slot(cyl, head, sec)
		t = m.slotStart(sl, t) + m.slotLen(sl)
	}
	return t
}

// truncate ends the read-ahead at t: the blocks whose slot had passed
// stay in the buffer.
func (s *segment) truncate(m mech, t sched.Time) {
	if s.End <= s.First {
		*s = segment{}
		return
	}
	end := s.First
	for end < s.End && s.cachedAt(m, end) <= t {
		end++
	}
	s.End = end
	if s.End == s.First {
		*s = segment{}
	}
}

// transfer starts READ, WRITE or VERIFY of n blocks from lba.
func (d *Drive) transfer(now sched.Time, write, verify bool, lba int64, n int) {
	if lba+int64(n) > d.m.blocks {
		bad := min(max(lba, d.m.blocks), 1<<32-1)
		d.check(sense{Key: KeyIllegalRequest, ASC: ASCBadBlock, Valid: true, Info: uint32(bad)})
		return
	}
	if write && d.disk.f.ReadOnly() {
		d.check(sense{Key: KeyDataProtect, ASC: ASCWriteProtected})
		return
	}
	if n == 0 {
		d.good()
		return
	}
	if !d.seg.has(lba) || write {
		// One buffer, one segment [A]: a transfer that does not start in
		// the segment (or writes) takes the buffer over.
		d.seg = segment{}
	}
	d.x = &xfer{Write: write, Verify: verify, LBA: lba, Count: n}
	if write {
		d.hostStep(now)
		return
	}
	d.diskStep(now)
}

// diskStep starts the platter side on its next block if it can.
func (d *Drive) diskStep(now sched.Time) {
	x := d.x
	if x == nil || x.DiskBusy || x.Disk == x.Count {
		return
	}
	b := x.LBA + int64(x.Disk)
	if x.Write {
		if x.Disk >= x.Host {
			return // the SCSI side calls again when the block is in
		}
	} else if x.Disk-x.Host >= d.p.BufferBlocks {
		return // full: the SCSI side calls again when a block has gone
	}
	var at sched.Time
	if !x.Write && d.seg.has(b) {
		d.stats.CacheHits++
		at = max(now, d.seg.cachedAt(d.m, b))
	} else {
		d.seg.truncate(d.m, now)
		cyl, head, sec := d.m.chs(b)
		ready := d.moveTo(cyl, head, now)
		sl := d.m.slot(cyl, head, sec)
		at = d.m.slotStart(sl, ready) + d.m.slotLen(sl)
		// The head is on the block until its slot ends.
		d.readyAt = at
	}
	x.DiskBusy = true
	d.s.ScheduleAfter(&d.events.block, at-now)
}

// blockDone: the block under the head (or from the read-ahead) is done.
func (d *Drive) blockDone(now sched.Time) {
	x := d.x
	if x == nil {
		return
	}
	b := x.LBA + int64(x.Disk)
	slot := d.buf[x.Disk%d.p.BufferBlocks*BlockSize:][:BlockSize]
	x.DiskBusy = false
	if x.Write {
		if err := d.disk.f.WriteBlock(b, slot); err != nil {
			d.mediumError(err)
			d.check(sense{Key: KeyMediumError, ASC: ASCWriteError, Valid: true, Info: uint32(b)})
			return
		}
		d.stats.BlocksWritten++
		x.Disk++
		if x.Disk == x.Count {
			// Every acknowledged block must survive a kill.
			if err := d.disk.f.Sync(); err != nil {
				d.check(sense{Key: KeyMediumError, ASC: ASCWriteError})
				return
			}
			d.good()
			return
		}
		d.hostStep(now)
		d.diskStep(now)
		return
	}
	if err := d.disk.f.ReadBlock(b, slot); err != nil {
		d.mediumError(err)
		d.check(sense{Key: KeyMediumError, ASC: ASCReadError, Valid: true, Info: uint32(b)})
		return
	}
	d.stats.BlocksRead++
	x.Disk++
	if x.Disk == x.Count {
		d.readAhead(now, b+1)
	}
	if x.Verify {
		x.Host = x.Disk // nothing goes to the host
		if x.Disk == x.Count {
			d.good()
			return
		}
	}
	d.diskStep(now)
	d.hostStep(now)
}

// readAhead starts reading from block b on at now, to the end of its track
// or ReadAheadBlocks, unless b is on another track or a segment already
// holds it.
func (d *Drive) readAhead(now sched.Time, b int64) {
	if d.seg.has(b) || b >= d.m.blocks || d.p.ReadAheadBlocks == 0 {
		return
	}
	if b%int64(d.p.SectorsPerTrack) == 0 {
		d.seg = segment{}
		return // the track is done: the head stays
	}
	spt := int64(d.p.SectorsPerTrack)
	end := min(b-b%spt+spt, b+int64(d.p.ReadAheadBlocks), d.m.blocks)
	d.seg = segment{First: b, End: end, From: now}
}

// hostStep starts the SCSI side on its next block if it can.
func (d *Drive) hostStep(now sched.Time) {
	x := d.x
	if x == nil || x.HostBusy || x.Host == x.Count || x.Verify {
		return
	}
	if x.Write {
		if x.Host-x.Disk >= d.p.BufferBlocks {
			return // full: the platter side calls again
		}
		x.HostBusy = true
		d.t.ReceiveK(scsi.DataOut, scsi.Cont{Op: kHostRecv})
		return
	}
	if x.Host >= x.Disk {
		return
	}
	x.HostBusy = true
	d.t.SendK(scsi.DataIn, d.buf[x.Host%d.p.BufferBlocks*BlockSize], scsi.Cont{Op: kHostSend})
}

// hostSent goes on after byte i of the block on the bus.
func (d *Drive) hostSent(now sched.Time, i int) {
	x := d.x
	if x == nil {
		return
	}
	base := x.Host % d.p.BufferBlocks * BlockSize
	if i++; i < BlockSize {
		d.t.SendK(scsi.DataIn, d.buf[base+i], scsi.Cont{Op: kHostSend, Arg: i})
		return
	}
	x.HostBusy = false
	x.Host++
	if x.Host == x.Count {
		d.good()
		return
	}
	d.diskStep(now)
	d.hostStep(now)
}

// hostReceived stores byte i of the block coming from the host.
func (d *Drive) hostReceived(now sched.Time, i int, b byte) {
	x := d.x
	if x == nil {
		return
	}
	d.buf[x.Host%d.p.BufferBlocks*BlockSize+i] = b
	if i++; i < BlockSize {
		d.t.ReceiveK(scsi.DataOut, scsi.Cont{Op: kHostRecv, Arg: i})
		return
	}
	x.HostBusy = false
	x.Host++
	d.diskStep(now)
	d.hostStep(now)
}

// mediumError: an image that another program changed under us stops the
// machine with that error (docs/CPM.md "Images shared with the host");
// the host still gets its CHECK CONDITION.
func (d *Drive) mediumError(err error) {
	if errors.Is(err, image.ErrChangedOnHost) {
		d.Fail(err)
	}
}
