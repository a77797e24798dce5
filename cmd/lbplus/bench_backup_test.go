package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseReadSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		err  bool
	}{
		{"8K", 16, false}, {"4k", 8, false}, {"512", 1, false}, {"32K", 64, false}, {"1536", 3, false},
		{"33K", 0, true}, {"100", 0, true}, {"0", 0, true}, {"eight", 0, true}, {"-512", 0, true},
	} {
		n, err := parseReadSize(c.in)
		if c.err {
			assert.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, n, c.in)
	}
}

func TestPassesForMB(t *testing.T) {
	n, err := passesForMB(10)
	require.NoError(t, err)
	assert.Equal(t, 1221, n, "10 MB in 8 KB tape blocks")
	for _, bad := range []float64{0, -1, 41} {
		_, err := passesForMB(bad)
		assert.Error(t, err)
	}
}

// bench backup --json prints bench seed's JSON shape, and a known row keeps
// its id and story figure.
func TestBenchBackupJSON(t *testing.T) {
	out, errb, err := execute("bench", "backup", "--json", "--mb", "0.02", "--hd-interleave", "3", "--tape-interleave", "3")
	require.NoError(t, err, errb)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows), out)
	require.Len(t, rows, 1)
	assert.Equal(t, "burst-hd3-8Kx1-tape3", rows[0]["row"])
	assert.Equal(t, 12787.0, rows[0]["story_bytes_per_sec"])
	assert.Contains(t, rows[0], "bytes_per_sec")
	assert.Contains(t, rows[0], "repositions")
	assert.Equal(t, "12787", rows[0]["story"])
	assert.Equal(t, 0.01, rows[0]["tolerance"])
	assert.Contains(t, rows[0], "deviation")
	assert.Contains(t, rows[0], "ok")

	_, err = handshake("--disk-handshake", "fast")
	assert.Error(t, err)
}

// A failed run exits non-zero and its JSON says why.
func TestBenchBackupFailedRun(t *testing.T) {
	out, _, err := execute("bench", "backup", "--json", "--mb", "0.02", "--tape-burst", "256")
	require.Error(t, err)
	assert.Equal(t, "1 of 1 runs failed", err.Error())
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows), out)
	require.Len(t, rows, 1)
	assert.Equal(t, false, rows[0]["ok"])
	assert.Contains(t, rows[0]["failure"], "run failed: tape: hung")
}
