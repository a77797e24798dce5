package bench

import (
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/scsi"
)

// tapeDrive is what the harness needs from the tape model.
type tapeDrive interface {
	Repositions() int
	Close() error
}

// attachTape creates a tape image at base.tape formatted at interleave and
// attaches the drive as TapeID, cartridge loaded and retensioned.
func attachTape(bus *scsi.Bus, base string, interleave int, params *mcd403.Params) (tapeDrive, error) {
	path := base + ".tape"
	if err := mcd403.Create(path, interleave); err != nil {
		return nil, err
	}
	tape, err := mcd403.Open(path, false)
	if err != nil {
		return nil, err
	}
	p := mcd403.DefaultParams()
	if params != nil {
		p = *params
	}
	if err := p.Validate(); err != nil {
		tape.Close()
		return nil, err
	}
	d, _ := mcd403.Attach(bus, TapeID, p, tape)
	return d, nil
}
