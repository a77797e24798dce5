package debugger

import (
	"fmt"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Panel is a device panel: a title and lines of text, read without side
// effects each time it is drawn.
type Panel interface {
	Title() string
	Lines() []string
}

// DevicePanels returns a panel for each SCSI target of b that shows one
// (scsidev.Paneled), and for the WD1772, which every board has.
func DevicePanels(b *emu.Board) []Panel {
	var out []Panel
	for id := 0; id < 8; id++ {
		if dev, ok := b.SCSIDevice(id).(scsidev.Paneled); ok {
			out = append(out, scsiPanel{id, dev, b})
		}
	}
	return append(out, fdcPanel{b})
}

// scsiPanel is a SCSI target's own panel, read at the board's time.
type scsiPanel struct {
	id  int
	dev scsidev.Paneled
	b   *emu.Board
}

func (p scsiPanel) Title() string { return p.dev.PanelTitle(p.id) }

// Lines are the target's own lines, then for a disk whose platters turn
// (scsidev.Rotating) each platter's angle, the time to the next index and
// the block under the head.
func (p scsiPanel) Lines() []string {
	now := p.b.Now()
	out := p.dev.PanelLines(now)
	if r, ok := p.dev.(scsidev.Rotating); ok {
		for _, pl := range r.Platters(now) {
			under := "no block"
			if pl.LBA >= 0 {
				under = fmt.Sprintf("LBA %d", pl.LBA)
			}
			out = append(out, fmt.Sprintf("LUN %d platter %5.1f deg, index in %s, head over %s", pl.LUN, pl.Angle,
				FormatDuration(pl.ToIndex), under))
		}
	}
	return out
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
// drive on b that counts them (scsidev.Repositioner; nil if there is
// none), for BreakOnCounter.
func TapeRepositions(b *emu.Board) func() uint64 {
	for id := 0; id < 8; id++ {
		if t, ok := b.SCSIDevice(id).(scsidev.Repositioner); ok {
			return func() uint64 { return uint64(t.Repositions()) }
		}
	}
	return nil
}
