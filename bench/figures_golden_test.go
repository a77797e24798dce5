package bench

import (
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// TestBusyMachineGolden pins what the busy machine computes, to the
// T-state: every seed row (shortened to statePasses) and the floppy read
// of `bench speed`. The numbers are the model's, so a change that only
// makes the emulator faster must leave testdata/busy_machine.golden as it
// is; a change to a model or a Z80 routine rewrites it with -update and
// says why in its commit.
func TestBusyMachineGolden(t *testing.T) {
	var out strings.Builder
	for _, row := range Rows(statePasses) {
		if testing.Short() && row.Name != stateRow && row.Name != repositionRow {
			continue
		}
		r, err := Run(row.Setup, Options{Dir: scratch(t)})
		require.NoError(t, err)
		h := fnv.New64a()
		h.Write(r.Buffer)
		fmt.Fprintf(&out, "%s: bytes %d elapsed %d board %d T %d trace %016x B/s %.3f whole %.3f repositions %d hung %v failed %q buffer %016x\n",
			row.Name, r.Bytes, r.Elapsed, r.BoardTime, r.TStates, r.TraceHash,
			r.BytesPerSec, r.WholeBytesPerSec, r.Repositions, r.Hung, r.Failed, h.Sum64())
	}
	f, s := floppyReadScript(2)
	run, err := LoadFloppy(FloppyConfig(), fdbench.BaseLoop, s, nil)
	require.NoError(t, err)
	defer run.Close()
	b := run.Board
	require.NoError(t, b.InsertFloppyDisk(0, "golden", f.NewDisk(0xE5), false))
	_, err = b.RunUntil(run.Finished, 10*sched.Second)
	require.NoError(t, err)
	require.True(t, run.Done())
	h := fnv.New64a()
	h.Write(run.Page(0x30, 2*256*f.Sectors))
	fmt.Fprintf(&out, "floppy-read: now %d T %d trace %016x data %016x\n",
		b.Now(), b.CPU().T(), b.TraceHash(), h.Sum64())
	name := "busy_machine.golden"
	if testing.Short() {
		name = "busy_machine_short.golden"
	}
	golden.Equal(t, name, []byte(out.String()))
}
