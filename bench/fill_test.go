package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A synthetic bus: the meter opens a fill at the first disk selection after
// a tape command, closes it at the next tape selection, ends it at the disk's
// last bus free, and leaves out fills that moved no data.
func TestFillMeterTimesFillsBetweenTapeCommands(t *testing.T) {
	m := NewFillMeter(DiskID, HostID)
	host := uint8(1) << HostID
	at := func(ms float64) sched.Time { return sched.Time(ms * float64(sched.Millisecond)) }
	command := func(start, end float64, target int, bytes int) {
		m.observe(at(start), scsi.SEL, host|1<<target)
		m.observe(at(start)+1, scsi.SEL|scsi.BSY, 0)
		m.observe(at(start)+2, scsi.BSY, 0)
		in := scsi.BSY | scsi.IO // DATA IN
		for i := range bytes {
			m.observe(at(start)+sched.Time(3+2*i), in|scsi.REQ, 0)
			m.observe(at(start)+sched.Time(4+2*i), in|scsi.REQ|scsi.ACK, 0)
			m.observe(at(start)+sched.Time(5+2*i), in, 0)
		}
		m.observe(at(end), 0, 0)
	}
	command(0, 3, DiskID, 0)     // TEST UNIT READY: no data
	command(4, 5, TapeID, 0)     // the tape's first command
	command(10, 50, DiskID, 4)   // fill 1: two READs
	command(60, 90, DiskID, 4)   //
	command(100, 300, TapeID, 0) // WRITE
	command(310, 370, DiskID, 8) // fill 2: one READ
	command(400, 600, TapeID, 0)
	command(610, 675, DiskID, 8) // fill 3
	command(700, 900, TapeID, 0)
	command(910, 950, DiskID, 8) // still open: not counted
	require.Equal(t, []sched.Time{at(80), at(60), at(65)}, m.Fills())
	mean, n := m.SteadyMean()
	assert.Equal(t, 2, n, "the first fill is left out")
	assert.Equal(t, at(62.5), mean)
}

// On the board the meter sees BACKUP's fills: one a block, each longer
// than the 48 slots its 16 sectors span at 3:1 and shorter than that plus
// two revolutions and the commands' cost.
func TestFillMeterOnTheHeadlineRow(t *testing.T) {
	row, err := FindRow(FigHeadline, 6)
	require.NoError(t, err)
	m := NewFillMeter(DiskID, HostID)
	res, err := Run(row.Setup, Options{Dir: t.TempDir(), OnBus: m.Attach})
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	assert.Len(t, m.Fills(), 6)
	rev := 16667 * sched.Microsecond
	data := 16 * 3 * rev / 17 // 16 sectors, 3 slots apart
	for _, f := range m.Fills()[1:] {
		assert.Greater(t, f, data)
		// at most a revolution of latency and one lost at a cylinder
		assert.Less(t, f, data+2*rev+5*sched.Millisecond)
	}
}
