package bench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedPasses is the reduced size of the regression: 16 tape blocks (128 KB)
// per row, enough for the tape to settle into streaming or stopping.
const seedPasses = 16

// TestSeedRegression replays the story's table and guards it: no change to
// a model or a Z80 routine may move these figures unnoticed.
func TestSeedRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five boards through 128 KB each")
	}
	res, err := RunRows(Rows(seedPasses), Options{Dir: scratch(t)}, nil)
	require.NoError(t, err)
	var misses []string
	for _, r := range res {
		t.Logf("%-22s %8.0f B/s  story %6s  repositions %3d  elapsed %v  %s",
			r.Name, r.BytesPerSec, r.StoryText(), r.Repositions, r.Elapsed, r.Failed)
		if why := r.Check(); why != "" {
			misses = append(misses, r.Name+": "+why)
		}
	}
	if len(misses) > 0 {
		t.Error(strings.Join(misses, "\n"))
	}
}

// TestCheck: the regression rule of each kind of row, on made-up results.
func TestCheck(t *testing.T) {
	rows := Rows(16)
	best, bios := rows[4], rows[0]
	for _, c := range []struct {
		name string
		r    RowResult
		want string
	}{
		{"best inside", RowResult{Row: best, Result: Result{BytesPerSec: 12787 * 1.0095}}, ""},
		{"best above", RowResult{Row: best, Result: Result{BytesPerSec: 12787 * 1.011}}, "+1.1% from the story's 12787, outside +-1%"},
		{"best below", RowResult{Row: best, Result: Result{BytesPerSec: 12787 * 0.98}}, "-2.0%"},
		{"byte row outside 1%", RowResult{Row: rows[1], Result: Result{BytesPerSec: 6631 * 0.985}}, "-1.5% from the story's 6631, outside +-1%"},
		{"4K x2 row inside 1%", RowResult{Row: rows[3], Result: Result{BytesPerSec: 9716 * 0.992}}, ""},
		{"failed run", RowResult{Row: best, Result: Result{Failed: "tape hung"}}, "run failed: tape hung"},
		{"bios ok", RowResult{Row: bios, Result: Result{BytesPerSec: 2900, Repositions: 8}}, ""},
		{"bios fast", RowResult{Row: bios, Result: Result{BytesPerSec: 3100, Repositions: 16}}, "the story's is under 3000"},
		{"bios too slow for a quadrupling", RowResult{Row: bios, Result: Result{BytesPerSec: 2800, Repositions: 16}}, "more than 4.5x"},
		{"bios streams", RowResult{Row: bios, Result: Result{BytesPerSec: 2900, Repositions: 7}}, "7 tape repositions in 16 blocks"},
	} {
		got := c.r.Check()
		if c.want == "" {
			assert.Empty(t, got, c.name)
		} else {
			assert.Contains(t, got, c.want, c.name)
		}
		j := c.r.JSON()
		assert.Equal(t, c.want == "", j.OK, c.name)
		assert.Equal(t, got, j.Failure, c.name)
	}
	j := RowResult{Row: bios, Result: Result{BytesPerSec: 2700}}.JSON()
	assert.Equal(t, "< 3000", j.Story)
	require.NotNil(t, j.StoryBytesPerSec)
	assert.Equal(t, 3000.0, *j.StoryBytesPerSec)
	require.NotNil(t, j.Deviation)
	assert.InDelta(t, -0.1, *j.Deviation, 1e-9)
	assert.Nil(t, j.Tolerance)
}
