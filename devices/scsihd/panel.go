package scsihd

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// PanelTitle implements scsidev.Paneled.
func (d *Drive) PanelTitle(id int) string {
	return fmt.Sprintf("SCSI disk (%s) at SCSI ID %d", Product, id)
}

// PanelLines implements scsidev.Paneled: the head, the transfer in
// progress, the read-ahead and the counters. Reading them changes nothing.
func (d *Drive) PanelLines(now sched.Time) []string {
	st := d.State()
	spin := "spinning"
	switch {
	case st.Stopped:
		spin = "stopped"
	case now < st.SpunUpAt:
		spin = "spinning up"
	}
	out := []string{fmt.Sprintf("%d blocks, %d cylinders x %d heads x %d sectors; %s; cylinder %d head %d, slot %d under the head",
		d.m.blocks, d.m.cylinders, d.p.Heads, d.p.SectorsPerTrack, spin, st.Cyl, st.Head, st.Slot)}
	if x := st.Transfer; x != nil {
		op := "READ"
		switch {
		case x.Write:
			op = "WRITE"
		case x.Verify:
			op = "VERIFY"
		}
		out = append(out, fmt.Sprintf("%s LBA %d x%d: disk %d, host %d", op, x.LBA, x.Count, x.Disk, x.Host))
	} else {
		out = append(out, "no transfer")
	}
	if s := st.Segment; s.End > s.First {
		out = append(out, fmt.Sprintf("read ahead: LBA %d-%d", s.First, s.End-1))
	}
	s := st.Stats
	return append(out, fmt.Sprintf("commands %d, checks %d; blocks read %d (from read-ahead %d), written %d; seeks %d",
		s.Commands, s.Checks, s.BlocksRead, s.CacheHits, s.BlocksWritten, s.Seeks))
}

// Platters implements scsidev.Rotating: the platter at now, the block
// whose slot is under the head on the head's cylinder and track (through
// the track skew). A stopped spindle (START STOP UNIT) reports none.
func (d *Drive) Platters(now sched.Time) []scsidev.Platter {
	if d.stopped {
		return nil
	}
	m := d.m
	since := (now + m.p.IndexPhase) % m.rev
	spt := m.p.SectorsPerTrack
	track := int64(d.cyl)*int64(m.p.Heads) + int64(d.head)
	sec := (int64(m.angle(now)) - track*int64(m.p.TrackSkew)%int64(spt) + int64(spt)) % int64(spt)
	lba := track*int64(spt) + sec
	if lba >= m.blocks {
		lba = -1
	}
	return []scsidev.Platter{{Cyl: d.cyl, Head: d.head, Angle: 360 * float64(since) / float64(m.rev),
		ToIndex: m.rev - since, LBA: lba}}
}
