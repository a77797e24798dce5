package fdbench

import (
	"testing"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shape of the floppy table: with a deblocking BIOS (2.7 ms of LDIR
// after each sector) 1:1 loses almost a revolution per sector, 2:1 reads a
// track in two revolutions, and each step of interleave beyond costs one
// more; a loop of 150 T-states a byte loses every sector.
func TestBenchShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ten boards for seconds of simulated time")
	}
	rows := map[int]Row{}
	for il := 1; il <= 5; il++ {
		r, err := Bench(il, BaseLoop)
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
	slow, err := Bench(2, 150)
	require.NoError(t, err)
	assert.Equal(t, float64(10*BenchRetries), slow.LostDataRetries)
	assert.Equal(t, float64(10), slow.GaveUp)
}

// One quick row for -short: 2:1 with the BIOS loop.
func TestBenchTwoToOne(t *testing.T) {
	r, err := Bench(2, BaseLoop)
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
	p, err := Build(BaseLoop)
	if err != nil {
		b.Fatal(err)
	}
	var s Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	for t := 0; t < 4; t++ {
		for r := 0; r < 10; r++ {
			s.ReadSector(byte(17+r), 0x20, BenchRetries)
			s.Copy(0x20, byte(0x30+2*r))
		}
	}
	var tstates uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		board, err := NewBoard(f.NewDisk(0xE5), false)
		if err != nil {
			b.Fatal(err)
		}
		t0 := board.CPU().T()
		b.StartTimer()
		if _, err := Exec(board, p, s, nil, 10*sched.Second); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		tstates += board.CPU().T() - t0
		board.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(tstates)/b.Elapsed().Seconds()/1e6, "board-MT/s")
}
