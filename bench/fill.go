package bench

import (
	"math/bits"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// FillMeter is an oscilloscope on the SCSI bus of a BACKUP run: it times
// each buffer fill, from the selection of the first disk command after the
// tape's to the bus free after the disk's last one. The story's owner timed
// his fills this way inside the backup loop ("the time required to fill the
// memory buffer from the disk"), where each fill starts at whatever spindle
// angle the tape's block period leaves, and a long run crosses cylinders.
type FillMeter struct {
	target int
	host   uint8
	last   scsi.Line
	selID  int        // the target being selected or connected, -1 none
	prevID int        // the target of the last command that ended
	start  sched.Time // selection of the fill's first command
	end    sched.Time // bus free after the fill's last command so far
	open   bool
	bytes  int // DATA IN bytes of the open fill
	fills  []sched.Time
}

// NewFillMeter times the fills of target for a host at hostID.
func NewFillMeter(target, hostID int) *FillMeter {
	return &FillMeter{target: target, host: 1 << hostID, selID: -1, prevID: -1}
}

// Attach starts observing bus; use it as Options.OnBus.
func (m *FillMeter) Attach(bus *scsi.Bus) { bus.Observe(m.observe) }

func (m *FillMeter) observe(now sched.Time, lines scsi.Line, data uint8) {
	prev := m.last
	m.last = lines
	if lines&scsi.SEL != 0 && prev&scsi.SEL == 0 && lines&scsi.BSY == 0 {
		// Selection: the data lines carry the host's and the target's bits.
		m.selID = -1
		if id := data &^ m.host; id != 0 && id&(id-1) == 0 {
			m.selID = bits.TrailingZeros8(id)
		}
		switch {
		case m.selID == m.target && m.prevID != m.target:
			m.start, m.open, m.bytes = now, true, 0
		case m.selID != m.target && m.open:
			// Only fills that moved data count: BACKUP's first disk
			// command (TEST UNIT READY) moves none.
			if m.bytes > 0 {
				m.fills = append(m.fills, m.end-m.start)
			}
			m.open = false
		}
		return
	}
	if lines&scsi.ACK != 0 && prev&scsi.ACK == 0 && scsi.InfoPhase(lines) == scsi.DataIn && m.selID == m.target {
		m.bytes++
	}
	if lines&(scsi.BSY|scsi.SEL) == 0 && prev&scsi.BSY != 0 {
		if m.selID == m.target {
			m.end = now
		}
		m.prevID = m.selID
	}
}

// Fills are the fills that moved data, timed so far; one still open (the
// disk's last command not yet followed by the tape's) is not among them.
func (m *FillMeter) Fills() []sched.Time { return m.fills }

// SteadyMean is the mean fill after the first, the passes whose
// throughput Result.BytesPerSec reports (the first fill carries the first
// seek and a random spindle angle), and how many it averaged; 0, 0 when
// there are fewer than two.
func (m *FillMeter) SteadyMean() (sched.Time, int) {
	if len(m.fills) < 2 {
		return 0, 0
	}
	var sum sched.Time
	steady := m.fills[1:]
	for _, f := range steady {
		sum += f
	}
	return sum / sched.Time(len(steady)), len(steady)
}
