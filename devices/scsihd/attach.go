package scsihd

import (
	"fmt"

	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Type is the drive as a machine configuration names it: "scsihd", with
// one raw image, its capacity the image's size. Spec.Params may be a
// Params.
var Type = scsidev.Type{Name: "scsihd", Kind: scsidev.Disk, Attach: attach}

func attach(bus *scsi.Bus, s scsidev.Spec) (scsidev.Device, error) {
	p, err := scsidev.ParamsOf(s, DefaultParams())
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("SCSI ID %d (scsihd): %w", s.ID, err)
	}
	if s.Geometry != "" || s.Interleave != 0 {
		return nil, fmt.Errorf("SCSI ID %d: scsihd has no geometry or interleave option (its size is the image's; it formats 1:1)", s.ID)
	}
	if len(s.Images) != 1 {
		return nil, fmt.Errorf("SCSI ID %d: scsihd takes one raw disk image, got %d", s.ID, len(s.Images))
	}
	d, err := Open(s.Images[0], s.ReadOnly)
	if err != nil {
		return nil, err
	}
	dr, _ := Attach(bus, s.ID, fmt.Sprintf("scsihd %d", s.ID), p, d)
	return dr, nil
}
