package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bench params --json on one parameter: the FIFO size, whose window the
// 16-byte burst rows close on both sides of its value (a knife edge).
func TestBenchParamsJSON(t *testing.T) {
	out, _, err := execute("bench", "params", "--short", "--json", "-q", "--param", "FIFOSize")
	require.NoError(t, err)
	var ps []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &ps), out)
	require.Len(t, ps, 1)
	p := ps[0]
	for _, k := range []string{"name", "value", "unit", "source", "window", "margin", "knife_edge", "constrained"} {
		assert.Contains(t, p, k)
	}
	assert.Equal(t, "mcd403.FIFOSize", p["name"])
	assert.Equal(t, 128.0, p["value"])
	assert.Equal(t, "bytes", p["unit"])
	assert.Regexp(t, "^FIT", p["source"])
	assert.Equal(t, []any{128.0, 128.0}, p["window"])
	assert.Equal(t, false, p["lo_open"])
	assert.Equal(t, false, p["hi_open"])
	assert.NotEmpty(t, p["lo_limited_by"])
	assert.NotEmpty(t, p["hi_limited_by"])
	assert.Equal(t, true, p["knife_edge"])
	assert.Equal(t, true, p["constrained"])
}

func TestBenchParamsBadFlags(t *testing.T) {
	_, _, err := execute("bench", "params", "--workers", "0")
	assert.EqualError(t, err, "--workers 0: give at least 1")
	_, _, err = execute("bench", "params", "--workers", "1", "--param", "NoSuch")
	assert.EqualError(t, err, "--param NoSuch: no such fitted parameter")
}
