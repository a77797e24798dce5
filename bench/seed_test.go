package bench

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// seedPasses is the reduced size of the regression: 16 tape blocks (128 KB)
// per row, enough for the tape to settle into streaming or stopping.
const seedPasses = 16

// Tolerances of issue 6: the best row within 3 %, the byte-by-byte and the
// 4K x2 burst rows within 10 %, the BIOS baseline under 3000 B/s with the
// tape repositioning.
var seedTolerance = map[string]float64{
	"byte-hd9-8Kx1-tape6":  0.10,
	"byte-hd9-4Kx2-tape6":  0.10,
	"burst-hd3-4Kx2-tape4": 0.10,
	"burst-hd3-8Kx1-tape3": 0.03,
}

// TestSeedRegression replays the story's table and guards it: no change to
// a model or a Z80 routine may move these figures unnoticed.
func TestSeedRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five boards through 128 KB each")
	}
	res, err := RunRows(Rows(seedPasses), Options{Dir: scratch(t)}, nil)
	require.NoError(t, err)
	var misses []string
	for _, r := range res {
		t.Logf("%-22s %8.0f B/s  story %6.0f  repositions %3d  elapsed %v  %s",
			r.Name, r.BytesPerSec, math.Max(r.Story, r.StoryBelow), r.Repositions, r.Elapsed, r.Failed)
		if r.Failed != "" {
			misses = append(misses, fmt.Sprintf("%s failed: %s", r.Name, r.Failed))
			continue
		}
		if tol, ok := seedTolerance[r.Name]; ok {
			if d := r.Deviation(); math.Abs(d) > tol {
				misses = append(misses, fmt.Sprintf("%s: %.0f B/s is %+.1f%% from the story's %.0f (tolerance %.0f%%)",
					r.Name, r.BytesPerSec, 100*d, r.Story, 100*tol))
			}
			continue
		}
		if r.BytesPerSec >= r.StoryBelow {
			misses = append(misses, fmt.Sprintf("%s: %.0f B/s, story under %.0f", r.Name, r.BytesPerSec, r.StoryBelow))
		}
		if r.Repositions < seedPasses/2 {
			misses = append(misses, fmt.Sprintf("%s: %d tape repositions in %d blocks; the story's tape stopped every block",
				r.Name, r.Repositions, seedPasses))
		}
	}
	if len(misses) > 0 {
		t.Error(strings.Join(misses, "\n"))
	}
}
