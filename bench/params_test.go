package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
)

// burstChecks are the story checks of the tape's handshake alone (256-byte
// OTIR bursts hang, 16-byte ones work): short runs, so a window search over
// them is quick enough for a unit test.
func burstChecks(t *testing.T) []StoryCheck {
	t.Helper()
	var cs []StoryCheck
	for _, c := range StoryChecks(ShortParamsPasses) {
		if strings.HasPrefix(c.Name, "tape ") {
			cs = append(cs, c)
		}
	}
	require.Len(t, cs, 2)
	return cs
}

func fitParam(t *testing.T, name string) FitParam {
	t.Helper()
	for _, p := range FitParams() {
		if p.Name == name {
			return p
		}
	}
	require.Failf(t, "no fitted parameter", "%s", name)
	return FitParam{}
}

// The window search on the emulation: each closed end it reports passes
// every check, and the next value beyond it fails the check it names, so
// the window is a measured transition, not the search range.
func TestFindWindowEndsAreTransitions(t *testing.T) {
	for _, tc := range []struct {
		name           string
		max            float64    // the search range's top, if not the parameter's
		lo, hi         [2]float64 // where each end must lie
		loBy, hiBy     string     // "" for an end that must stay open
		knife          bool
		beyondLo, beyH float64 // a value just outside each closed end
	}{
		// A power-of-two ring plus the 5380's output latch is a whole
		// number of 16-byte bursts: from 32 to 256 they work and 256-byte
		// bursts hang; a ring of 512, drained 256 bytes at a time, takes a
		// 256-byte burst whole, and a ring of 16 fills in mid-burst.
		{name: "mcd403.FIFOSize", lo: [2]float64{32, 32}, hi: [2]float64{256, 256},
			hiBy: "tape 256-byte bursts hang", loBy: "tape 16-byte bursts work", beyondLo: 16, beyH: 512},
		// A faster copy loop empties the FIFO under 256-byte bursts (no
		// hang); a slower one does not trouble 16-byte bursts, which wait
		// for DRQ before each burst: open above.
		{name: "mcd403.DrainByteTime", max: 12, lo: [2]float64{1, 7.9}, hi: [2]float64{12, 12},
			loBy: "tape 256-byte bursts hang", beyondLo: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := fitParam(t, tc.name)
			if tc.max != 0 {
				p.Max = tc.max
			}
			e := NewEvaluator(t.TempDir(), ShortSearch)
			e.Checks = burstChecks(t)
			w, err := e.FindWindow(p)
			require.NoError(t, err)
			t.Logf("%s = %g %s: window %g-%g (open %v %v), below %s, above %s, %d runs",
				p.Name, p.Value, p.Unit, w.Lo, w.Hi, w.LoOpen, w.HiOpen, w.LoBy, w.HiBy, e.Runs())
			require.Empty(t, w.Fail)
			require.Equal(t, tc.loBy == "", w.LoOpen, "a check closes the window below")
			require.Equal(t, tc.hiBy == "", w.HiOpen, "a check closes the window above")
			assert.True(t, w.Constrained())
			assert.GreaterOrEqual(t, w.Lo, tc.lo[0])
			assert.LessOrEqual(t, w.Lo, tc.lo[1])
			assert.GreaterOrEqual(t, w.Hi, tc.hi[0])
			assert.LessOrEqual(t, w.Hi, tc.hi[1])
			assert.Equal(t, tc.loBy, w.LoBy)
			assert.Equal(t, tc.hiBy, w.HiBy)
			assert.Equal(t, tc.loBy != "", w.LoWhy != "")
			assert.Equal(t, tc.hiBy != "", w.HiWhy != "")
			assert.Equal(t, tc.knife, w.Margin < KnifeEdge, "margin %.4f", w.Margin)
			// The ends pass, and the search resolution beyond a closed end
			// fails the check it names.
			res := p.Step * e.Resolution
			type probe struct {
				v    float64
				fail string
			}
			probes := []probe{{w.Lo, ""}, {w.Hi, ""}}
			lo, hi := max(tc.beyondLo, w.Lo-res), min(tc.beyH, w.Hi+res)
			if len(p.Grid) > 0 { // the next grid values
				lo, hi = tc.beyondLo, tc.beyH
			}
			if !w.LoOpen {
				probes = append(probes, probe{lo, w.LoBy})
			}
			if !w.HiOpen {
				probes = append(probes, probe{hi, w.HiBy})
			}
			for _, c := range probes {
				name, why, err := e.At(p, c.v, "verify "+c.fail)
				require.NoError(t, err)
				if c.fail == "" {
					assert.Empty(t, why, "%g passes", c.v)
				} else {
					assert.Equal(t, c.fail, name, "%g fails: %s", c.v, why)
				}
			}
		})
	}
}

// A parameter no check can move has an open window and no margin: the
// search does not invent a limit. The tape's parameters cannot move the
// disk interleave table.
func TestFindWindowUnconstrained(t *testing.T) {
	var table []StoryCheck
	for _, c := range StoryChecks(ShortParamsPasses) {
		if c.DiskOnly {
			table = append(table, c)
		}
	}
	require.Len(t, table, 1)
	e := NewEvaluator(t.TempDir(), ShortSearch)
	e.Checks = table
	w, err := e.FindWindow(fitParam(t, "mcd403.SlotTime"))
	require.NoError(t, err)
	assert.True(t, w.LoOpen)
	assert.True(t, w.HiOpen)
	assert.False(t, w.Constrained())
	assert.Zero(t, e.Runs(), "the table's check is never run for a tape parameter")
}

// The evaluator runs each check once per set of parameters the check can
// see: a second probe at the same value is answered from memory with the
// same check and reason, and a disk parameter's probes do not rerun the
// tape-burst checks, which run no disk.
func TestEvaluatorRemembersOutcomes(t *testing.T) {
	e := NewEvaluator(t.TempDir(), ShortSearch)
	e.Checks = burstChecks(t)
	fifo := fitParam(t, "mcd403.FIFOSize")
	name, why, err := e.At(fifo, 512, "first")
	require.NoError(t, err)
	require.Equal(t, "tape 256-byte bursts hang", name)
	require.NotEmpty(t, why)
	ran := e.Emulated()
	require.Positive(t, ran)
	again, againWhy, err := e.At(fifo, 512, "second")
	require.NoError(t, err)
	assert.Equal(t, name, again)
	assert.Equal(t, why, againWhy)
	assert.Equal(t, ran, e.Emulated(), "the same parameters are not run again")

	disk := fitParam(t, "acb4000.CommandOverhead")
	name, _, err = e.At(disk, disk.Value, "disk")
	require.NoError(t, err)
	require.Empty(t, name, "the defaults pass the burst checks")
	ran = e.Emulated()
	name, _, err = e.At(disk, 3*disk.Value, "disk")
	require.NoError(t, err)
	assert.Empty(t, name)
	assert.Equal(t, ran, e.Emulated(), "a disk parameter cannot move a tape-only check")
	assert.Equal(t, int64(1+1+2+2), e.Consulted(), "every probe still consults the checks in order")
}

// The window search pinned on the tape-burst checks, whose runs are
// short: every end to the last bit, the check and reason that close it,
// how many evaluations and check outcomes the search asked for, and the
// emulation each check cost. A grid parameter (FIFOSize), a count
// (SearchFactor), one closed on both sides (DrainByteTime) and one open
// below, closed above (ReqAfterAck), searched two at a time as bench
// params does. A change that only makes the emulator faster leaves
// testdata/params_burst_windows.golden as it is; one that makes the
// search run fewer checks may change the last lines (runs, T-states) but
// never a window line, as the windows of `bench params --json` must not
// move with it; a change to a model rewrites it with -update and says
// why.
func TestFindWindowsGolden(t *testing.T) {
	var ps []FitParam
	for _, name := range []string{"mcd403.FIFOSize", "mcd403.SearchFactor", "mcd403.DrainByteTime", "mcd403.ReqAfterAck"} {
		ps = append(ps, fitParam(t, name))
	}
	e := NewEvaluator(t.TempDir(), ShortSearch)
	e.Checks = burstChecks(t)
	ws, err := e.FindWindows(ps, 2, nil)
	require.NoError(t, err)
	var out strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&out, "%s: value %v window %v-%v open %v/%v below %q (%s) above %q (%s) margin %.6g fail %q\n",
			w.Name, w.Value, w.Lo, w.Hi, w.LoOpen, w.HiOpen, w.LoBy, w.LoWhy, w.HiBy, w.HiWhy, w.Margin, w.Fail)
	}
	fmt.Fprintf(&out, "%d evaluations, %d check outcomes consulted\n", e.Runs(), e.Consulted())
	for _, c := range e.Work() {
		fmt.Fprintf(&out, "%s: %d runs, %d T-states\n", c.Name, c.Runs, c.TStates)
	}
	golden.Equal(t, "params_burst_windows.golden", []byte(out.String()))
}
