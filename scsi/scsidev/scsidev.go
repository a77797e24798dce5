// Package scsidev is the layer every SCSI target model of the emulator stands
// on (devices/acb4000, devices/mcd403): how a machine configuration names a
// device and attaches it to the board's bus, and the helpers a command set
// needs on top of the scsi target engine.
//
// A device type is a value of Type: its name in machine files and on the
// command line (`--scsi 0=acb4000:hd0.img`) and its Attach function. The
// board keeps a registry of types by name (emu), so a new target type is one
// package plus one registration line there.
package scsidev

import (
	"fmt"

	"github.com/lbplus/lbplus/scsi"
)

// Spec is what a machine configuration says about one SCSI device.
type Spec struct {
	// ID is the device's SCSI ID (0-7), set with its jumpers.
	ID int `toml:"id"`
	// Type names the model in the registry: "acb4000", "mcd403".
	Type string `toml:"type"`
	// Images are the media, LUN 0 first (the ACB-4000 takes two drives).
	Images []string `toml:"images"`
	// ReadOnly opens every image read-only.
	ReadOnly bool `toml:"read_only"`
	// Geometry describes a raw image without a sidecar (a disk's name,
	// e.g. "st125", or CxHxS); empty = from the image's size.
	Geometry string `toml:"geometry"`
	// Params overrides the model's parameters (the package's Params value,
	// for benches and tests; nil = defaults). Not in machine files.
	Params any `toml:"-"`
}

// Device is an attached target model: the scsi.Device the engine serves,
// which owns the images it opened.
type Device interface {
	scsi.Device
	// Close releases the images (their locks); acknowledged writes are
	// already durable.
	Close() error
}

// Type is one kind of SCSI device a machine can hold.
type Type struct {
	Name string
	// Attach opens s's images and connects a new device to bus as target
	// s.ID. On error nothing stays open or attached.
	Attach func(bus *scsi.Bus, s Spec) (Device, error)
}

// ParamsOf returns s.Params as a P, or def when it is nil. A value of
// another type is an error (a harness passed the wrong model's parameters).
func ParamsOf[P any](s Spec, def P) (P, error) {
	switch p := s.Params.(type) {
	case nil:
		return def, nil
	case P:
		return p, nil
	case *P:
		if p == nil {
			return def, nil
		}
		return *p, nil
	}
	return def, fmt.Errorf("SCSI ID %d (%s): parameters of type %T, want %T", s.ID, s.Type, s.Params, def)
}

// Saver is a Device whose complete state, its target engine's included,
// can be saved and restored (machine save states, docs/STATE.md). The
// bytes are the device's own encoding; the device restored is attached
// from the same Spec.
type Saver interface {
	SaveState() ([]byte, error)
	LoadState(data []byte) error
}
