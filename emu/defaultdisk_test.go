package emu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// A machine has a disk when any SCSI device is not a tape, by the type's
// kind: a scsihd is a disk though it is not the ACB-4000, and a type
// nobody registered counts as one (Validate refuses it later).
func TestHasDisk(t *testing.T) {
	for _, tt := range []struct {
		name  string
		types []string
		want  bool
	}{
		{"nothing", nil, false},
		{"a tape alone", []string{"mcd403"}, false},
		{"two tapes", []string{"mcd403", "mcd403"}, false},
		{"the ACB-4000", []string{"acb4000"}, true},
		{"a scsihd", []string{"scsihd"}, true},
		{"a tape and a scsihd", []string{"mcd403", "scsihd"}, true},
		{"an unknown type", []string{"nosuch"}, true},
	} {
		var cfg emu.Config
		for i, typ := range tt.types {
			cfg.SCSI = append(cfg.SCSI, scsidev.Spec{ID: i, Type: typ, Images: []string{"x"}})
		}
		cfg.Floppies = emu.DefaultFloppies()
		assert.Equal(t, tt.want, cfg.HasDisk(), tt.name)
	}
}

// The default machine's devices are the registered models at BACKUP's IDs.
func TestDefaultMachineDevices(t *testing.T) {
	assert.Equal(t, acb4000.Type.Name, emu.HD0Type)
	assert.Equal(t, mcd403.Type.Name, emu.TapeType)
	assert.Equal(t, scsidev.Spec{ID: 0, Type: "acb4000", Images: []string{"d.img"}}, emu.DefaultDisk("d.img"))
	fl := emu.DefaultFloppies()
	assert.Len(t, fl, 2)
	for i, f := range fl {
		assert.Equal(t, i, f.Drive)
		assert.Equal(t, "48tpi", f.Type)
		assert.Empty(t, f.Image, "the drives are empty")
	}
}
