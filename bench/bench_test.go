package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkSeedRow runs the story's best row (4 tape blocks) with every
// device active and reports emulated T-states per host second: the figure
// `lbplus bench seed` prints, in a form `go test -bench` can compare.
func BenchmarkSeedRow(b *testing.B) {
	row, err := FindRow("burst-hd3-8Kx1-tape3", 4)
	if err != nil {
		b.Fatal(err)
	}
	dir := scratch(b)
	var tstates uint64
	var sim float64
	start := time.Now()
	for b.Loop() {
		r, err := Run(row.Setup, Options{Dir: dir})
		if err != nil || r.Failed != "" {
			b.Fatal(err, r.Failed)
		}
		tstates += r.TStates
		sim += r.BoardTime.Seconds()
	}
	wall := time.Since(start).Seconds()
	b.ReportMetric(float64(tstates)/wall/1e6, "MT/s")
	b.ReportMetric(sim/wall, "x-realtime")
}

// TestScratchCleanup: scratch directories go where asked and an interrupt's
// RemoveAllScratch deletes every one still there.
func TestScratchCleanup(t *testing.T) {
	parent := t.TempDir()
	a, err := ScratchDir(parent)
	require.NoError(t, err)
	t.Setenv(ScratchEnv, parent)
	b, err := ScratchDir("")
	require.NoError(t, err)
	assert.Equal(t, parent, filepath.Dir(a))
	assert.Equal(t, parent, filepath.Dir(b))
	require.NoError(t, os.WriteFile(filepath.Join(a, "hd.img"), []byte("x"), 0o644))
	RemoveAllScratch()
	_, err = ScratchDir(parent)
	assert.ErrorContains(t, err, "interrupted", "none after the clean-up")
	scratchDirs.mu.Lock()
	scratchDirs.closed = false
	scratchDirs.mu.Unlock()
	left, err := os.ReadDir(parent)
	require.NoError(t, err)
	assert.Empty(t, left)
	_, err = ScratchDir(filepath.Join(parent, "missing"))
	assert.ErrorContains(t, err, "missing does not exist")
	file := filepath.Join(parent, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = ScratchDir(file)
	assert.ErrorContains(t, err, "file: not a folder")
}
