package debugger

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
)

// Panel is a device panel: a title and lines of text, read without side
// effects each time it is drawn.
type Panel interface {
	Title() string
	Lines() []string
}

// DevicePanels returns a panel for each SCSI target of b that has one,
// and for the WD1772, which every board has.
func DevicePanels(b *emu.Board) []Panel {
	var out []Panel
	for id := 0; id < 8; id++ {
		switch dev := b.SCSIDevice(id).(type) {
		case *acb4000.Controller:
			out = append(out, acbPanel{id, dev})
		case *mcd403.Drive:
			out = append(out, tapePanel{id, dev, b})
		}
	}
	return append(out, fdcPanel{b})
}

type fdcPanel struct{ b *emu.Board }

func (p fdcPanel) Title() string { return "WD1772" }

func (p fdcPanel) Lines() []string {
	f := p.b.FDC()
	onOff := map[bool]string{false: "off", true: "ON"}
	// The registers by the datasheet's names: status, track, sector, data.
	out := []string{fmt.Sprintf("STR %02Xh TR %d SR %d DR %02Xh; motor %s, INTRQ %s, DRQ %s",
		f.Peek(0), f.Peek(1), f.Peek(2), f.Peek(3), onOff[f.Motor()], onOff[f.INTRQ()], onOff[f.DRQ()])}
	for n := 0; n < 4; n++ {
		if d := p.b.FloppyDrive(n); d != nil {
			media := "empty"
			if d.Media() != nil {
				media = "diskette in"
			}
			out = append(out, fmt.Sprintf("drive %d: cylinder %d side %d, %s, motor %s", n, d.Cylinder(), d.Side(), media, onOff[d.MotorOn()]))
		}
	}
	return out
}

// TapeRepositions returns a counter of the repositions of the first tape
// drive on b (nil if there is none), for BreakOnCounter.
func TapeRepositions(b *emu.Board) func() uint64 {
	for id := 0; id < 8; id++ {
		if t, ok := b.SCSIDevice(id).(*mcd403.Drive); ok {
			return func() uint64 { return uint64(t.Repositions()) }
		}
	}
	return nil
}

type acbPanel struct {
	id int
	c  *acb4000.Controller
}

func (p acbPanel) Title() string { return fmt.Sprintf("ACB-4000 at SCSI ID %d", p.id) }

func (p acbPanel) Lines() []string {
	st := p.c.State()
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

type tapePanel struct {
	id int
	d  *mcd403.Drive
	b  *emu.Board
}

func (p tapePanel) Title() string { return fmt.Sprintf("MCD-403 at SCSI ID %d", p.id) }

func (p tapePanel) Lines() []string {
	st := p.d.State()
	s := st.Stats
	now := p.b.Now()
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
	out := []string{motion, fmt.Sprintf("%s, %s along the tape", where, FormatDuration(st.Position))}
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
