package main

import (
	"bytes"
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
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"bench", "interleave", "--json", "--interleave", "3", "--transfer", "8Kx1,1Kx2", "--samples", "2"})
	require.NoError(t, rootCmd.Execute())
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rows))
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
// transfer. Both say which they are in the JSON. (Cobra keeps flag values
// between Execute calls, so each call sets the mode.)
func TestBenchInterleaveSteadyAndIsolated(t *testing.T) {
	run := func(args ...string) []map[string]any {
		var out bytes.Buffer
		rootCmd.SetOut(&out)
		rootCmd.SetArgs(append([]string{"bench", "interleave", "--json", "--interleave", "8", "--transfer", "4Kx2"}, args...))
		require.NoError(t, rootCmd.Execute())
		var rows []map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &rows))
		require.Len(t, rows, 1)
		return rows
	}
	steady := run("--isolated=false", "--chunks", "3", "--samples", "1")[0]
	assert.Equal(t, "steady", steady["method"])
	assert.Equal(t, float64(3), steady["chunks"])
	// 16 sectors 8 slots apart, no revolution lost at a READ boundary.
	assert.InDelta(t, 16*8*16.667/17, steady["ms"].(float64), 0.3)
	assert.InDelta(t, steady["ms"].(float64), steady["ctc_ms"].(float64), 0.2)
	assert.Equal(t, float64(0), steady["lost_revolutions"])
	iso := run("--isolated", "--samples", "2")[0]
	assert.Equal(t, "isolated", iso["method"])
	assert.Equal(t, float64(2), iso["samples"])

	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"bench", "interleave", "--isolated=false", "--chunks", "1"})
	assert.ErrorContains(t, rootCmd.Execute(), "--chunks")
}
