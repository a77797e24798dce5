package mcd403

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The experiment of docs/TAPE.md: a simulated host copies disk to tape in
// 8 KB blocks. Per block it is busy for Disk (reading the disk into memory),
// then Setup (its own code around the tape command), then it sends one
// WRITE(6) whose DATA OUT bytes it offers at Pace each (the drive may take
// them more slowly), then waits for status. The drive is the real model
// over the SCSI engine. The host figures are the story's measurements and
// docs/HARDWARE.md 9's disk model, i.e. inputs; the drive parameters are the
// model's. What comes out is whether the tape streams and the net rate.
type simHost struct {
	name  string
	Disk  sched.Time // shortest disk read of 8 KB, host busy
	Setup sched.Time // host code per block besides the transfers
	Pace  sched.Time // host time per DATA OUT byte when the drive is ready
	// Jitter spreads the disk read over [Disk, Disk+Jitter] from block to
	// block (rotational latency, cylinder crossings), deterministically.
	Jitter sched.Time
}

// disk is the host's disk time for its i-th block: a golden-ratio sequence
// covers the jitter range evenly without randomness.
func (h simHost) disk(i int) sched.Time {
	f := math.Mod(float64(i)*0.6180339887498949, 1)
	return h.Disk + sched.Time(f*float64(h.Jitter))
}

// The hosts: the disk reads and their spread are what BACKUP (roms/backup)
// measured on the emulated board with the ACB-4000 model over 150 blocks
// (the time from one tape status to the next block complete in the drive,
// less the tape transfer), rounded; they agree with the story's "about 60
// ms" and "80 ms" and docs/HARDWARE.md 9.4's 150 / 167 ms.
var (
	// Byte by byte: 15 us a byte [F STUBBLEBINE]; disk at 9:1: 8K x1 145-180 ms,
	// 4K x2 160-195 ms.
	hostByte8K = simHost{"byte-by-byte 8K x1", 145 * sched.Millisecond, 2 * sched.Millisecond, 15 * sched.Microsecond, 35 * sched.Millisecond}
	hostByte4K = simHost{"byte-by-byte 4K x2", 160 * sched.Millisecond, 2 * sched.Millisecond, 15 * sched.Microsecond, 35 * sched.Millisecond}
	// 16-byte OTIR bursts with a DRQ poll: 406 T per 16 bytes = 6.34 us a
	// byte (roms/scsilib sbbo loop); disk at 3:1: 8K x1 51-83 ms, 4K x2
	// 68-101 ms.
	hostBurst8K = simHost{"burst 8K x1", 51 * sched.Millisecond, 2 * sched.Millisecond, 6340 * sched.Nanosecond, 32 * sched.Millisecond}
	hostBurst4K = simHost{"burst 4K x2", 68 * sched.Millisecond, 2 * sched.Millisecond, 6340 * sched.Nanosecond, 33 * sched.Millisecond}
	// BIOS 128-byte calls with byte-by-byte handshakes at disk 2:1: BACKUP
	// on the board takes 420-440 ms a block; docs/HARDWARE.md 7 reads the
	// story's row 1 as 2.7 s or more a block (both are run).
	hostBIOS     = simHost{"BIOS 128-byte calls (0.43 s)", 300 * sched.Millisecond, 2 * sched.Millisecond, 15 * sched.Microsecond, 20 * sched.Millisecond}
	hostBIOSSlow = simHost{"BIOS 128-byte calls (2.7 s)", 2700 * sched.Millisecond, 2 * sched.Millisecond, 15 * sched.Microsecond, 0}
)

type simResult struct {
	rate        float64 // bytes per second over the measured blocks
	repositions int     // during the measured blocks
	misses      int
}

// simulate runs the host for warm+n blocks at tape interleave k and
// measures the last n.
func simulate(t testing.TB, p Params, k int, h simHost, warm, n int) simResult {
	r := newRig(t, rigOpts{interleave: k, params: &p})
	// The drive's handshake around each byte (REQ after ACK, REQ off, ACK
	// off) is part of the host's measured pace.
	ack := max(h.Pace-p.ReqAfterAck-300*sched.Nanosecond, 200*sched.Nanosecond)
	r.h.ByteDelay = func(ph scsi.Phase, _ int) sched.Time {
		if ph == scsi.DataOut {
			return ack
		}
		return 200 * sched.Nanosecond
	}
	data := make([]byte, p.BlockSize)
	var t0 sched.Time
	var st0 Stats
	for b := 0; b < warm+n; b++ {
		if b == warm {
			t0, st0 = r.s.Now(), r.d.Stats()
		}
		r.s.Advance(r.s.Now() + h.disk(b) + h.Setup)
		res := r.run(t, rw(OpWrite, b, 1), data)
		if res.Status != scsi.StatusGood {
			t.Fatalf("%s k=%d block %d: status %x", h.name, k, b, res.Status)
		}
	}
	el := r.s.Now() - t0
	st := r.d.Stats()
	return simResult{rate: float64(n*p.BlockSize) / el.Seconds(), repositions: st.Repositions - st0.Repositions,
		misses: st.Misses - st0.Misses}
}

// TestStoryRows checks the outcomes the story reports, from one parameter
// set: which host streams at which interleave, and the net rates of the
// streaming rows within 5 %.
func TestStoryRows(t *testing.T) {
	p := DefaultParams()
	rows := []struct {
		h       simHost
		k       int
		streams bool
		story   float64 // bytes per second, 0 when the story gives none
	}{
		{hostByte8K, 6, true, 6631},
		{hostByte4K, 6, true, 6631},
		{hostBurst8K, 3, true, 12787},
		{hostBurst4K, 4, true, 9716},
		{hostBurst4K, 3, false, 0}, // "now can keep it streaming at 4:1"
		{hostBIOS, 1, false, 0},
		{hostBIOS, 6, false, 0},
		{hostBIOS, 12, false, 0},
		{hostBIOSSlow, 6, false, 0},
	}
	for _, row := range rows {
		t.Run(fmt.Sprintf("%s at %d:1", row.h.name, row.k), func(t *testing.T) {
			r := simulate(t, p, row.k, row.h, 2, 12)
			switch {
			case row.streams:
				assert.Zero(t, r.repositions, "should stream")
				assert.InEpsilon(t, row.story, r.rate, 0.05, "net rate")
			case row.h == hostBurst4K:
				// Misses now and then: slower than streaming at 4:1.
				assert.NotZero(t, r.repositions)
				assert.Less(t, r.rate, p.NativeRate()/4)
			default:
				assert.Equal(t, 12, r.repositions, "should stop and reposition every block")
				if row.k <= 4 {
					// The baseline's 1:1 (bench rows); at higher interleaves
					// the stop lands nearer the next slot: 3-4 KB/s.
					assert.Less(t, r.rate, 3000.0, "story: under 3K bytes/s")
				}
			}
		})
	}
}

// TestExperimentTable prints the whole grid for docs/TAPE.md (go test -run
// ExperimentTable -v).
func TestExperimentTable(t *testing.T) {
	if testing.Short() {
		t.Skip("grid of simulated runs")
	}
	p := DefaultParams()
	for _, h := range []simHost{hostByte8K, hostByte4K, hostBurst8K, hostBurst4K, hostBIOS, hostBIOSSlow} {
		line := fmt.Sprintf("%-30s", h.name)
		for k := 2; k <= 8; k++ {
			r := simulate(t, p, k, h, 2, 12)
			line += fmt.Sprintf(" | %d:1 %5.0f %2d", k, r.rate, r.repositions)
		}
		t.Log(line)
	}
}
