package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// The shape of the floppy table: with a deblocking BIOS (2.7 ms of LDIR
// after each sector) 1:1 loses almost a revolution per sector, 2:1 reads a
// track in two revolutions, and each step of interleave beyond costs one
// more; a loop of 150 T-states a byte loses every sector.
func TestFloppyShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ten boards for seconds of simulated time")
	}
	rows := map[int]FloppyRow{}
	for il := 1; il <= 5; il++ {
		r, err := Floppy(il, fdbench.BaseLoop)
		require.NoError(t, err)
		assert.Zero(t, r.LostDataRetries, "%d:1", il)
		rows[il] = r
		t.Logf("%d:1 %6.1f ms", il, r.MsPerTrack)
	}
	assert.InDelta(t, 2*200.0, rows[2].MsPerTrack, 30)
	assert.InDelta(t, 3*200.0, rows[3].MsPerTrack, 30)
	assert.Greater(t, rows[1].MsPerTrack, 8*200.0)
	for il := 3; il <= 5; il++ {
		assert.Greater(t, rows[il].MsPerTrack, rows[il-1].MsPerTrack)
	}
	slow, err := Floppy(2, 150)
	require.NoError(t, err)
	assert.Equal(t, float64(10*FloppyRetries), slow.LostDataRetries)
	assert.Equal(t, float64(10), slow.GaveUp)
}

// One quick row for -short: 2:1 with the BIOS loop.
func TestFloppyTwoToOne(t *testing.T) {
	r, err := Floppy(2, fdbench.BaseLoop)
	require.NoError(t, err)
	assert.Zero(t, r.LostDataRetries)
	assert.Zero(t, r.GaveUp)
	assert.InDelta(t, 400, r.MsPerTrack, 30)
}

// BenchmarkFloppyRead: the board reading track 0 at 2:1 with the BIOS
// loop (a DRQ and a data register read every 32 us), in emulated T-states
// per host second, to set beside BenchmarkBackupRow's SCSI burst READs
// (emu package): a busy floppy must cost no more per emulated second.
func BenchmarkFloppyRead(b *testing.B) {
	f, _ := fdimage.ParseFormat("amp2")
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	for t := 0; t < 4; t++ {
		for r := 0; r < 10; r++ {
			s.ReadSector(byte(17+r), 0x20, FloppyRetries)
			s.Copy(0x20, byte(0x30+2*r))
		}
	}
	var tstates uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		run := loadFloppy(b, f.NewDisk(0xE5), fdbench.BaseLoop, s, nil)
		t0 := run.Board.CPU().T()
		b.StartTimer()
		if _, err := run.Finish(10 * sched.Second); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		tstates += run.Board.CPU().T() - t0
		run.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(tstates)/b.Elapsed().Seconds()/1e6, "board-MT/s")
}
