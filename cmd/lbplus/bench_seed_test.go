package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/sched"
)

// TestSeedCheckCatchesAMovedParameter: the regression check passes on the
// model as it is and fails, naming the row and why, when a fitted parameter
// leaves its window (mcd403 SlotTime, window in docs/PARAMETERS.md, moved
// to 225 ms: the best row slows by about 8 %).
func TestSeedCheckCatchesAMovedParameter(t *testing.T) {
	row, err := bench.FindRow("burst-hd3-8Kx1-tape3", 8)
	require.NoError(t, err)
	moved := mcd403.DefaultParams()
	moved.SlotTime = 225 * sched.Millisecond
	for _, c := range []struct {
		name string
		tape *mcd403.Params
		ok   bool
	}{
		{"fitted", nil, true},
		{"moved out of its window", &moved, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := new(benchOptions).runSeedRows(&out, &errb, []bench.Row{row}, bench.Options{Tape: c.tape}, seedOutput{check: true})
			if c.ok {
				require.NoError(t, err, out.String())
				assert.Contains(t, out.String(), " ok")
				return
			}
			require.Error(t, err)
			assert.Equal(t, "check: 1 of 1 rows outside their tolerance", err.Error())
			assert.Regexp(t, `burst-hd3-8Kx1-tape3: \d+ B/s is -\d+\.\d% from the story's 12787, outside \+-1% \(within 1% of 12787 B/s\)`, out.String())

			out.Reset()
			err = new(benchOptions).runSeedRows(&out, &errb, []bench.Row{row}, bench.Options{Tape: c.tape}, seedOutput{check: true, json: true})
			require.Error(t, err)
			var js []map[string]any
			require.NoError(t, json.Unmarshal(out.Bytes(), &js), out.String())
			require.Len(t, js, 1)
			assert.Equal(t, false, js[0]["ok"])
			assert.Contains(t, js[0]["failure"], "outside +-1%")
			assert.Equal(t, "12787", js[0]["story"])
			assert.Equal(t, 12787.0, js[0]["story_bytes_per_sec"])
			assert.Equal(t, 0.01, js[0]["tolerance"])
			assert.Less(t, js[0]["deviation"], -0.01)
		})
	}
}

// TestSeedCheckWholeTable: `bench seed --check` exits 0 on the current model.
func TestSeedCheckWholeTable(t *testing.T) {
	if testing.Short() {
		t.Skip("five boards, a few seconds")
	}
	out, _, err := execute("bench", "seed", "--check", "--quiet")
	require.NoError(t, err, out)
	assert.NotContains(t, out, "FAIL")
	assert.Contains(t, out, "story check disk interleave table: ok")
	assert.Contains(t, out, "story check bios-tape6 stops every block: ok")
}

// TestSeedPlotFailureKeepsTheTable: a plot that cannot be written after
// the runs (its folder gone meanwhile) costs neither the table nor the JSON:
// both are printed first, and the exit is non-zero naming the plot.
func TestSeedPlotFailureKeepsTheTable(t *testing.T) {
	row, err := bench.FindRow("burst-hd3-8Kx1-tape3", 8)
	require.NoError(t, err)
	plot := filepath.Join(t.TempDir(), "gone", "seed.png")
	for _, asJSON := range []bool{false, true} {
		var out, errb bytes.Buffer
		err := new(benchOptions).runSeedRows(&out, &errb, []bench.Row{row}, bench.Options{}, seedOutput{json: asJSON, plot: plot})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "--plot "+plot)
		assert.Contains(t, out.String(), "burst-hd3-8Kx1-tape3")
		if asJSON {
			var js []map[string]any
			require.NoError(t, json.Unmarshal(out.Bytes(), &js))
			assert.Greater(t, js[0]["bytes_per_sec"], 12000.0)
		}
		_, statErr := os.Stat(plot)
		assert.True(t, os.IsNotExist(statErr), "no plot file left")
	}
}
