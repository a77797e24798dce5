package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The SCSI device flags of run and debug. --scsi ID=TYPE:FILE names any
// registered type; the shorthands are about one device each: --hd0 (and
// --hd0-lun1) the ACB-4000 at SCSI ID 0, --tape the MCD-403 at ID 1,
// BACKUP's machine (emu.HD0ID, emu.TapeID). The grammar is scsidev's
// (ParseSpec); the rest of run builds the machine from the specs without
// naming a model.

// scsiHelp is the SCSI part of run's long help.
const scsiHelp = `--scsi ID=TYPE:FILE puts a device on the SCSI bus
(repeatable; TYPE acb4000, mcd403 or scsihd; acb4000 takes FILE,FILE for
LUN 0 and LUN 1; options after the type: ro, and for a raw ACB-4000 disk
image without a sidecar geometry=NAME or CxHxS and interleave=N, the
interleave it was formatted at, 3 if not given; scsihd takes a raw image of
any whole number of 512-byte blocks, docs/SCSIHD.md). --hd0 and --tape are
shorthands for --scsi 0=acb4000:FILE and --scsi 1=mcd403:FILE; --hd0 takes
the same options after the file: --hd0 disk.hda,geometry=st125,interleave=2.`

// addSCSIFlags adds --scsi and the shorthands to f.
func addSCSIFlags(f *pflag.FlagSet, o *runOptions) {
	f.StringArrayVar(&o.scsi, "scsi", nil, "SCSI device `ID=TYPE:FILE` (repeatable), e.g. 0=acb4000:hd0.img, 0=scsihd:disk.img or 3=mcd403:t.tape")
	f.StringVar(&o.hd0, "hd0", "", "disk image `FILE[,OPTION...]` for the ACB-4000 at SCSI ID 0, LUN 0 (make one with lbplus disk create); options: ro (read-only), geometry=NAME or CxHxS and interleave=N (of a raw image)")
	f.StringVar(&o.lun1, "hd0-lun1", "", "disk image `FILE[,ro]` for the ACB-4000's second drive (LUN 1)")
	f.StringVar(&o.tape, "tape", "", "cartridge image `FILE[,ro]` for the MCD-403 at SCSI ID 1 (make one with lbplus tape create; ,ro: read-only)")
}

// scsiFlagSpecs returns the devices --scsi and the shorthands give, in
// that order.
func scsiFlagSpecs(o *runOptions) ([]scsidev.Spec, error) {
	var specs []scsidev.Spec
	for _, arg := range o.scsi {
		spec, err := scsidev.ParseSpec(arg)
		if err != nil {
			return nil, fmt.Errorf("--scsi %w", err)
		}
		specs = append(specs, spec)
	}
	if o.lun1 != "" && o.hd0 == "" {
		return nil, fmt.Errorf("--hd0-lun1 %s needs --hd0 too", o.lun1)
	}
	if o.hd0 != "" {
		spec, err := scsidev.ParseImage(emu.DefaultDisk(""), o.hd0)
		if err != nil {
			return nil, fmt.Errorf("--hd0 %q: %w", o.hd0, err)
		}
		if o.lun1 != "" {
			lun1, ro1 := scsidev.SplitReadOnly(o.lun1)
			spec.Images, spec.ReadOnly = append(spec.Images, lun1), spec.ReadOnly || ro1
		}
		specs = append(specs, spec)
	}
	if o.tape != "" {
		tape, ro := scsidev.SplitReadOnly(o.tape)
		specs = append(specs, scsidev.Spec{ID: emu.TapeID, Type: emu.TapeType, Images: []string{tape}, ReadOnly: ro})
	}
	return specs, nil
}
