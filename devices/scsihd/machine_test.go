package scsihd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// A machine file names the drive like any other: the board attaches it,
// knows it for a disk, shows its panel, and saves and restores it with
// the machine while the boot ROM reads from it.
func TestInAMachine(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "hd.img")
	require.NoError(t, scsihd.Create(img, 2<<20))
	m := filepath.Join(dir, "m.toml")
	require.NoError(t, os.WriteFile(m, []byte("[[scsi]]\nid = 0\ntype = \"scsihd\"\nimages = [\"hd.img\"]\n"), 0o644))
	cfg, err := emu.ReadMachineFile(m)
	require.NoError(t, err)
	rom, err := monitor.Image()
	require.NoError(t, err)
	cfg.ROM = rom
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	k, ok := b.SCSIKind(0)
	assert.True(t, ok)
	assert.Equal(t, scsidev.Disk, k)
	p, ok := b.SCSIDevice(0).(scsidev.Paneled)
	require.True(t, ok)
	assert.Equal(t, "SCSI disk (ST225N) at SCSI ID 0", p.PanelTitle(0))

	// The boot ROM tries the floppy, then selects the drive and reads
	// block 0; stop in the middle of the READ.
	for i := 0; i < 20000 && b.SCSIDevice(0).(*scsihd.Drive).State().Transfer == nil; i++ {
		require.NoError(t, b.RunFor(sched.Millisecond))
	}
	require.NotNil(t, b.SCSIDevice(0).(*scsihd.Drive).State().Transfer, "the boot ROM reads from the drive")
	var st bytes.Buffer
	require.NoError(t, b.SaveState(&st))
	before := b.SCSIDevice(0).(*scsihd.Drive).State()
	require.NoError(t, b.RunFor(100*sched.Millisecond))
	require.NoError(t, b.LoadState(bytes.NewReader(st.Bytes()), "state"))
	after := b.SCSIDevice(0).(*scsihd.Drive).State()
	after.Slot = before.Slot
	assert.Equal(t, before, after)
}

// What scsihd does not take is refused when the machine is built.
func TestAttachRefuses(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "hd.img")
	require.NoError(t, scsihd.Create(img, 1<<20))
	rom, err := monitor.Image()
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		spec scsidev.Spec
		err  string
	}{
		{"geometry", scsidev.Spec{Geometry: "st125", Images: []string{img}}, "no geometry or interleave option"},
		{"two images", scsidev.Spec{Images: []string{img, img}}, "takes one raw disk image, got 2"},
		{"no file", scsidev.Spec{Images: []string{filepath.Join(dir, "none.img")}}, "none.img: no such image file"},
		{"parameters", scsidev.Spec{Images: []string{img}, Params: scsihd.Params{}}, "RPM 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := emu.DefaultConfig(rom)
			tt.spec.Type = "scsihd"
			cfg.SCSI = []scsidev.Spec{tt.spec}
			_, err := emu.New(cfg)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}
