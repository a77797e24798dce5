package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bench params --json on one parameter: the FIFO size, a power-of-two
// ring, whose window the burst rows close on both sides of its value.
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
	assert.Regexp(t, "^A: a power-of-two ring", p["source"])
	w, ok := p["window"].([]any)
	require.True(t, ok)
	require.Len(t, w, 2)
	assert.LessOrEqual(t, w[0], 64.0, "a ring of 64 keeps every check")
	assert.GreaterOrEqual(t, w[1], 256.0, "a ring of 256 keeps every check")
	assert.Equal(t, false, p["lo_open"])
	assert.Equal(t, false, p["hi_open"])
	assert.NotEmpty(t, p["lo_limited_by"])
	assert.NotEmpty(t, p["hi_limited_by"])
	assert.Equal(t, false, p["knife_edge"])
	assert.Equal(t, true, p["constrained"])
}

func TestBenchParamsBadFlags(t *testing.T) {
	_, _, err := execute("bench", "params", "--workers", "0")
	assert.EqualError(t, err, "--workers 0: give at least 1")
	_, _, err = execute("bench", "params", "--workers", "1", "--param", "NoSuch")
	assert.EqualError(t, err, "--param NoSuch: no such fitted parameter")
}

// bench params --cross-validate --json: the fitted parameters with the
// figures each is fitted on, and every figure with its prediction; the
// headline row within 1 %.
func TestBenchParamsCrossValidateJSON(t *testing.T) {
	out, _, err := execute("bench", "params", "--cross-validate", "--short", "--json", "-q")
	require.NoError(t, err)
	var r struct {
		Fitted []struct {
			Name     string   `json:"name"`
			FittedOn []string `json:"fitted_on"`
		} `json:"fitted"`
		Figures []struct {
			ID    string   `json:"id"`
			Fits  []string `json:"fits"`
			Error *float64 `json:"error"`
			Holds bool     `json:"holds"`
		} `json:"figures"`
		HeldOut       int `json:"held_out"`
		HeldOutOK     int `json:"held_out_reproduced"`
		HeldOutArgued int `json:"held_out_argued_impossible"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	assert.NotEmpty(t, r.Fitted)
	assert.LessOrEqual(t, len(r.Fitted), 6)
	for _, f := range r.Fitted {
		assert.NotEmpty(t, f.FittedOn, f.Name)
	}
	found := false
	for _, f := range r.Figures {
		if f.ID == "burst-hd3-8Kx1-tape3" {
			found = true
			require.NotNil(t, f.Error)
			assert.Less(t, math.Abs(*f.Error), 0.01)
			assert.True(t, f.Holds)
			assert.NotEmpty(t, f.Fits)
		}
	}
	assert.True(t, found, "the headline row is a figure")
	assert.Positive(t, r.HeldOut)
	assert.Equal(t, r.HeldOut, r.HeldOutOK+r.HeldOutArgued, "every held-out figure holds or docs argue it cannot")
}
