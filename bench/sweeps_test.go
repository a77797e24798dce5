package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// Every interleave with every burst and every delay, in that nesting,
// each with the base's other settings; one bad setup refuses the sweep.
func TestTapeSetups(t *testing.T) {
	base := TapeSetup{Read: true, Blocks: 4}
	got, err := TapeSetups(base, []int{3, 6}, []int{16, 256}, []sched.Time{0, 300 * sched.Millisecond})
	require.NoError(t, err)
	require.Len(t, got, 8)
	assert.Equal(t, TapeSetup{Interleave: 3, Burst: 16, Read: true, Blocks: 4}, got[0])
	assert.Equal(t, TapeSetup{Interleave: 3, Burst: 16, Read: true, Blocks: 4, Delay: 300 * sched.Millisecond}, got[1])
	assert.Equal(t, TapeSetup{Interleave: 3, Burst: 256, Read: true, Blocks: 4}, got[2])
	assert.Equal(t, TapeSetup{Interleave: 6, Burst: 256, Read: true, Blocks: 4, Delay: 300 * sched.Millisecond}, got[7])

	_, err = TapeSetups(base, []int{3, 99}, []int{16}, []sched.Time{0})
	assert.ErrorContains(t, err, "interleave 99")
	_, err = TapeSetups(TapeSetup{Blocks: 1}, []int{3}, []int{16}, []sched.Time{0})
	assert.Error(t, err, "one block is too few")
}

// A floppy sweep runs loops outer, interleaves inner, and tells of each
// run before it starts.
func TestFloppySweepOrder(t *testing.T) {
	var heard [][4]int
	rows, err := FloppySweep([]int{2, 3}, []int{67}, func(il, loop, done, total int) {
		heard = append(heard, [4]int{il, loop, done, total})
	})
	require.NoError(t, err)
	assert.Equal(t, [][4]int{{2, 67, 0, 2}, {3, 67, 1, 2}}, heard)
	require.Len(t, rows, 2)
	assert.Equal(t, 2, rows[0].Interleave)
	assert.Equal(t, 3, rows[1].Interleave)
	assert.Equal(t, 67, rows[1].LoopTStates)
	assert.Positive(t, rows[0].MsPerTrack)
}
