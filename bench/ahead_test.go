package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// machineCounts is what a run leaves beyond its Result: the counts and
// states that the trace hash does not fold in.
type machineCounts struct {
	Result     Result
	IOCount    uint64
	BusChanges uint64
	Bus        scsi.BusState
	Sched      sched.State
	NCR        ncr5380.Stats
	Targets    []scsi.TargetStats
	Devices    []scsidev.Stats
}

func runCounts(t *testing.T, s Setup, observe bool) machineCounts {
	t.Helper()
	var b *emu.Board
	var targets []*scsi.Target
	var devs []scsidev.Device
	r, err := Run(s, Options{Dir: scratch(t), OnStart: func(bd *emu.Board) {
		b = bd
		for _, id := range []int{DiskID, TapeID} {
			devs = append(devs, bd.SCSIDevice(id))
			targets = append(targets, bd.SCSIDevice(id).(interface{ Target() *scsi.Target }).Target())
		}
		if observe {
			bd.Sched().Observe(func(sched.Time, *sched.Event) {})
			bd.SCSIBus().ObserveLines(scsi.RST, func(sched.Time, scsi.Line, uint8) {})
		}
	}})
	require.NoError(t, err)
	require.Empty(t, r.Failed)
	st, err := b.Sched().State()
	require.NoError(t, err)
	c := machineCounts{Result: r, IOCount: b.IOCount(), BusChanges: b.SCSIBus().Changes(),
		Bus: b.SCSIBus().State(), Sched: st, NCR: b.NCR5380().Stats}
	for i := range targets {
		c.Targets = append(c.Targets, targets[i].Stats)
		c.Devices = append(c.Devices, devs[i].Counts())
	}
	return c
}

// TestHandshakeAheadChangesNothing runs the rows of bench seed
// (shortened) twice: unobserved, where the 5380 and the targets run each
// byte's handshake ahead and the CPU runs past the quiet steps, and with
// observers of the scheduler and the bus, where every step is an event
// of its own that cuts the CPU's run and the bus tells each side of the
// other's edges. Besides every result, the T-states and the
// trace hash, the bus's change count and final state, the scheduler's
// sequence number and queue, and the 5380's, the targets' and the
// devices' statistics must be equal. -short runs two rows.
func TestHandshakeAheadChangesNothing(t *testing.T) {
	for _, row := range Rows(statePasses) {
		if testing.Short() && row.Name != stateRow && row.Name != repositionRow {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			ahead := runCounts(t, row.Setup, false)
			steps := runCounts(t, row.Setup, true)
			assert.Equal(t, steps, ahead)
			assert.NotZero(t, ahead.NCR.DMABytesIn)
			assert.NotZero(t, ahead.NCR.DMABytesOut)
		})
	}
}
