package mcd403

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A host with its data ready (the initiator answers every REQ at once)
// writing a run of blocks at tape 2:1: with one WRITE per block it cannot
// stream, because GOOD comes only after the block is on tape and the next
// block's transfer and preparation then no longer fit two slots and a frame
// gap. With one WRITE of many blocks the second buffer takes block n+1 while
// block n waits for its slot, the drive's own work per block (transfer and
// BlockPrepare, about 364 ms) fits the 444.6 ms between blocks, and the tape
// streams at 2:1, 18.4 KB/s, as a Mac streamed the Apple 40SC at about
// every second slot (docs/TAPE.md 4). One buffer (Buffers 1) loses that.
func TestFastHostAtTwoToOne(t *testing.T) {
	const blocks = 12
	one := DefaultParams()
	one.Buffers = 1
	for _, tc := range []struct {
		name     string
		params   Params
		perCmd   int
		streams  bool
		minRepos int
	}{
		{"one WRITE of 12 blocks, two buffers", DefaultParams(), blocks, true, 0},
		{"one WRITE per block, two buffers", DefaultParams(), 1, false, blocks - 1},
		{"one WRITE of 12 blocks, one buffer", one, blocks, false, blocks - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.params
			r := newRig(t, rigOpts{interleave: 2, params: &p})
			var firstSlot, lastSlot sched.Time
			written := 0
			r.d.Observe(func(now sched.Time, ev string) {
				if strings.HasSuffix(ev, ": written") {
					if written == 0 {
						firstSlot = now
					}
					lastSlot = now
					written++
				}
			})
			for b := 0; b < blocks; b += tc.perCmd {
				data := make([]byte, 0, tc.perCmd*p.BlockSize)
				for i := b; i < b+tc.perCmd; i++ {
					data = append(data, pattern(i, p.BlockSize)...)
				}
				res := r.run(t, rw(OpWrite, b, tc.perCmd), data)
				require.Equal(t, byte(scsi.StatusGood), res.Status)
			}
			require.Equal(t, blocks, written)
			for b := 0; b < blocks; b++ {
				got := make([]byte, p.BlockSize)
				_, err := r.d.Tape().ReadBlock(b, got)
				require.NoError(t, err)
				require.Equal(t, pattern(b, p.BlockSize), got, "block %d", b)
			}
			rate := float64((blocks-1)*p.BlockSize) / (lastSlot - firstSlot).Seconds()
			t.Logf("%s: %.0f B/s between the first and the last slot, %d repositions", tc.name, rate, r.d.Repositions())
			if tc.streams {
				assert.Zero(t, r.d.Repositions())
				assert.InEpsilon(t, p.StreamRate(2), rate, 1e-9, fmt.Sprintf("one block per %v", p.BlockPeriod(2)))
				return
			}
			assert.GreaterOrEqual(t, r.d.Repositions(), tc.minRepos)
			assert.Less(t, rate, p.StreamRate(3))
		})
	}
}
