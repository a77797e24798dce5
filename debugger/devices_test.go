package debugger

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// A panel for each device, read without side effects: the disk's
// transfer and the WD1772 during the boot ROM's READ of block 0.
func TestDevicePanels(t *testing.T) {
	rom, err := monitor.Image()
	require.NoError(t, err)
	dir := t.TempDir()
	hd, tape := filepath.Join(dir, "hd0.img"), filepath.Join(dir, "t.tape")
	require.NoError(t, acb4000.Create(hd, acb4000.Geometries["st125"], true, 3))
	require.NoError(t, mcd403.Create(tape, 3))
	cfg := emu.DefaultConfig(rom)
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}, {ID: 1, Type: "mcd403", Images: []string{tape}}}
	cfg.Floppies = []emu.Floppy{{Drive: 0}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	d := ForBoard(b, NewRecorder(1<<12))
	assert.Equal(t, Tape, d.Kinds[1])
	d.BreakOnCDB(0x08, 0)
	st, err := d.Continue(20 * sched.Second)
	require.NoError(t, err)
	require.NotNil(t, st)
	_, err = d.StepByte() // into DATA IN: the transfer has begun
	require.NoError(t, err)
	panels := DevicePanels(b)
	require.Len(t, panels, 3)
	text := func(p Panel) string { return p.Title() + "\n" + strings.Join(p.Lines(), "\n") }
	assert.Contains(t, text(panels[0]), "ACB-4000 at SCSI ID 0")
	assert.Contains(t, text(panels[0]), "READ LBA 0 x1")
	// The platter's line (scsidev.Rotating): angle, next index, block.
	assert.Regexp(t, `\nLUN 0 platter +[0-9.]+ deg, index in [0-9.]+ ms, head over LBA [0-9]+$`, text(panels[0]))
	assert.Contains(t, text(panels[1]), "MCD-403 at SCSI ID 1")
	assert.Contains(t, text(panels[1]), "repositions 0")
	assert.Contains(t, text(panels[1]), "\nstopped\ntrack 0")
	assert.Contains(t, text(panels[2]), "drive 0: cylinder 0 side 0, empty")
	hash := b.TraceHash()
	for _, p := range panels {
		p.Lines()
	}
	assert.Equal(t, hash, b.TraceHash(), "looking changes nothing")
}
