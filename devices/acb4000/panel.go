package acb4000

import (
	"fmt"

	"github.com/lbplus/lbplus/scsi/scsidev"

	"github.com/lbplus/lbplus/sched"
)

// PanelTitle implements scsidev.Paneled.
func (c *Controller) PanelTitle(id int) string { return fmt.Sprintf("ACB-4000 at SCSI ID %d", id) }

// PanelLines implements scsidev.Paneled: each drive's head position and
// the sector slot under it, then the transfer in progress and its buffer
// halves. Reading them changes nothing.
func (c *Controller) PanelLines(sched.Time) []string {
	st := c.State()
	var out []string
	for lun, d := range st.Drives {
		if d.Present {
			out = append(out, fmt.Sprintf("LUN %d: cylinder %d head %d, sector slot %d under the head", lun, d.Cyl, d.Head, d.Slot))
		}
	}
	if x := st.Transfer; x != nil {
		op := "READ"
		if x.Write {
			op = "WRITE"
		}
		out = append(out, fmt.Sprintf("%s LBA %d x%d: disk %d, host %d; halves %s/%s", op, x.LBA, x.Count, x.Disk, x.Host, x.Halves[0], x.Halves[1]))
	} else {
		out = append(out, "no transfer")
	}
	return out
}

// Platters implements scsidev.Rotating: each drive's platter at now, the
// logical block whose slot is under the head from the format's layout.
func (c *Controller) Platters(now sched.Time) []scsidev.Platter {
	var out []scsidev.Platter
	for lun, d := range c.drives {
		if d == nil {
			continue
		}
		since, until := d.spin.index(now)
		slot, _ := d.spin.angle(now)
		p := scsidev.Platter{LUN: lun, Cyl: d.cyl, Head: d.head, ToIndex: until, LBA: -1,
			Angle: 360 * float64(since) / float64(since+until)}
		for k, s := range d.layout {
			if s == slot {
				p.LBA = int64((d.cyl*d.geom.Heads+d.head)*d.geom.Sectors + k)
			}
		}
		if p.LBA >= int64(d.geom.Blocks()) {
			p.LBA = -1
		}
		out = append(out, p)
	}
	return out
}
