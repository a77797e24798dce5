package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The SCSI device flags of run and debug. --scsi ID=TYPE:FILE names any
// registered type; the shorthands are about one device each: --hd0 (and
// --hd0-lun1) the ACB-4000 at SCSI ID 0, --tape the MCD-403 at ID 1,
// BACKUP's machine. The rest of run builds the machine from the specs
// without naming a model.

// The shorthands' device types.
const (
	hd0Type  = "acb4000"
	tapeType = "mcd403"
)

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
func addSCSIFlags(f *pflag.FlagSet) {
	f.StringArrayVar(&runFlags.scsi, "scsi", nil, "SCSI device `ID=TYPE:FILE` (repeatable), e.g. 0=acb4000:hd0.img, 0=scsihd:disk.img or 3=mcd403:t.tape")
	f.StringVar(&runFlags.hd0, "hd0", "", "disk image `FILE[,OPTION...]` for the ACB-4000 at SCSI ID 0, LUN 0 (make one with lbplus disk create); options: ro (read-only), geometry=NAME or CxHxS and interleave=N (of a raw image)")
	f.StringVar(&runFlags.lun1, "hd0-lun1", "", "disk image `FILE[,ro]` for the ACB-4000's second drive (LUN 1)")
	f.StringVar(&runFlags.tape, "tape", "", "cartridge image `FILE[,ro]` for the MCD-403 at SCSI ID 1 (make one with lbplus tape create; ,ro: read-only)")
}

// scsiFlagSpecs returns the devices --scsi and the shorthands give, in
// that order.
func scsiFlagSpecs() ([]scsidev.Spec, error) {
	var specs []scsidev.Spec
	for _, arg := range runFlags.scsi {
		spec, err := parseSCSIFlag(arg)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	if runFlags.lun1 != "" && runFlags.hd0 == "" {
		return nil, fmt.Errorf("--hd0-lun1 %s needs --hd0 too", runFlags.lun1)
	}
	if runFlags.hd0 != "" {
		spec, err := hd0Flag(runFlags.hd0)
		if err != nil {
			return nil, err
		}
		if runFlags.lun1 != "" {
			lun1, ro1 := imageFlag(runFlags.lun1)
			spec.Images, spec.ReadOnly = append(spec.Images, lun1), spec.ReadOnly || ro1
		}
		specs = append(specs, spec)
	}
	if runFlags.tape != "" {
		tape, ro := imageFlag(runFlags.tape)
		specs = append(specs, scsidev.Spec{ID: TapeID, Type: tapeType, Images: []string{tape}, ReadOnly: ro})
	}
	return specs, nil
}

// Where the shorthands put their devices: the ACB-4000 at SCSI ID 0 and the
// MCD-403 at ID 1, BACKUP's defaults.
const (
	HD0ID  = 0
	TapeID = 1
)

// imageFlag splits FILE[,ro] as --hd0, --hd0-lun1 and --tape take it: ro
// attaches the image read-only (the drive reports write protection). For
// the ACB-4000, ro on either LUN makes both read-only.
func imageFlag(v string) (path string, readOnly bool) {
	if p, ok := strings.CutSuffix(v, ",ro"); ok {
		return p, true
	}
	return v, false
}

// hd0Flag reads --hd0 FILE[,OPTION...]: the options of --scsi (ro,
// geometry=NAME, interleave=N) after the file. Only a trailing run of
// options is taken, so a file name with a comma in it still works.
func hd0Flag(v string) (scsidev.Spec, error) {
	spec := scsidev.Spec{ID: HD0ID, Type: hd0Type}
	path := v
	var opts []string
	for {
		i := strings.LastIndexByte(path, ',')
		if i < 0 {
			break
		}
		o := path[i+1:]
		if k, _, _ := strings.Cut(o, "="); k != "ro" && k != "geometry" && k != "interleave" {
			break
		}
		opts, path = append(opts, o), path[:i]
	}
	spec.Images = []string{path}
	for _, o := range opts {
		if err := scsiOption(&spec, o); err != nil {
			return spec, fmt.Errorf("--hd0 %q: %w", v, err)
		}
	}
	return spec, nil
}

// scsiOption applies one option of --scsi or --hd0 to spec.
func scsiOption(spec *scsidev.Spec, o string) error {
	switch k, v, _ := strings.Cut(o, "="); k {
	case "ro":
		spec.ReadOnly = true
	case "geometry":
		spec.Geometry = v
	case "interleave":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("interleave %q: want a number from 1 (1:1) to the sectors per track - 1", v)
		}
		spec.Interleave = n
	default:
		return fmt.Errorf("unknown option %q (ro, geometry=NAME, interleave=N)", o)
	}
	return nil
}

// parseSCSIFlag reads one --scsi value: ID=TYPE[,OPTION...]:FILE[,FILE],
// with the options ro, geometry=NAME and interleave=N.
func parseSCSIFlag(arg string) (scsidev.Spec, error) {
	var spec scsidev.Spec
	bad := func(why string) error {
		return fmt.Errorf("--scsi %q: %s (want ID=TYPE:FILE, e.g. 0=acb4000:hd0.img)", arg, why)
	}
	id, rest, ok := strings.Cut(arg, "=")
	if !ok {
		return spec, bad("no ID=")
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || n > 7 {
		return spec, bad("the ID is a number 0-7")
	}
	kind, files, ok := strings.Cut(rest, ":")
	if !ok || files == "" {
		return spec, bad("no image FILE after the type")
	}
	opts := strings.Split(kind, ",")
	spec = scsidev.Spec{ID: n, Type: opts[0], Images: strings.Split(files, ",")}
	for _, o := range opts[1:] {
		if err := scsiOption(&spec, o); err != nil {
			return spec, bad(err.Error())
		}
	}
	return spec, nil
}
