package emu

import "github.com/lbplus/lbplus/scsi/scsidev"

// The default machine's policy (lbplus run without a machine file): where
// its hard disk and tape sit, which drives it has, and when it boots the
// default system disk. A machine file describes its own machine and none
// of this applies to it.

// Where the default machine puts its hard disk and tape, BACKUP's
// defaults: the ACB-4000 at SCSI ID 0 and the MCD-403 at ID 1.
const (
	HD0ID    = 0
	HD0Type  = "acb4000"
	TapeID   = 1
	TapeType = "mcd403"
)

// DefaultFloppies are the default machine's floppy drives: two 48 tpi
// drives, empty, as the BIOS's banner counts them, so a disk can be
// inserted while the board runs.
func DefaultFloppies() []Floppy {
	return []Floppy{{Drive: 0, Type: "48tpi"}, {Drive: 1, Type: "48tpi"}}
}

// HasDisk reports whether c has a SCSI device that is not a tape, by its
// type's Kind (a type not registered counts as a disk: Validate refuses
// it). Floppies do not count: the ROM tries floppy A first and boots it if
// it is a system disk, the hard disk otherwise, so a floppy added to the
// default machine keeps the default system disk.
func (c Config) HasDisk() bool {
	for _, d := range c.SCSI {
		if k, ok := SCSIKindOf(d.Type); !ok || k != scsidev.Tape {
			return true
		}
	}
	return false
}

// DefaultDisk is the device of the default system disk at path, which the
// default machine boots when it has no disk (HasDisk): the ACB-4000 at
// HD0ID, as --hd0 would attach it.
func DefaultDisk(path string) scsidev.Spec {
	return scsidev.Spec{ID: HD0ID, Type: HD0Type, Images: []string{path}}
}
