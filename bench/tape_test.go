package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/sched"
)

func runTape(t *testing.T, s TapeSetup) TapeResult {
	t.Helper()
	r, err := RunTape(s, TapeOptions{Dir: t.TempDir()})
	require.NoError(t, err)
	return r
}

// Writing as fast as the host allows with 16-byte bursts streams at 3:1,
// 4:1 and 6:1, and the net rate is one block per k slots and a frame gap.
func TestWriteStreamsRateFallsWithInterleave(t *testing.T) {
	p := mcd403.DefaultParams()
	var rates []float64
	for _, k := range []int{3, 4, 6} {
		r := runTape(t, TapeSetup{Interleave: k, Burst: 16, Blocks: 4})
		require.Empty(t, r.Failed)
		assert.Zero(t, r.Repositions, "k=%d streams", k)
		assert.Zero(t, r.Overwrites)
		rates = append(rates, r.BytesPerSec)
		t.Logf("k=%d: %.0f B/s", k, r.BytesPerSec)
	}
	for i, k := range []int{3, 4, 6} {
		assert.InEpsilon(t, p.StreamRate(k), rates[i], 0.001, "k=%d: 8192 B / (k x SlotTime + FrameGap)", k)
	}
	// The per-block term: 1/rate is affine in k, so rate * k grows with k.
	assert.Less(t, 3*rates[0], 4*rates[1])
	assert.Less(t, 4*rates[1], 6*rates[2])
}

// A host slowed by a delay between blocks makes the drive stop and
// reposition every block.
func TestDelayedHostRepositions(t *testing.T) {
	r := runTape(t, TapeSetup{Interleave: 3, Burst: 16, Blocks: 4, Delay: 300 * sched.Millisecond})
	require.Empty(t, r.Failed)
	assert.Equal(t, 3, r.Repositions)
	t.Logf("delayed: %.0f B/s, %d repositions", r.BytesPerSec, r.Repositions)
}

// 256-byte OTIR bursts hang in DATA OUT, detected by the program's timeout;
// byte-by-byte writes and 256-byte INIR reads complete.
func TestTapeBursts(t *testing.T) {
	for _, tc := range []struct {
		s    TapeSetup
		hang bool
	}{
		{TapeSetup{Interleave: 3, Burst: 256, Blocks: 2}, true},
		{TapeSetup{Interleave: 3, Burst: 0, Blocks: 2}, false},
		{TapeSetup{Interleave: 3, Burst: 256, Blocks: 3, Read: true}, false},
	} {
		t.Run(fmt.Sprintf("burst %d read %v", tc.s.Burst, tc.s.Read), func(t *testing.T) {
			r := runTape(t, tc.s)
			assert.Equal(t, tc.hang, r.Hung, r.Failed)
			if tc.hang {
				assert.NotZero(t, r.Overwrites, "bytes overwritten in the 5380's latch")
				assert.Equal(t, 127, r.LostByte, "the byte that found the FIFO full (127 + 64m)")
				// The Z80 pushed all its bytes and waits for STATUS; the
				// drive still asks for the lost ones: mid DATA OUT.
				assert.Equal(t, uint8(4), r.Program.Stage, "STG_STAT: waiting for status")
				assert.Equal(t, uint8(0), r.Program.CSB>>2&7, "bus in DATA OUT")
				assert.NotZero(t, r.Program.CSB&0x40, "target holds BSY")
				assert.Zero(t, r.Drive.BlocksWritten)
				return
			}
			assert.Empty(t, r.Failed)
			assert.Zero(t, r.StaleReads)
			assert.Zero(t, r.Overwrites)
		})
	}
}

func TestTapeSetupValidate(t *testing.T) {
	assert.Error(t, TapeSetup{Interleave: 0, Blocks: 2}.Validate())
	assert.Error(t, TapeSetup{Interleave: 3, Burst: 257, Blocks: 2}.Validate())
	assert.Error(t, TapeSetup{Interleave: 3, Blocks: 1}.Validate())
	assert.Error(t, TapeSetup{Interleave: 3, Blocks: 2, Delay: 5 * sched.Second}.Validate())
	assert.NoError(t, TapeSetup{Interleave: 3, Burst: 16, Blocks: 2}.Validate())
}

// The trace shows the lost byte: the drive's FIFO fills, the 5380's latch
// is overwritten, and the bus stays in DATA OUT.
func TestTraceShowsLostByte(t *testing.T) {
	var tr strings.Builder
	r, err := RunTape(TapeSetup{Interleave: 3, Burst: 256, Blocks: 2, Timeout: 1}, TapeOptions{Dir: t.TempDir(), Trace: &tr})
	require.NoError(t, err)
	require.True(t, r.Hung)
	s := tr.String()
	full := strings.Index(s, "mcd403: FIFO full after byte 126 of block 0")
	lost := strings.Index(s, "5380: DACK write overwrote ODR")
	require.True(t, full >= 0 && lost > full, "FIFO full, then the overwrite")
	assert.Contains(t, s, "5380: bus reset", "the program's timeout resets the bus")
	assert.Contains(t, s, "mcd403: bus reset: block 0 dropped")
}

// Under hypothesis B (DRQ holds the Z80 in WAIT) the same 256-byte bursts
// cannot overrun the latch: the hang is hypothesis A's.
func TestTapeHypothesisBNoHang(t *testing.T) {
	r, err := RunTape(TapeSetup{Interleave: 3, Burst: 256, Blocks: 3}, TapeOptions{Dir: t.TempDir(), WaitOnDRQ: true})
	require.NoError(t, err)
	assert.False(t, r.Hung, r.Failed)
	assert.Empty(t, r.Failed)
	assert.Zero(t, r.Overwrites)
	assert.Zero(t, r.Repositions)
	assert.InEpsilon(t, mcd403.DefaultParams().StreamRate(3), r.BytesPerSec, 0.01)
}
