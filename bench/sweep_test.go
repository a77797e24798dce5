package bench

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sweep shows command overhead dominating small transfers: throughput
// grows with the READ size for both handshakes, and bursts beat byte-by-byte
// once a READ spans more than one sector.
func TestSweepShape(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep runs 14 boards")
	}
	dir := scratch(t)
	pts, err := Sweep(Options{Dir: dir}, 128, nil)
	require.NoError(t, err)
	require.Len(t, pts, 2*len(SweepSectors))
	for _, p := range pts {
		t.Logf("%2d %-5s %8.0f B/s %7.2f ms/READ %s", p.Sectors, p.Handshake, p.BytesPerSec, p.MsPerRead, p.Failed)
		assert.Empty(t, p.Failed)
	}
	byHS := map[string][]SweepPoint{}
	for _, p := range pts {
		byHS[p.Handshake] = append(byHS[p.Handshake], p)
	}
	for hs, ps := range byHS {
		for i := 1; i < len(ps); i++ {
			assert.GreaterOrEqual(t, ps[i].BytesPerSec, 0.99*ps[i-1].BytesPerSec, "%s: %d vs %d blocks per READ", hs, ps[i].Sectors, ps[i-1].Sectors)
		}
		assert.Greater(t, ps[len(ps)-1].BytesPerSec, 1.5*ps[0].BytesPerSec, "%s: 64 blocks per READ vs 1", hs)
	}
	// A single-block READ misses the next sector and waits a revolution,
	// whatever the handshake: the command, not the data, sets its pace.
	assert.InDelta(t, byHS["byte"][0].BytesPerSec, byHS["burst"][0].BytesPerSec, 0.05*byHS["burst"][0].BytesPerSec)
	assert.Greater(t, byHS["burst"][4].BytesPerSec, byHS["byte"][4].BytesPerSec, "16 blocks: burst beats byte")
	require.NoError(t, PlotSweep(pts, filepath.Join(dir, "sweep.png")))
}
