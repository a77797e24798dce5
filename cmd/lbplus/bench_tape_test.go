package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchTapeJSON(t *testing.T) {
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"bench", "tape", "--json", "--interleave", "3", "--burst", "16,256", "--blocks", "3"})
	defer rootCmd.SetArgs(nil)
	// The 256-byte run hangs: the results are all printed, and the exit
	// is non-zero.
	assert.EqualError(t, rootCmd.Execute(), "1 of 2 runs failed")
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rows), out.String())
	require.Len(t, rows, 2)
	for _, k := range []string{"interleave", "burst", "bytes_per_sec", "repositions", "hung"} {
		assert.Contains(t, rows[0], k)
	}
	assert.Equal(t, false, rows[0]["hung"])
	assert.Greater(t, rows[0]["bytes_per_sec"].(float64), 10000.0)
	assert.Equal(t, true, rows[1]["hung"])
}

func TestBenchTapeBadFlags(t *testing.T) {
	rootCmd.SetArgs([]string{"bench", "tape", "--interleave", "x"})
	defer rootCmd.SetArgs(nil)
	assert.ErrorContains(t, rootCmd.Execute(), "--interleave")
	rootCmd.SetArgs([]string{"bench", "tape", "--interleave", "99"})
	assert.ErrorContains(t, rootCmd.Execute(), "interleave 99")
	rootCmd.SetArgs([]string{"bench", "tape", "--delay", "0,4001"})
	assert.EqualError(t, rootCmd.Execute(), "--delay 4001: give 0 to 4000 ms")
}
