package acb4000

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/image"
)

// SidecarVersion is the version of the disk sidecar format.
const SidecarVersion = 1

// SidecarKind names the image type in the sidecar.
const SidecarKind = "acb4000-disk"

// FormatFill is the byte FORMAT UNIT writes into every data field unless
// the CDB supplies another [F ACB5500 p.72].
const FormatFill = 0x6C

// Meta is the TOML sidecar of a disk image (FILE.toml): the drive's
// geometry and its format state. The raw file holds the logical blocks in
// LBA order; the physical (interleaved) order exists only in the model.
type Meta struct {
	Version         int    `toml:"version"`
	Kind            string `toml:"kind"`
	Geometry        string `toml:"geometry"`
	Cylinders       int    `toml:"cylinders"`
	Heads           int    `toml:"heads"`
	SectorsPerTrack int    `toml:"sectors_per_track"`
	SectorSize      int    `toml:"sector_size"`
	Formatted       bool   `toml:"formatted"`
	Interleave      int    `toml:"interleave"` // of the last FORMAT UNIT; 0 when never formatted
}

// NewMeta describes a new disk of geometry g.
func NewMeta(g Geometry, formatted bool, interleave int) *Meta {
	m := &Meta{Version: SidecarVersion, Kind: SidecarKind, Geometry: g.Name, Cylinders: g.Cylinders,
		Heads: g.Heads, SectorsPerTrack: g.Sectors, SectorSize: g.SectorSize, Formatted: formatted}
	if formatted {
		m.Interleave = interleave
	}
	return m
}

// Geom returns the geometry the sidecar describes.
func (m *Meta) Geom() Geometry {
	return Geometry{Name: m.Geometry, Cylinders: m.Cylinders, Heads: m.Heads, Sectors: m.SectorsPerTrack, SectorSize: m.SectorSize}
}

// ImageKind implements image.Kinded.
func (m *Meta) ImageKind() string { return SidecarKind }

// Layout implements image.Meta.
func (m *Meta) Layout() (int, int64) { return m.SectorSize, int64(m.Geom().Blocks()) }

// Validate implements image.Meta.
func (m *Meta) Validate() error {
	if m.Kind != SidecarKind {
		return fmt.Errorf("kind %q is not %q", m.Kind, SidecarKind)
	}
	if m.Version != SidecarVersion {
		return fmt.Errorf("sidecar version %d unsupported (want %d)", m.Version, SidecarVersion)
	}
	g := m.Geom()
	if err := g.Validate(); err != nil {
		return err
	}
	if m.Formatted && (m.Interleave < 1 || m.Interleave > g.Sectors-1) {
		return fmt.Errorf("interleave %d out of range 1-%d", m.Interleave, g.Sectors-1)
	}
	if !m.Formatted && m.Interleave != 0 {
		return fmt.Errorf("interleave %d given for an unformatted disk", m.Interleave)
	}
	return nil
}

// Disk is an open disk image: the medium of one drive.
type Disk struct {
	f    *image.File
	meta Meta
}

// Create makes a new disk image at path. A formatted image is filled with
// FormatFill, as FORMAT UNIT would leave it.
func Create(path string, g Geometry, formatted bool, interleave int) error {
	fill := byte(0)
	if formatted {
		fill = FormatFill
	}
	return image.Create(path, NewMeta(g, formatted, interleave), fill)
}

// Open opens the disk image at path with an exclusive lock (read-only: a
// shared one; writes then fail with a write-protect sense).
func Open(path string, readOnly bool) (*Disk, error) {
	d := &Disk{}
	f, err := image.Open(path, &d.meta, readOnly)
	if err != nil {
		return nil, err
	}
	d.f = f
	return d, nil
}

// Meta returns a copy of the sidecar content.
func (d *Disk) Meta() Meta { return d.meta }

// Path is the image file.
func (d *Disk) Path() string { return d.f.Path() }

// Close syncs and unlocks the image.
func (d *Disk) Close() error { return d.f.Close() }

// format fills every block and records the new format state.
func (d *Disk) format(interleave int, fill byte) error {
	if err := d.f.Fill(fill); err != nil {
		return err
	}
	m := d.meta
	m.Formatted, m.Interleave = true, interleave
	if err := d.f.SaveMeta(&m); err != nil {
		return err
	}
	d.meta = m
	return nil
}

// readSidecar decodes the sidecar of the disk image at path without opening
// (or locking) the image.
func readSidecar(path string, m *Meta) error { return image.ReadSidecar(path, m) }
