package bench

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Disk-only BACKUP runs through every source path and handshake: the program
// completes, its console report agrees with its result block, and the last
// pass's buffer holds exactly the disk's bytes (a duplicated or lost byte in
// a burst would show here).
func TestDiskReadPaths(t *testing.T) {
	cases := []struct {
		src   backup.Source
		mode  backup.Handshake
		burst int
		rd    int
		nc    bool
	}{
		{backup.SourceSCSI, backup.Burst, 256, 16, false},
		{backup.SourceSCSI, backup.Burst, 16, 8, false},
		{backup.SourceSCSI, backup.Burst, 128, 3, false}, // a READ of 3 blocks, a burst of 128
		{backup.SourceSCSI, backup.Byte, 256, 16, false},
		{backup.SourceSCSI, backup.Byte, 256, 1, false},
		{backup.SourceBIOS, backup.Byte, 256, 1, false},
		{backup.SourceBIOS, backup.Byte, 256, 1, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("src%d-mode%d-burst%d-rd%d-nocache%v", c.src, c.mode, c.burst, c.rd, c.nc), func(t *testing.T) {
			p := backup.Defaults()
			p.TapeID = backup.NoTape
			p.Source, p.DiskMode, p.DiskBurst, p.ReadSectors = c.src, c.mode, c.burst, c.rd
			p.BIOSNoCache = c.nc
			p.BufSectors = 16 / c.rd * c.rd
			p.Passes = 2
			p.StartLBA = 40
			var con []byte
			r, err := Run(Setup{Name: "paths", DiskInterleave: 3, Program: p},
				Options{Dir: scratch(t), DiskPattern: true, Console: func(b byte) { con = append(con, b) }})
			require.NoError(t, err)
			require.Empty(t, r.Failed)
			assert.Equal(t, p.Bytes(), r.Bytes)
			assert.Greater(t, r.BytesPerSec, 1000.0)
			first := int(p.StartLBA) + p.BufSectors
			for i, v := range r.Buffer {
				lba := first + i/backup.SectorSize
				if !assert.Equal(t, Pattern(lba, i%backup.SectorSize), v, "buffer byte %d (block %d)", i, lba) {
					break
				}
			}
			assert.Equal(t, fmt.Sprintf("BACKUP done, bytes %d time %d us\r\n", r.Bytes, r.Program.Ticks*64), string(con), "the program's 64 us units")
		})
	}
}

// A target nobody answers for: selection times out (about 250 ms, the
// SCSI-1 recommendation) and BACKUP reports it instead of hanging.
func TestSelectionTimeout(t *testing.T) {
	p := backup.Defaults()
	p.TapeID = backup.NoTape
	p.DiskID = 4
	p.ReadyTries = 1
	p.Passes = 1
	r, err := Run(Setup{Name: "nobody", DiskInterleave: 3, Program: p}, Options{Dir: scratch(t)})
	require.NoError(t, err)
	assert.True(t, r.Program.Failed)
	assert.Equal(t, uint8(2), r.Program.Err, "SE_SELTO in sl_scsi.inc")
	assert.Equal(t, uint8(1), r.Program.Stage, "STG_SEL in sl_scsi.inc")
	assert.Contains(t, r.Failed, "selection timeout")
	assert.False(t, r.Hung)
	assert.InDelta(t, 0.25, r.BoardTime.Seconds(), 0.05, "one selection attempt")
}

// The two handshakes run at the story's rates, seen on the SCSI bus: ACK to
// ACK inside a DATA IN sector is 60 T = 15 us byte by byte, and 21 T =
// 5.25 us inside an INIR burst [F STUBBLEBINE: "15us per byte to 5.25us
// per byte"].
func TestHandshakeRatesOnBus(t *testing.T) {
	for _, c := range []struct {
		mode backup.Handshake
		want float64 // us
	}{{backup.Byte, 15}, {backup.Burst, 5.25}} {
		p := backup.Defaults()
		p.TapeID = backup.NoTape
		p.DiskMode = c.mode
		p.Passes = 1
		hist := map[int64]int{} // ACK-to-ACK interval in ns -> count
		var last sched.Time
		var prevACK bool
		onBus := func(bus *scsi.Bus) {
			bus.Observe(func(now sched.Time, lines scsi.Line, _ uint8) {
				ack := lines&scsi.ACK != 0
				if ack && !prevACK && scsi.PhaseOf(lines) == scsi.DataIn {
					if last != 0 {
						hist[int64((now-last)/sched.Nanosecond)]++
					}
					last = now
				}
				prevACK = ack
			})
		}
		r, err := Run(Setup{Name: "rates", DiskInterleave: 3, Program: p}, Options{Dir: scratch(t), OnBus: onBus})
		require.NoError(t, err)
		require.Empty(t, r.Failed)
		// The most common interval is the loop's own period.
		var mode int64
		for d, n := range hist {
			if n > hist[mode] {
				mode = d
			}
		}
		assert.InDelta(t, c.want, float64(mode)/1000, 0.01, "handshake %d", c.mode)
	}
}

// scratch is a per-test image directory, in RAM when the host has one.
func scratch(t testing.TB) string {
	d, err := ScratchDir("")
	require.NoError(t, err)
	t.Cleanup(func() { RemoveScratch(d) })
	return d
}

// The story's tape-write hang: OTIR bursts of 256 bytes overrun the drive's
// FIFO through the 5380's single output latch, the target is left waiting
// in DATA OUT, and BACKUP reports a hang in the tape command; 16-byte bursts
// with the DRQ check between them complete.
func TestTapeBurstHang(t *testing.T) {
	for _, c := range []struct {
		burst int
		hang  bool
	}{{256, true}, {16, false}} {
		p := backup.Defaults()
		p.TapeBurst, p.Passes, p.Timeout = c.burst, 2, 1
		r, err := Run(Setup{Name: "hang", DiskInterleave: 3, TapeInterleave: 3, Program: p}, Options{Dir: scratch(t)})
		require.NoError(t, err)
		assert.Equal(t, c.hang, r.Hung, "burst %d: %s", c.burst, r.Failed)
		if c.hang {
			assert.Equal(t, uint8(2), r.Program.Device, "the tape")
			assert.Equal(t, uint8(0x60), r.Program.CSB&0x7C, "BSY and REQ in DATA OUT: the target wants more bytes")
		} else {
			assert.Empty(t, r.Failed)
			assert.Equal(t, p.Bytes(), r.Bytes)
		}
	}
}

// BACKUP's CTC timer agrees with simulated time: the board's clock at the
// end minus the program's start-up (TEST UNIT READY before timing) is what
// the program measured, to within a few CTC periods.
func TestProgramTimerMatchesSimulatedTime(t *testing.T) {
	p := backup.Defaults()
	p.TapeID = backup.NoTape
	p.Console = false
	p.Passes = 20
	var firstSel sched.Time
	onBus := func(bus *scsi.Bus) {
		var prev scsi.Line
		freed := false
		bus.Observe(func(now sched.Time, l scsi.Line, _ uint8) {
			if l&scsi.BSY == 0 && prev&scsi.BSY != 0 {
				freed = true // TEST UNIT READY is over
			}
			if freed && firstSel == 0 && l&scsi.SEL != 0 && prev&scsi.SEL == 0 {
				firstSel = now // the first READ
			}
			prev = l
		})
	}
	r, err := Run(Setup{Name: "timer", DiskInterleave: 3, Program: p}, Options{Dir: scratch(t), OnBus: onBus})
	require.NoError(t, err)
	require.Empty(t, r.Failed)
	require.NotZero(t, firstSel)
	// The harness notices "done" within emu.CondQuantum (1 ms); the program
	// reads its timer a few hundred microseconds around the commands.
	assert.InDelta(t, (r.BoardTime - firstSel).Seconds(), r.Elapsed.Seconds(), 0.0015, "board %v, program %v", r.BoardTime-firstSel, r.Elapsed)
}

// A run on a shared, read-only disk image (Options.DiskImage) is the run on
// a fresh image of its own, to the T-state and the trace hash, for every
// seed row (the image is not changed by one run for the next: each row
// runs twice on it); an image formatted at another interleave is refused.
func TestSharedDiskImageRunsTheSame(t *testing.T) {
	disks := NewDiskImages(t.TempDir())
	for _, r := range Rows(ShortParamsPasses) {
		t.Run(r.Name, func(t *testing.T) {
			fresh, err := Run(r.Setup, Options{Dir: t.TempDir()})
			require.NoError(t, err)
			require.Empty(t, fresh.Failed)
			img, err := disks.Path(r.DiskInterleave)
			require.NoError(t, err)
			for range 2 {
				shared, err := Run(r.Setup, Options{Dir: t.TempDir(), DiskImage: img})
				require.NoError(t, err)
				assert.Equal(t, fresh.TraceHash, shared.TraceHash)
				assert.Equal(t, fresh.TStates, shared.TStates)
				assert.Equal(t, fresh.BoardTime, shared.BoardTime)
				assert.Equal(t, fresh.Program, shared.Program)
				assert.Equal(t, fresh.Repositions, shared.Repositions)
				assert.Equal(t, fresh.Buffer, shared.Buffer)
			}
		})
	}
	other, err := disks.Path(5)
	require.NoError(t, err)
	_, err = Run(Rows(ShortParamsPasses)[0].Setup, Options{Dir: t.TempDir(), DiskImage: other})
	require.ErrorContains(t, err, "interleave 2 given")
}
