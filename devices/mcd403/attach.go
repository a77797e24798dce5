package mcd403

import (
	"fmt"

	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Type is the MCD-403 as a machine configuration names it: "mcd403", with
// one cartridge image, loaded and retensioned when the machine is built.
// Spec.Params may be a Params.
var Type = scsidev.Type{Name: "mcd403", Kind: scsidev.Tape, Attach: attach}

func attach(bus *scsi.Bus, s scsidev.Spec) (scsidev.Device, error) {
	p, err := scsidev.ParamsOf(s, DefaultParams())
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("SCSI ID %d (mcd403): %w", s.ID, err)
	}
	if s.Geometry != "" || s.Interleave != 0 {
		return nil, fmt.Errorf("SCSI ID %d: the MCD-403 has no geometry or interleave option (its cartridge format is fixed)", s.ID)
	}
	if len(s.Images) != 1 {
		return nil, fmt.Errorf("SCSI ID %d: the MCD-403 takes one cartridge image, got %d", s.ID, len(s.Images))
	}
	tape, err := Open(s.Images[0], s.ReadOnly)
	if err != nil {
		return nil, err
	}
	if s.Scratch {
		tape.Scratch()
	}
	d, _ := Attach(bus, s.ID, fmt.Sprintf("mcd403 %d", s.ID), p, tape)
	return d, nil
}
