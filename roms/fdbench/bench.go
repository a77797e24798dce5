package fdbench

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

// Row is one `lbplus bench floppy` measurement: reading a whole track
// (sectors 17-26 of an amp2 disk, in order) at a physical interleave with a
// read loop of LoopTStates a byte.
type Row struct {
	Interleave  int     `json:"interleave"`
	LoopTStates int     `json:"loop_t_states"`
	MsPerTrack  float64 `json:"ms_per_track"`
	// LostDataRetries is the number of sector reads per track that ended
	// with Lost Data (or RNF/CRC) and were tried again.
	LostDataRetries float64 `json:"lost_data_retries"`
	// GaveUp counts sectors still bad after Retries tries (per track).
	GaveUp float64 `json:"gave_up"`
}

// BenchRetries is how often the bench's BIOS-like loop retries a sector
// [A] (the Ampro BIOS retries lost data; 4 bounds a hopeless loop).
const BenchRetries = 4

// benchTracks: one warm-up read of the track (its start is at a random
// angle), then the steady state over the next ones, as the story's disk
// measurements take it.
const benchTracks = 3

// Bench reads track 0 of an amp2 disk laid down at interleave il with a
// read loop of loop T-states a byte, as an Ampro-style BIOS does: Read
// Sector, the polled loop, then the 512 bytes copied with LDIR (deblocking)
// before the next sector.
func Bench(il, loop int) (Row, error) {
	row := Row{Interleave: il, LoopTStates: loop}
	f, _ := fdimage.ParseFormat("amp2")
	f.Interleave = il
	if err := f.Validate(); err != nil {
		return row, err
	}
	p, err := Build(loop)
	if err != nil {
		return row, err
	}
	b, err := NewBoard(f.NewDisk(0xE5), false)
	if err != nil {
		return row, err
	}
	defer b.Close()
	var s Script
	s.Latch(0x01)
	s.TypeI(0x08, 0) // Restore with h = 1: the motor starts, no wait
	s.Mark(0)
	for t := 1; t <= benchTracks; t++ {
		for r := 0; r < f.Sectors; r++ {
			s.ReadSector(byte(f.FirstID+r), 0x20, BenchRetries)
			s.Copy(0x20, byte(0x30+2*r))
		}
		s.Mark(byte(t))
	}
	res, err := Exec(b, p, s, nil, sched.Time(benchTracks*f.Sectors*(BenchRetries+2))*200*sched.Millisecond+sched.Second)
	if err != nil {
		return row, err
	}
	if len(res.Marks) != benchTracks+1 {
		return row, fmt.Errorf("fdbench: %d markers for %d tracks", len(res.Marks), benchTracks)
	}
	first, last := res.Marks[1], res.Marks[benchTracks]
	n := float64(benchTracks - 1)
	row.MsPerTrack = float64(last.At-first.At) / float64(sched.Millisecond) / n
	row.LostDataRetries = float64(last.Retries-first.Retries) / n
	// Sectors given up: a status with an error bit after its last try.
	bad := 0
	for i := 0; i < len(res.Status); i++ {
		if i >= 1 && res.Status[i]&0x1C != 0 {
			bad++
		}
	}
	// Each given-up sector left BenchRetries+1 bad statuses.
	row.GaveUp = float64(bad/(BenchRetries+1)) / float64(benchTracks)
	return row, nil
}
