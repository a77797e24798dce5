package debugger

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// rig is the boot ROM (which reads block 0 of target 0 by itself) with an ACB-4000 (ST-125, 3:1) at SCSI ID 0, and
// optionally the debugger attached.
type rig struct {
	b    *emu.Board
	bus  *scsi.Bus
	tr   *console.Transcript
	d    *Debugger
	chip *ncr5380.Chip
}

func newRig(t testing.TB, withDebugger bool) *rig {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	r := &rig{tr: &console.Transcript{}}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = r.tr.Out
	path := filepath.Join(t.TempDir(), "hd0.img")
	require.NoError(t, acb4000.Create(path, acb4000.Geometries["st125"], true, 3))
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	r.b, err = emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.b.Close() })
	chip, bus := r.b.NCR5380(), r.b.SCSIBus()
	r.bus, r.chip = bus, chip
	if withDebugger {
		r.d = New(Board{r.b}, NewRecorder(1<<16))
		res, err := monitor.Result()
		require.NoError(t, err)
		r.d.Syms.AddResult(res)
		Attach(r.d, r.b, chip, bus)
	}
	return r
}
