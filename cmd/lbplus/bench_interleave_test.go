package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseInterleaves(t *testing.T) {
	got, err := parseInterleaves("2-4, 8")
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 4, 8}, got)
	for _, bad := range []string{"0", "17", "x", "5-3", "2-y"} {
		_, err := parseInterleaves(bad)
		assert.Error(t, err, bad)
	}
}

func TestBenchInterleaveJSON(t *testing.T) {
	out, _, err := execute("bench", "interleave", "--json", "--interleave", "3", "--transfer", "8Kx1,1Kx2", "--samples", "2")
	require.NoError(t, err)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 2)
	assert.Equal(t, float64(3), rows[0]["interleave"])
	assert.Equal(t, "8Kx1", rows[0]["transfer"])
	assert.Equal(t, float64(60), rows[0]["story_ms"])
	assert.Greater(t, rows[0]["ms"].(float64), 30.0)
	assert.Nil(t, rows[1]["story_ms"], "no story figure for 1Kx2")
	for _, r := range rows {
		for _, k := range []string{"interleave", "transfer", "ms", "story_ms"} {
			assert.Contains(t, r, k)
		}
	}
}

// The default is the steady state of sequential chunks; --isolated times one
// transfer. Both say which they are in the JSON.
func TestBenchInterleaveSteadyAndIsolated(t *testing.T) {
	run := func(args ...string) []map[string]any {
		out, _, err := execute(append([]string{"bench", "interleave", "--json", "--interleave", "8", "--transfer", "4Kx2"}, args...)...)
		require.NoError(t, err)
		var rows []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rows))
		require.Len(t, rows, 1)
		return rows
	}
	steady := run("--chunks", "3")[0]
	assert.Equal(t, "steady", steady["method"])
	assert.Equal(t, float64(3), steady["chunks"])
	// 16 sectors 8 slots apart, no revolution lost at a READ boundary.
	assert.InDelta(t, 16*8*16.667/17, steady["ms"].(float64), 0.3)
	assert.InDelta(t, steady["ms"].(float64), steady["ctc_ms"].(float64), 0.2)
	assert.Equal(t, float64(0), steady["lost_revolutions"])
	assert.Equal(t, float64(1), steady["samples"], "one steady run by default")
	iso := run("--isolated", "--samples", "2")[0]
	assert.Equal(t, "isolated", iso["method"])
	assert.Equal(t, float64(2), iso["samples"])
	assert.Equal(t, float64(8), run("--isolated")[0]["samples"], "eight isolated runs by default")

	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--chunks", "1"}, "--chunks 1: at least 2 (the first is not timed)"},
		{[]string{"--samples", "-1"}, "--samples -1: at least 1"},
		{[]string{"--mode", "fast"}, `--mode "fast": burst or byte`},
		{[]string{"--transfer", "3K"}, `--transfer: "3K" is not NKxM (e.g. 4Kx2)`},
		{[]string{"--interleave", "9-2"}, `--interleave: "9-2" is reversed (write 2-9)`},
	} {
		_, _, err := execute(append([]string{"bench", "interleave"}, tc.args...)...)
		assert.EqualError(t, err, tc.err, tc.args)
	}
}
