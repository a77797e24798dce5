package bench

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/sched"
)

// The default SlotTime and FrameGap are the closed-form fit on the two
// rows docs/PARAMETERS.md names, to the microsecond.
func TestFitSlotAndGapGivesTheDefaults(t *testing.T) {
	rows := Rows(1)
	slot, gap := FitSlotAndGap(8192, rows[4].Story, rows[4].TapeInterleave, rows[1].Story, rows[1].TapeInterleave)
	p := mcd403.DefaultParams()
	assert.InDelta(t, float64(slot), float64(p.SlotTime), float64(sched.Microsecond))
	assert.InDelta(t, float64(gap), float64(p.FrameGap), float64(sched.Microsecond))
	// and the fit reproduces both rows exactly
	assert.InDelta(t, rows[4].Story, p.StreamRate(3), 0.5)
	assert.InDelta(t, rows[1].Story, p.StreamRate(6), 0.5)
}

// At most six parameters are fitted, each on named figures, and the
// derived ones follow the values they derive from.
func TestFittedParams(t *testing.T) {
	fs := FittedParams()
	assert.LessOrEqual(t, len(fs), 6)
	for _, f := range fs {
		assert.NotEmpty(t, f.FittedOn, f.Name)
		assert.NotEmpty(t, f.How, f.Name)
	}
	for name := range fittedOn {
		assert.True(t, strings.HasPrefix(fitParamSource(name), "FIT"), "%s has fitting figures but is not FIT in bench.FitParams", name)
	}
	p := mcd403.DefaultParams()
	assert.Equal(t, p.SlotTime+p.FrameGap, p.IdleStop, "IdleStop is one block period")
	assert.Equal(t, p.BlockPeriod(3), p.Resync(3), "the resync run is the frame before the target")
	assert.Equal(t, p.FIFOSize/2, p.DrainChunk, "the drain chunk is half the ring")
	assert.Equal(t, p.SlotTime*9/10, p.DataTime)
}

// knownMisses are the held-out figures the model cannot reproduce, each
// argued impossible in docs/PARAMETERS.md "Cross-validation".
var knownMisses = map[string]bool{"disk-6:1-4Kx2": true, "byte-hd9-8Kx1-tape5-stops": true}

// The short cross-validation on the board: the fitted figures hold, the
// headline within 1 %, every held-out figure but the known misses holds,
// and docs/PARAMETERS.md's tables list the same figures, fitted on the
// same parameters, with the same outcome.
func TestCrossValidate(t *testing.T) {
	figs, err := CrossValidate(CrossOptions{Dir: t.TempDir(), Passes: ShortParamsPasses})
	require.NoError(t, err)
	byID := map[string]Figure{}
	for _, f := range figs {
		byID[f.ID] = f
		assert.Equal(t, !knownMisses[f.ID], f.Holds, "%s: %s", f.ID, f.Outcome)
		assert.Equal(t, knownMisses[f.ID], f.Argued != "", "%s: a miss names where docs argue it", f.ID)
		if f.Error != nil && f.HeldOut() && !knownMisses[f.ID] {
			assert.LessOrEqual(t, abs(*f.Error), HeldOutLimit, f.ID)
		}
	}
	head := byID[FigHeadline]
	require.NotNil(t, head.Error)
	assert.LessOrEqual(t, abs(*head.Error), 0.01, "the headline row within 1 %%")
	for _, p := range FittedParams() {
		for _, id := range p.FittedOn {
			require.Contains(t, byID, id, "%s is fitted on a figure the cross-validation runs", p.Name)
			assert.Contains(t, byID[id].Fits, p.Name)
		}
	}
	_, err = CrossValidate(CrossOptions{Dir: t.TempDir(), Passes: SteadyMinPasses})
	assert.Error(t, err, "too few blocks for a steady rate")

	doc, err := os.ReadFile("../docs/PARAMETERS.md")
	require.NoError(t, err)
	rows := tableRowsAfter(t, string(doc), "| Figure | Fitted on it |")
	var ids []string
	for _, r := range rows {
		if r[0] == "10MB-minutes" { // the long run's only
			continue
		}
		ids = append(ids, r[0])
		f, ok := byID[r[0]]
		if !assert.True(t, ok, "docs list figure %s", r[0]) {
			continue
		}
		fits := "held out"
		if !f.HeldOut() {
			fits = strings.Join(f.Fits, ", ")
		}
		assert.Equal(t, fits, r[1], "%s: fitted on", r[0])
		assert.Equal(t, f.Holds, r[5] == "yes", "%s: holds in docs", r[0])
		assert.Equal(t, f.Argued != "", strings.Contains(r[5], "argued impossible"), "%s: argued in docs", r[0])
	}
	var want []string
	for _, f := range figs {
		want = append(want, f.ID)
	}
	assert.Equal(t, want, ids, "docs/PARAMETERS.md lists the figures the cross-validation runs")
	fitted := tableRowsAfter(t, string(doc), "| Fitted parameter | Value | Fitted on |")
	require.Len(t, fitted, len(FittedParams()))
	for i, p := range FittedParams() {
		assert.Equal(t, p.Name, fitted[i][0])
		assert.Equal(t, strings.Join(p.FittedOn, ", "), fitted[i][2])
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// tableRowsAfter returns the cells of the Markdown table whose header line
// starts with header.
func tableRowsAfter(t *testing.T, doc, header string) [][]string {
	t.Helper()
	i := strings.Index(doc, header)
	require.GreaterOrEqual(t, i, 0, "docs have the table %q", header)
	var rows [][]string
	for n, line := range strings.Split(doc[i:], "\n") {
		if n < 2 {
			continue // header and rule
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}
