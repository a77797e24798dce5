package mcd403

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// PanelTitle implements scsidev.Paneled.
func (d *Drive) PanelTitle(id int) string { return fmt.Sprintf("MCD-403 at SCSI ID %d", id) }

// PanelLines implements scsidev.Paneled: the tape's motion at now, where
// the head is, the command in progress and the counters. Reading them
// changes nothing.
func (d *Drive) PanelLines(now sched.Time) []string {
	st := d.State()
	s := st.Stats
	// The position is tape time at write speed along the serpentine path
	// from the load point (docs/TAPE.md); while the tape moves between
	// stops it is where the move will end.
	var motion string
	switch {
	case st.Streaming:
		motion = "streaming"
	case st.Moving:
		motion = "starting (ramp to speed)"
	case now < st.BusyUntil && st.BackedUpFor >= 0:
		motion = fmt.Sprintf("repositioning: backing up for block %d", st.BackedUpFor)
	case now < st.BusyUntil:
		motion = "moving (seek)"
	case st.BackedUpFor >= 0:
		motion = fmt.Sprintf("stopped, backed up for block %d", st.BackedUpFor)
	case !st.Loaded:
		motion = "no cartridge"
	default:
		motion = "stopped"
	}
	where := fmt.Sprintf("track %d, between slots", st.Track)
	if st.Slot >= 0 {
		where = fmt.Sprintf("track %d slot %d", st.Track, st.Slot)
		if st.Block >= 0 {
			where += fmt.Sprintf(" (block %d)", st.Block)
		}
	}
	out := []string{motion, fmt.Sprintf("%s, %s along the tape", where, sched.FormatDuration(st.Position))}
	if c := st.Command; c != nil {
		op := "READ"
		if c.Write {
			op = "WRITE"
		}
		out = append(out, fmt.Sprintf("%s block %d of ..%d: FIFO %d bytes, received %d", op, c.Block, c.Last, c.FIFO, c.Received))
	}
	return append(out,
		fmt.Sprintf("blocks written %d, read %d; repositions %d, misses %d", s.BlocksWritten, s.BlocksRead, s.Repositions, s.Misses),
		fmt.Sprintf("seeks %d, FIFO full %d times, retensions %d", s.Seeks, s.FIFOFull, s.Retensions))
}
