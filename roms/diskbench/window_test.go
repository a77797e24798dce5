package diskbench

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"lbplus/devices/acb4000"
	"lbplus/emu/sched"
)

// TestTurnaroundWindow reports, on the emulated board with the real Z80
// program, the controller CommandOverhead at which a revolution starts to
// be lost between the two 4K READs at 7:1 and at 8:1. The story's 8:1 < 7:1
// needs a value between the two. It fits nothing: it logs the window for the
// lead's fit and checks that the window is one slot wide, as the mechanism
// predicts (8 x slot - 7 x slot).
func TestTurnaroundWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("bisection over board runs")
	}
	prog, err := Build()
	require.NoError(t, err)
	lostFrom := func(il int) sched.Time {
		path := filepath.Join(t.TempDir(), "hd.img")
		require.NoError(t, acb4000.Create(path, head, true, il))
		d, err := acb4000.Open(path, false)
		require.NoError(t, err)
		defer d.Close()
		lost := func(over sched.Time) bool {
			dp := acb4000.DefaultParams()
			dp.CommandOverhead = over
			res, err := Run(prog, d, dp, Defaults(), false)
			require.NoError(t, err)
			require.Empty(t, res.Failed)
			return res.Sectors[8].IDAt-res.Sectors[7].IDAt > dp.Revolution()
		}
		lo, hi := sched.Time(0), 8*sched.Millisecond
		require.False(t, lost(lo))
		require.True(t, lost(hi))
		for hi-lo > 5*sched.Microsecond {
			mid := (lo + hi) / 2
			if lost(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi
	}
	seven, eight := lostFrom(7), lostFrom(8)
	t.Logf("CommandOverhead loses a revolution between two 4K READs from %v at 7:1 and from %v at 8:1 (default %v)",
		seven, eight, acb4000.DefaultParams().CommandOverhead)
	slot := acb4000.DefaultParams().Revolution() / 17
	require.InDelta(t, float64(slot), float64(eight-seven), float64(20*sched.Microsecond))
}
