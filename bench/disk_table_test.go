package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
)

// st125Head is the ST-125's first two cylinders: the same tracks as the real
// drive for the blocks read here, in a 70 KB image.
var st125Head = acb4000.Geometry{Name: "st125-head", Cylinders: 2, Heads: 4, Sectors: 17, SectorSize: 512}

func meanScope(t *testing.T, il int, p diskbench.Params, samples int) float64 {
	d := headDisk(t, il)
	dp := acb4000.DefaultParams()
	var sum float64
	for j := range samples {
		q := dp
		q.IndexPhase = dp.Revolution() * sched.Time(j) / sched.Time(samples)
		res, err := RunDisk(d, q, p, false)
		require.NoError(t, err)
		require.Empty(t, res.Failed)
		sum += res.Scope.Seconds() * 1000
	}
	return sum / float64(samples)
}

// The isolated measurement (one transfer from a random spindle angle,
// averaged over angles; `bench interleave --isolated`) keeps the shape of
// the story's table that does not depend on where the turnaround step
// falls: 2:1
// host-bound and about twice 3:1, 3:1 the fastest, 3:1..6:1 rising by a
// slot per sector, and one 8K READ at 3:1 a revolution faster than two 4K
// READs. (Where 7:1 and 8:1 fall is CommandOverhead's fit; see
// TestTurnaroundWindow. The story's figures are steady-state ones:
// TestSteadyTable.)
func TestInterleaveTableShape(t *testing.T) {
	if testing.Short() {
		t.Skip("board runs over spindle angles")
	}
	const samples = 4
	ms := map[int]float64{}
	var b strings.Builder
	for il := 2; il <= 9; il++ {
		ms[il] = meanScope(t, il, diskbench.Defaults(), samples)
		fmt.Fprintf(&b, "%d:1 4Kx2 %6.1f ms (story %v)\n", il, ms[il], diskbench.Story["4Kx2"][il])
	}
	p := diskbench.Defaults()
	p.ReadSecs, p.Reads = 16, 1
	one := meanScope(t, 3, p, samples)
	fmt.Fprintf(&b, "3:1 8Kx1 %6.1f ms (story about %v)\n", one, diskbench.Story["8Kx1"][3])
	t.Log("\n" + b.String())

	assert.Greater(t, ms[2], 1.8*ms[3])
	for il := 4; il <= 9; il++ {
		assert.Greater(t, ms[il], ms[3], "I=%d", il)
	}
	slots15 := 15 * 16.667 / 17
	for il := 4; il <= 6; il++ {
		assert.InDelta(t, slots15, ms[il]-ms[il-1], 1.5, "I=%d adds 15 slots", il)
	}
	assert.InDelta(t, 16.667, ms[3]-one, 3, "the revolution lost between two 4K READs")
}
