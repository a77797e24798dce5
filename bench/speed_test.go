package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// Speed measures every line it promises: each ran what it was asked to
// (the idle lines their simulated time, the backup row its program to the
// end) and has a rate and a koron rate to compare with.
func TestSpeedLines(t *testing.T) {
	row, err := FindRow("burst-hd3-8Kx1-tape3", 2)
	require.NoError(t, err)
	var started []string
	lines, err := Speed(SpeedOptions{Dir: scratch(t), Idle: 200 * sched.Millisecond, Rows: []Row{row},
		Progress: func(name string) { started = append(started, name) }})
	require.NoError(t, err)
	var names []string
	for _, l := range lines {
		names = append(names, l.Name)
		assert.Positive(t, l.MTPerCPUSec, l.Name)
		assert.Positive(t, l.KoronMT, l.Name)
		assert.InDelta(t, l.MTPerCPUSec/l.KoronMT, l.Ratio, 1e-9, l.Name)
		assert.NotEmpty(t, l.What, l.Name)
	}
	assert.Equal(t, []string{"idle-w1-ram", "z80host-w1-ram", "idle-w1-rom", "z80host-w1-rom",
		"idle-w2-ram", "z80host-w2-ram", "idle-w2-rom", "z80host-w2-rom",
		"burst-hd3-8Kx1-tape3", "floppy-read"}, names)
	assert.Len(t, started, 6, "one progress call a workload, row and the floppy")
	for _, l := range lines[:8] {
		assert.GreaterOrEqual(t, l.TStates, uint64(200*sched.Millisecond/sched.TState), l.Name)
	}
	// The row runs from the program's start to its end: two 8 KB passes
	// at about 9.7 KB/s are over a second of simulated time.
	assert.Greater(t, lines[8].TStates, uint64(4_000_000))
	assert.Greater(t, lines[9].TStates, uint64(16*800_000), "16 reads of the track, 200 ms a revolution at least")
}
