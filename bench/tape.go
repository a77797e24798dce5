package bench

import (
	"errors"

	"lbplus/scsi"
)

// tapeDrive is what the harness needs from the tape model.
type tapeDrive interface {
	Repositions() int
	Close() error
}

// attachTape creates a tape image at base.tape formatted at interleave and
// attaches the drive as TapeID.
func attachTape(bus *scsi.Bus, base string, interleave int, params any) (tapeDrive, error) {
	return nil, errors.New("bench: the tape drive (devices/mcd403) is not available yet")
}
