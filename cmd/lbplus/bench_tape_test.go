package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchTapeJSON(t *testing.T) {
	// The 256-byte run hangs: the results are all printed, and the exit
	// is non-zero.
	out, _, err := execute("bench", "tape", "--json", "--interleave", "3", "--burst", "16,256", "--blocks", "3")
	assert.EqualError(t, err, "1 of 2 runs failed")
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows), out)
	require.Len(t, rows, 2)
	for _, k := range []string{"interleave", "burst", "bytes_per_sec", "repositions", "hung"} {
		assert.Contains(t, rows[0], k)
	}
	assert.Equal(t, false, rows[0]["hung"])
	assert.Greater(t, rows[0]["bytes_per_sec"].(float64), 10000.0)
	assert.Equal(t, true, rows[1]["hung"])
}

func TestBenchTapeBadFlags(t *testing.T) {
	_, _, err := execute("bench", "tape", "--interleave", "x")
	assert.ErrorContains(t, err, "--interleave")
	_, _, err = execute("bench", "tape", "--interleave", "99")
	assert.ErrorContains(t, err, "interleave 99")
	_, _, err = execute("bench", "tape", "--delay", "0,4001")
	assert.EqualError(t, err, "--delay 4001: give 0 to 4000 ms")
}
