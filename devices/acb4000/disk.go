package acb4000

import (
	"fmt"
	"maps"
	"slices"
	"strings"

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
// shared one; writes then fail with a write-protect sense). An image with a
// sidecar (FILE.toml) is what the sidecar says; one without is a raw image
// whose geometry comes from its size (RawGeometry).
func Open(path string, readOnly bool) (*Disk, error) { return OpenAs(path, Raw{}, readOnly) }

// Raw says what a raw image (no sidecar) does not record. The zero value
// takes both from defaults: the geometry from the size, RawInterleave.
type Raw struct {
	// Geometry is a name of Geometries or CxHxS; "" = from the size.
	Geometry string
	// Interleave is the interleave the drive was formatted at, 1 to the
	// sectors per track - 1; 0 = RawInterleave.
	Interleave int
}

// OpenAs is Open with what a raw image does not record given. A raw image
// must then hold exactly the geometry's blocks; an image with a sidecar
// must agree with whatever is given.
func OpenAs(path string, raw Raw, readOnly bool) (*Disk, error) {
	var want *Geometry
	if raw.Geometry != "" {
		g, err := ParseGeometry(raw.Geometry)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		want = &g
	}
	if raw.Interleave < 0 {
		return nil, fmt.Errorf("%s: interleave %d: want 1 to the sectors per track - 1", path, raw.Interleave)
	}
	d := &Disk{}
	if !image.HasSidecar(path) {
		return openRaw(path, want, raw.Interleave, readOnly)
	}
	f, err := image.Open(path, &d.meta, readOnly)
	if err != nil {
		return nil, err
	}
	if g := d.meta.Geom(); want != nil && (g.Cylinders != want.Cylinders || g.Heads != want.Heads || g.Sectors != want.Sectors) {
		f.Close()
		return nil, fmt.Errorf("%s: geometry %s given, but sidecar %s says %dx%dx%d", path, raw.Geometry, image.SidecarPath(path), g.Cylinders, g.Heads, g.Sectors)
	}
	if il := d.meta.Interleave; raw.Interleave != 0 && raw.Interleave != il {
		f.Close()
		if !d.meta.Formatted {
			return nil, fmt.Errorf("%s: interleave %d given, but sidecar %s says the disk is not formatted", path, raw.Interleave, image.SidecarPath(path))
		}
		return nil, fmt.Errorf("%s: interleave %d given, but sidecar %s says %d", path, raw.Interleave, image.SidecarPath(path), il)
	}
	d.f = f
	return d, nil
}

// RawInterleave is the interleave a raw image is taken to be formatted at:
// a copy of a drive does not record it [A: the interleave `lbplus disk
// create` and the story's best row use].
const RawInterleave = 3

// Limits of a geometry derived from a raw image's size: 17 sectors of 512
// bytes per track (ST-506 MFM) [F RETROCMP, MICRONICS; docs/HARDWARE.md 5], at least 4 heads like
// the ST-125, at most the cylinders and heads Geometry.Validate allows.
const (
	rawSectors  = 17
	rawMinHeads = 4
	maxCyls     = 1024
	maxHeads    = 16
)

// RawGeometry is the geometry of a raw image of blocks 512-byte blocks: a
// drive of Geometries with exactly that capacity, else 17 sectors per
// track, the fewest heads (at least 4) that keep the cylinders within 1024,
// and enough cylinders to hold every block [A]. The last cylinder may then
// be partial: the drive's capacity is the image's, and blocks past it do
// not exist. An image larger than the largest drive is an error.
func RawGeometry(blocks int64) (Geometry, error) {
	for _, g := range Geometries {
		if int64(g.Blocks()) == blocks {
			return g, nil
		}
	}
	largest := int64(maxCyls * maxHeads * rawSectors)
	if blocks > largest {
		return Geometry{}, fmt.Errorf("oversized: %d blocks; the ACB-4000 addresses at most %d cylinders x %d heads x %d sectors = %d blocks", blocks, maxCyls, maxHeads, rawSectors, largest)
	}
	heads := max(rawMinHeads, int((blocks+maxCyls*rawSectors-1)/(maxCyls*rawSectors)))
	cyls := int((blocks + int64(heads*rawSectors) - 1) / int64(heads*rawSectors))
	return Geometry{Name: "raw", Cylinders: cyls, Heads: heads, Sectors: rawSectors, SectorSize: 512}, nil
}

// ParseGeometry reads a geometry name of Geometries or CxHxS (512-byte
// sectors).
func ParseGeometry(s string) (Geometry, error) {
	if g, ok := Geometries[strings.ToLower(s)]; ok {
		return g, nil
	}
	var g Geometry
	if n, err := fmt.Sscanf(strings.ToLower(s), "%dx%dx%d", &g.Cylinders, &g.Heads, &g.Sectors); err != nil || n != 3 ||
		fmt.Sprintf("%dx%dx%d", g.Cylinders, g.Heads, g.Sectors) != strings.ToLower(s) {
		return g, fmt.Errorf("geometry %q: want a drive name (%s) or CYLINDERSxHEADSxSECTORS, e.g. 615x4x17", s, strings.Join(slices.Sorted(maps.Keys(Geometries)), ", "))
	}
	g.Name, g.SectorSize = s, 512
	if err := g.Validate(); err != nil {
		return g, fmt.Errorf("geometry %s: %w", s, err)
	}
	return g, nil
}

// openRaw opens an image without a sidecar: formatted at interleave il
// (0: RawInterleave [A]), geometry want or derived from the size. A given
// geometry must match the size exactly: fewer blocks is a truncated image,
// more an oversized one.
func openRaw(path string, want *Geometry, il int, readOnly bool) (*Disk, error) {
	f, err := image.OpenRaw(path, 512, readOnly)
	if err != nil {
		return nil, err
	}
	n := f.Blocks()
	g := Geometry{}
	switch {
	case want == nil:
		if g, err = RawGeometry(n); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case n < int64(want.Blocks()):
		f.Close()
		return nil, fmt.Errorf("%s: truncated: %d blocks, but geometry %s holds %d", path, n, want.Name, want.Blocks())
	case n > int64(want.Blocks()):
		f.Close()
		return nil, fmt.Errorf("%s: oversized: %d blocks, but geometry %s holds %d", path, n, want.Name, want.Blocks())
	default:
		g = *want
	}
	if il == 0 {
		il = RawInterleave
	}
	if il >= g.Sectors {
		f.Close()
		return nil, fmt.Errorf("%s: interleave %d: want 1 to %d for %d sectors per track", path, il, g.Sectors-1, g.Sectors)
	}
	m := NewMeta(g, true, il)
	return &Disk{f: f, meta: *m}, nil
}

// Blocks is the drive's capacity: the image's blocks (for a raw image whose
// last cylinder is partial, fewer than the geometry's).
func (d *Disk) Blocks() int { return int(d.f.Blocks()) }

// Raw reports whether the image has no sidecar.
func (d *Disk) Raw() bool { return d.f.Raw() }

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
	if !d.f.Raw() { // a raw image keeps its format state in memory only
		if err := d.f.SaveMeta(&m); err != nil {
			return err
		}
	}
	d.meta = m
	return nil
}

// readSidecar decodes the sidecar of the disk image at path without opening
// (or locking) the image.
func readSidecar(path string, m *Meta) error { return image.ReadSidecar(path, m) }
