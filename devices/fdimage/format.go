package fdimage

import (
	"fmt"
	"strconv"
	"strings"
)

// Format is a regular geometry: every track has the same sectors. The four
// Ampro formats come from cpmtools' diskdefs and the Ampro BIOS
// (docs/FLOPPY.md, "Formats").
type Format struct {
	Name       string
	Cylinders  int
	Heads      int
	Sectors    int  // per track
	Size       int  // bytes per sector
	FirstID    int  // record number of the first sector (1, or 17 on Ampro DS media)
	Interleave int  // physical interleave the format is laid down with (1 = consecutive)
	FM         bool // single density
}

// Ampro formats [F CPMTOOLS diskdefs amp1-amp4; F AMBIOS sector ranges].
// Interleave 2 is the "SKEW 2" of the 22DISK definitions cpmtools quotes
// for each; that it is a physical interleave is an assumption [A].
var Formats = []Format{
	{Name: "amp1", Cylinders: 40, Heads: 1, Sectors: 10, Size: 512, FirstID: 1, Interleave: 2},
	{Name: "amp2", Cylinders: 40, Heads: 2, Sectors: 10, Size: 512, FirstID: 17, Interleave: 2},
	{Name: "amp3", Cylinders: 80, Heads: 1, Sectors: 5, Size: 1024, FirstID: 1, Interleave: 2},
	{Name: "amp4", Cylinders: 80, Heads: 2, Sectors: 5, Size: 1024, FirstID: 17, Interleave: 2},
}

// FormatNames lists the named formats.
func FormatNames() []string {
	n := make([]string, len(Formats))
	for i, f := range Formats {
		n[i] = f.Name
	}
	return n
}

// ParseFormat takes a format name (amp1-amp4) or a user geometry
// CYLxHEADSxSECTORSxSIZE with optional suffixes ",first=N", ",il=N" and
// ",fm", e.g. "80x2x9x512,first=1".
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if strings.EqualFold(s, f.Name) {
			return f, nil
		}
	}
	parts := strings.Split(s, ",")
	dims := strings.Split(parts[0], "x")
	if len(dims) != 4 {
		return Format{}, fmt.Errorf("unknown format %q (want %s or CYLxHEADSxSECTORSxSIZE)", s, strings.Join(FormatNames(), ", "))
	}
	var v [4]int
	for i, d := range dims {
		n, err := strconv.Atoi(d)
		if err != nil {
			return Format{}, fmt.Errorf("format %q: %q is not a number", s, d)
		}
		v[i] = n
	}
	f := Format{Name: parts[0], Cylinders: v[0], Heads: v[1], Sectors: v[2], Size: v[3], FirstID: 1, Interleave: 1}
	for _, p := range parts[1:] {
		k, val, _ := strings.Cut(p, "=")
		switch k {
		case "fm":
			f.FM = true
			continue
		case "first", "il":
		default:
			return Format{}, fmt.Errorf("format %q: unknown option %q (first=, il=, fm)", s, p)
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			return Format{}, fmt.Errorf("format %q: %q is not a number", s, val)
		}
		if k == "first" {
			f.FirstID = n
		} else {
			f.Interleave = n
		}
	}
	return f, f.Validate()
}

// Validate checks the geometry's ranges.
func (f Format) Validate() error {
	switch {
	case f.Cylinders < 1 || f.Cylinders > 85:
		return fmt.Errorf("format %s: %d cylinders (1-85)", f.Name, f.Cylinders)
	case f.Heads < 1 || f.Heads > 2:
		return fmt.Errorf("format %s: %d heads (1 or 2)", f.Name, f.Heads)
	case SizeCode(f.Size) < 0 || f.Size > 1024:
		return fmt.Errorf("format %s: sector size %d (128, 256, 512 or 1024)", f.Name, f.Size)
	case f.Sectors < 1 || f.Sectors*f.Size > 6250:
		return fmt.Errorf("format %s: %d sectors of %d bytes do not fit a track", f.Name, f.Sectors, f.Size)
	case f.FirstID < 0 || f.FirstID+f.Sectors > 256:
		return fmt.Errorf("format %s: first sector ID %d out of range", f.Name, f.FirstID)
	case f.Interleave < 1 || f.Interleave > f.Sectors:
		return fmt.Errorf("format %s: interleave %d (1-%d)", f.Name, f.Interleave, f.Sectors)
	}
	return nil
}

// RawSize is the byte size of a raw image of this format.
func (f Format) RawSize() int64 {
	return int64(f.Cylinders) * int64(f.Heads) * int64(f.Sectors) * int64(f.Size)
}

// String describes the geometry for humans.
func (f Format) String() string {
	d := "MFM"
	if f.FM {
		d = "FM"
	}
	return fmt.Sprintf("%s: %d cylinders x %s x %d sectors of %d bytes, IDs %d-%d, interleave %d:1, %s",
		f.Name, f.Cylinders, plural(f.Heads, "head"), f.Sectors, f.Size, f.FirstID, f.FirstID+f.Sectors-1, f.Interleave, d)
}

// Order returns the physical order of the record numbers on a track laid
// down at interleave il: slot k holds the next unused record il slots after
// the previous one.
func Order(n, il, first int) []byte {
	out := make([]byte, n)
	used := make([]bool, n)
	pos := 0
	for i := 0; i < n; i++ {
		for used[pos] {
			pos = (pos + 1) % n
		}
		used[pos] = true
		out[pos] = byte(first + i)
		pos = (pos + il) % n
	}
	return out
}

// NewTrack returns track (c, h) formatted in f with every byte fill.
func (f Format) NewTrack(c, h int, fill byte) Track {
	t := Track{Cyl: c, Head: h, FM: f.FM}
	n := byte(SizeCode(f.Size))
	for _, r := range Order(f.Sectors, f.Interleave, f.FirstID) {
		d := make([]byte, f.Size)
		for i := range d {
			d[i] = fill
		}
		t.Sectors = append(t.Sectors, Sector{C: byte(c), H: byte(h), R: r, N: n, Data: d})
	}
	return t
}

// NewDisk returns a disk formatted in f with every byte fill (E5h gives an
// empty CP/M directory).
func (f Format) NewDisk(fill byte) *Disk {
	d := NewDisk(f.Cylinders, f.Heads)
	for c := 0; c < f.Cylinders; c++ {
		for h := 0; h < f.Heads; h++ {
			d.Tracks[c*f.Heads+h] = f.NewTrack(c, h, fill)
		}
	}
	return d
}

// Holds reports why a raw image in f cannot store track t, or nil.
func (f Format) Holds(t *Track) error {
	where := fmt.Sprintf("cylinder %d head %d", t.Cyl, t.Head)
	if t.FM != f.FM || t.HighDensity() {
		return fmt.Errorf("%s: a raw %s image cannot hold a track of another density or data rate", where, f.Name)
	}
	if len(t.Sectors) != f.Sectors {
		return fmt.Errorf("%s: a raw %s image holds %d sectors a track, not %d", where, f.Name, f.Sectors, len(t.Sectors))
	}
	seen := make([]bool, f.Sectors)
	for _, s := range t.Sectors {
		i := int(s.R) - f.FirstID
		switch {
		case s.Size() != f.Size:
			return fmt.Errorf("%s: a raw %s image holds %d-byte sectors, not %d", where, f.Name, f.Size, s.Size())
		case i < 0 || i >= f.Sectors || seen[i]:
			return fmt.Errorf("%s: a raw %s image holds sectors %d-%d once each, not sector %d", where, f.Name, f.FirstID, f.FirstID+f.Sectors-1, s.R)
		case int(s.C) != t.Cyl || int(s.H) != t.Head:
			return fmt.Errorf("%s: a raw %s image cannot hold an ID with cylinder %d head %d", where, f.Name, s.C, s.H)
		case s.Data == nil:
			return fmt.Errorf("%s: a raw %s image cannot hold a sector without data (sector %d)", where, f.Name, s.R)
		case s.Deleted || s.BadCRC || s.BadIDCRC:
			return fmt.Errorf("%s: a raw %s image cannot hold deleted marks or CRC errors (sector %d)", where, f.Name, s.R)
		}
		seen[i] = true
	}
	return nil
}

// FormatOf finds the regular geometry of d for a raw image: one of the
// Ampro formats if d is one, else the geometry of its cylinder 0 head 0
// (sector count, size, lowest record number, density). The error says
// why a raw image cannot hold d (a track unlike the first, a deleted mark,
// a sector without data ...).
func FormatOf(d *Disk) (Format, error) {
	for _, f := range Formats {
		if f.holdsDisk(d) == nil {
			return f, nil
		}
	}
	t := d.Track(0, 0)
	if t == nil || len(t.Sectors) == 0 {
		return Format{}, fmt.Errorf("cylinder 0 head 0 is unformatted: no raw geometry to follow")
	}
	first := int(t.Sectors[0].R)
	for _, s := range t.Sectors {
		first = min(first, int(s.R))
	}
	f := Format{Name: fmt.Sprintf("%dx%dx%dx%d", d.Cylinders, d.Heads, len(t.Sectors), t.Sectors[0].Size()),
		Cylinders: d.Cylinders, Heads: d.Heads, Sectors: len(t.Sectors), Size: t.Sectors[0].Size(),
		FirstID: first, Interleave: 1, FM: t.FM}
	if f.FirstID != 1 {
		f.Name += fmt.Sprintf(",first=%d", f.FirstID)
	}
	if f.FM {
		f.Name += ",fm"
	}
	return f, f.holdsDisk(d)
}

// holdsDisk reports why a raw image in f cannot hold d, or nil.
func (f Format) holdsDisk(d *Disk) error {
	if d.Cylinders != f.Cylinders || d.Heads != f.Heads {
		return fmt.Errorf("the disk has %d cylinders x %s; a raw %s image holds %d x %d",
			d.Cylinders, plural(d.Heads, "head"), f.Name, f.Cylinders, f.Heads)
	}
	for i := range d.Tracks {
		if err := f.Holds(&d.Tracks[i]); err != nil {
			return err
		}
	}
	return nil
}
