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

// DevicePanels returns a panel for each SCSI target of b that has one.
func DevicePanels(b *emu.Board) []Panel {
	var out []Panel
	for id := 0; id < 8; id++ {
		switch dev := b.SCSIDevice(id).(type) {
		case *acb4000.Controller:
			out = append(out, acbPanel{id, dev})
		case *mcd403.Drive:
			out = append(out, tapePanel{id, dev})
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
}

func (p tapePanel) Title() string { return fmt.Sprintf("MCD-403 at SCSI ID %d", p.id) }

func (p tapePanel) Lines() []string {
	s := p.d.Stats()
	return []string{
		fmt.Sprintf("blocks written %d, read %d; repositions %d, misses %d", s.BlocksWritten, s.BlocksRead, s.Repositions, s.Misses),
		fmt.Sprintf("seeks %d, FIFO full %d times, retensions %d", s.Seeks, s.FIFOFull, s.Retensions),
	}
}
