// Package fdimage reads and writes floppy disk images: ImageDisk (.IMD)
// files and raw sector dumps of the four Ampro formats (amp1-amp4) or of a
// geometry the user names, and reads Teledisk (.TD0) files, which it never
// writes (Options.Convert makes an IMD copy to write to). It knows sectors, their ID fields and their
// physical order on a track; where each field lies on the turning disk is
// the business of package floppy (docs/FLOPPY.md).
//
// Guarantees, as for the SCSI images (devices/image): one writer at a time
// (flock on the file, shared for read-only opens), every write reaches the
// file and is fsynced before the call returns, and bad input is one error
// naming the file and the problem, never a panic or a half-written image.
//
// Known inaccuracies / assumptions (docs/FLOPPY.md):
//   - A raw image stores sector contents only. Physical order comes from the
//     format (amp1-amp4: interleave 2, the 22DISK "SKEW 2" of the Ampro
//     definitions); a Write Track that only reorders sectors is kept for the
//     session but not in the file.
//   - Teledisk: duplicate and made-up-ID sectors are kept as ordinary
//     sectors, skipped (DOS) ones as sectors without data; a track is FM
//     when the header or its head byte says so (docs/FLOPPY.md) [A].
//   - An IMD sector write of a compressed or differently typed record
//     rewrites the whole file through a temporary file and a rename; the new
//     file is locked before the old lock is dropped.
package fdimage

import "fmt"

// Sector is one sector as an image records it: its ID field (C, H, R, N),
// its data and the marks the image keeps.
type Sector struct {
	C, H, R, N byte   // ID field: cylinder, head, record (sector number), size code
	Data       []byte // 128<<N bytes; nil when the image has no data for it
	Deleted    bool   // written with a deleted data address mark (F8)
	BadCRC     bool   // the data field's CRC does not match
	BadIDCRC   bool   // the ID field's CRC does not match (made only by Write Track of a bad ID)
}

// Size is the sector's length in bytes from its size code.
func (s *Sector) Size() int { return SizeOf(s.N) }

// SizeOf is the byte count of size code n (128 << n).
func SizeOf(n byte) int { return 128 << (n & 7) }

// SizeCode is the size code of a sector of size bytes, or -1.
func SizeCode(size int) int {
	for n := 0; n < 8; n++ {
		if 128<<n == size {
			return n
		}
	}
	return -1
}

// Track is one side of one cylinder: its density and its sectors in
// physical order (the order they pass the head after the index).
type Track struct {
	Cyl, Head int
	FM        bool // single density (FM); false is MFM
	// Rate is the data rate in kbit/s the image gives (IMD modes: 500, 300
	// or 250 in MFM, half in FM terms as the IMD names them); 0 means 250.
	// 300 is a 300 rpm disk read in a 360 rpm drive: on a 300 rpm drive it
	// is the same recording as 250 [D]. 500 is high density.
	Rate    int
	Sectors []Sector
}

// HighDensity reports a track recorded at 500 kbit/s (twice the bits of
// double density on the same turn).
func (t *Track) HighDensity() bool { return t.Rate == 500 }

// Find returns the index of the sector with ID record r, or -1.
func (t *Track) Find(r byte) int {
	for i := range t.Sectors {
		if t.Sectors[i].R == r {
			return i
		}
	}
	return -1
}

// Clone returns a deep copy.
func (t *Track) Clone() Track {
	c := *t
	c.Sectors = make([]Sector, len(t.Sectors))
	for i, s := range t.Sectors {
		if s.Data != nil {
			s.Data = append([]byte(nil), s.Data...)
		}
		c.Sectors[i] = s
	}
	return c
}

// Disk is a whole medium: Cylinders x Heads tracks.
type Disk struct {
	Cylinders, Heads int
	Tracks           []Track // index cyl*Heads + head
	Comment          string  // IMD comment
}

// NewDisk returns a disk of unformatted tracks (no sectors).
func NewDisk(cyls, heads int) *Disk {
	d := &Disk{Cylinders: cyls, Heads: heads, Tracks: make([]Track, cyls*heads)}
	for c := 0; c < cyls; c++ {
		for h := 0; h < heads; h++ {
			d.Tracks[c*heads+h] = Track{Cyl: c, Head: h}
		}
	}
	return d
}

// Track returns the track at cylinder c, head h, or nil if the disk has none.
func (d *Disk) Track(c, h int) *Track {
	if c < 0 || c >= d.Cylinders || h < 0 || h >= d.Heads {
		return nil
	}
	return &d.Tracks[c*d.Heads+h]
}

// Bad lists the sectors whose data is missing, deleted or has a bad CRC, as
// "c/h/r what" strings for reports.
func (d *Disk) Bad() []string {
	var out []string
	for _, t := range d.Tracks {
		for _, s := range t.Sectors {
			what := ""
			switch {
			case s.Data == nil:
				what = "no data"
			case s.BadCRC:
				what = "data CRC error"
			case s.BadIDCRC:
				what = "ID CRC error"
			case s.Deleted:
				what = "deleted data mark"
			}
			if what != "" {
				out = append(out, fmt.Sprintf("%d/%d/%d %s", t.Cyl, t.Head, s.R, what))
			}
		}
	}
	return out
}
