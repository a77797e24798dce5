package emu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// A program learns what a device is from the registry, not by naming the
// model: the kind of each registered type, and of each device on a board.
func TestSCSIKinds(t *testing.T) {
	for _, tt := range []struct {
		name string
		kind scsidev.Kind
		ok   bool
	}{
		{"acb4000", scsidev.Disk, true},
		{"mcd403", scsidev.Tape, true},
		{"nosuch", scsidev.Disk, false},
	} {
		k, ok := emu.SCSIKindOf(tt.name)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.kind, k, tt.name)
	}

	dir := t.TempDir()
	hd, tape := filepath.Join(dir, "hd.img"), filepath.Join(dir, "t.tape")
	require.NoError(t, acb4000.Create(hd, acb4000.Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}, true, 3))
	require.NoError(t, mcd403.Create(tape, 3))
	rom := make([]byte, 4096)
	cfg := emu.DefaultConfig(rom)
	cfg.SCSI = []scsidev.Spec{{ID: 3, Type: "mcd403", Images: []string{tape}}, {ID: 5, Type: "acb4000", Images: []string{hd}}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	for _, tt := range []struct {
		id   int
		kind scsidev.Kind
		ok   bool
	}{{3, scsidev.Tape, true}, {5, scsidev.Disk, true}, {0, scsidev.Disk, false}, {9, scsidev.Disk, false}} {
		k, ok := b.SCSIKind(tt.id)
		assert.Equal(t, tt.ok, ok, "ID %d", tt.id)
		assert.Equal(t, tt.kind, k, "ID %d", tt.id)
	}
	_, isPanel := b.SCSIDevice(5).(scsidev.Paneled)
	assert.True(t, isPanel, "the ACB-4000 shows a panel")
	_, reps := b.SCSIDevice(3).(scsidev.Repositioner)
	assert.True(t, reps, "the tape counts repositions")
	_, reps = b.SCSIDevice(5).(scsidev.Repositioner)
	assert.False(t, reps, "a disk does not")
}

// CheckSCSI opens what a spec names as its type would and reports the
// type's own error, leaving nothing open or locked.
func TestCheckSCSI(t *testing.T) {
	dir := t.TempDir()
	tape := filepath.Join(dir, "t.tape")
	require.NoError(t, mcd403.Create(tape, 3))
	for _, tt := range []struct {
		spec scsidev.Spec
		err  string
	}{
		{scsidev.Spec{ID: 1, Type: "mcd403", Images: []string{tape}}, ""},
		{scsidev.Spec{ID: 1, Type: "mcd403", Images: []string{filepath.Join(dir, "none.tape")}}, "no such image file"},
		{scsidev.Spec{ID: 1, Type: "mcd404", Images: []string{tape}}, `unknown device type "mcd404"`},
	} {
		err := emu.CheckSCSI(tt.spec)
		if tt.err == "" {
			assert.NoError(t, err)
			continue
		}
		assert.ErrorContains(t, err, tt.err)
	}
	// Nothing stays locked: the tape opens read-write afterwards.
	d, err := mcd403.Open(tape, false)
	require.NoError(t, err)
	d.Close()
}
