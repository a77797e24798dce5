package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/sched"
)

// TestStoryChecksCatchMovedParameters: parameters that no row of the
// table pins on its own (fitted ones, and IdleStop, derived as one block
// period but bounded by the checks) fail seed --check's story checks when
// moved well out of their windows (docs/PARAMETERS.md, lbplus bench
// params), and the model as it is passes them all.
func TestStoryChecksCatchMovedParameters(t *testing.T) {
	ms := sched.Millisecond
	for _, c := range []struct {
		name string
		disk func(*acb4000.Params)
		tape func(*mcd403.Params)
		want string
	}{
		{"fitted", nil, nil, ""},
		{"mcd403 IdleStop 1 s", nil, func(p *mcd403.Params) { p.IdleStop = 1000 * ms }, "bios-tape6 stops every block: FAILED"},
		{"mcd403 BlockPrepare 150 ms", nil, func(p *mcd403.Params) { p.BlockPrepare = 150 * ms }, "burst-hd3-4Kx2-tape3 stops: FAILED"},
		{"acb4000 CommandOverhead 4 ms", func(p *acb4000.Params) { p.CommandOverhead = 4 * ms }, nil, "disk interleave table: FAILED"},
		{"acb4000 ArmLatency 0.05 ms", func(p *acb4000.Params) { p.ArmLatency = 50 * sched.Microsecond }, nil, "disk interleave table: FAILED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.want != "" && c.name != "mcd403 IdleStop 1 s" {
				t.Skip("a few seconds each; IdleStop stands for them under -short")
			}
			dp, tp := acb4000.DefaultParams(), mcd403.DefaultParams()
			if c.disk != nil {
				c.disk(&dp)
			}
			if c.tape != nil {
				c.tape(&tp)
			}
			dir := t.TempDir()
			var out bytes.Buffer
			err := runStoryChecks(&out, newProgress(&out, false), bench.Options{Dir: dir, Disk: &dp, Tape: &tp})
			if c.want == "" {
				require.NoError(t, err, out.String())
				assert.NotContains(t, out.String(), "FAILED")
				return
			}
			require.Error(t, err)
			assert.Regexp(t, `^check: \d of \d story checks failed$`, err.Error())
			assert.Contains(t, out.String(), c.want)
		})
	}
}
