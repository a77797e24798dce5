package bench

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/diskbench"
)

func TestParseTransfer(t *testing.T) {
	for _, tc := range []struct {
		in          string
		secs, reads int
	}{{"4Kx2", 8, 2}, {"8kX1", 16, 1}, {"1Kx8", 2, 8}} {
		secs, reads, err := ParseTransfer(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, []int{tc.secs, tc.reads}, []int{secs, reads}, tc.in)
	}
	for _, tc := range []struct{ in, why string }{
		{"4K", "is not NKxM"}, {"x2", "is not NKxM"}, {"0Kx1", "is not NKxM"}, {"4Kx0", "is not NKxM"},
		{"16Kx3", "exceeds the 32 KB buffer"},
	} {
		_, _, err := ParseTransfer(tc.in)
		assert.ErrorContains(t, err, tc.why, tc.in)
	}
}

func TestInterleaveCases(t *testing.T) {
	story := InterleaveCases(nil, nil)
	require.Len(t, story, 9, "4Kx2 at 2:1-9:1 and 8Kx1 at 3:1")
	assert.Equal(t, InterleaveCase{2, "4Kx2"}, story[0])
	assert.Equal(t, InterleaveCase{3, "8Kx1"}, story[8])
	for _, c := range story {
		_, ok := diskbench.Story[c.Transfer][c.Interleave]
		assert.True(t, ok, "%+v is a row of the story's table", c)
	}
	assert.Equal(t, []InterleaveCase{{3, "8Kx1"}, {3, "1Kx2"}, {5, "8Kx1"}, {5, "1Kx2"}},
		InterleaveCases([]int{3, 5}, []string{"8Kx1", "1Kx2"}))
	assert.Len(t, InterleaveCases(nil, []string{"1Kx8"}), 8, "interleaves 2-9")
	assert.Equal(t, []InterleaveCase{{6, "4Kx2"}}, InterleaveCases([]int{6}, nil))
}

// A sweep refuses what it cannot measure before it makes any image.
func TestInterleaveRefusesBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	ok := InterleaveSweep{Cases: InterleaveCases([]int{3}, nil), Samples: 1, Chunks: 4, Mode: diskbench.Burst, Burst: 256, Dir: dir}
	for _, tc := range []struct {
		change func(*InterleaveSweep)
		why    string
	}{
		{func(w *InterleaveSweep) { w.Samples = 0 }, "0 samples"},
		{func(w *InterleaveSweep) { w.Chunks = 1 }, "1 chunks"},
		{func(w *InterleaveSweep) { w.Cases = append(w.Cases, InterleaveCase{4, "3K"}) }, `"3K" is not NKxM`},
		{func(w *InterleaveSweep) { w.Cases = []InterleaveCase{{3, "1Kx32"}} }, "1Kx32 at 3:1: 128 READs"},
	} {
		w := ok
		tc.change(&w)
		_, err := Interleave(w, nil)
		assert.ErrorContains(t, err, tc.why)
	}
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, files, "no image made")
}
