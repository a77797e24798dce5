package acb4000

import (
	"errors"
	"fmt"

	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Type is the ACB-4000 as a machine configuration names it: "acb4000",
// with one image per drive (LUN 0, optionally LUN 1), each with a sidecar
// or raw (Spec.Geometry, or the geometry from its size; Spec.Interleave, or
// RawInterleave: OpenAs).
// Spec.Params may be a Params.
var Type = scsidev.Type{Name: "acb4000", Kind: scsidev.Disk, Options: []string{"geometry=NAME", "interleave=N"}, Attach: attach}

func attach(bus *scsi.Bus, s scsidev.Spec) (scsidev.Device, error) {
	p, err := scsidev.ParamsOf(s, DefaultParams())
	if err != nil {
		return nil, err
	}
	if len(s.Images) == 0 || len(s.Images) > 2 {
		return nil, fmt.Errorf("SCSI ID %d: the ACB-4000 takes one or two disk images (LUN 0, LUN 1), got %d", s.ID, len(s.Images))
	}
	var disks [2]*Disk
	for i, path := range s.Images {
		if disks[i], err = OpenAs(path, Raw{Geometry: s.Geometry, Interleave: s.Interleave}, s.ReadOnly); err != nil {
			for _, d := range disks[:i] {
				d.Close()
			}
			return nil, err
		}
		if s.Scratch {
			disks[i].f.Scratch()
		}
	}
	// The ID in the name keeps event names unique with several
	// controllers on the bus (save states find events by name).
	ctl, _ := Attach(bus, s.ID, fmt.Sprintf("acb4000 %d", s.ID), p, disks[0], disks[1])
	return ctl, nil
}

// Close closes the controller's disk images.
func (c *Controller) Close() error {
	var errs []error
	for _, d := range c.drives {
		if d != nil {
			errs = append(errs, d.disk.Close())
		}
	}
	return errors.Join(errs...)
}

// PeekBlock implements scsidev.Medium: block lba of the drive on lun,
// whatever the heads are doing.
func (c *Controller) PeekBlock(lun int, lba int64, buf []byte) error {
	if lun < 0 || lun >= maxLUNs || c.drives[lun] == nil {
		return fmt.Errorf("acb4000: no drive on LUN %d", lun)
	}
	return c.drives[lun].disk.f.ReadBlock(lba, buf)
}
