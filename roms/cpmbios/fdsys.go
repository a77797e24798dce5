package cpmbios

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/roms/cpm"
)

// FloppySysTracks is the number of CP/M tracks the system takes on a
// floppy (the DPBs' OFF).
const FloppySysTracks = 2

// floppyTrack returns the physical track of CP/M track t of format f:
// double-sided media alternate sides of a cylinder [F AMBIOS].
func floppyTrack(f fdimage.Format, t int) (cyl, head int) {
	if f.Heads == 2 {
		return t / 2, t % 2
	}
	return t, 0
}

// LoaderSize is the part of the first system sector that holds the boot
// loader: CP/M record 0. CCP+BDOS start at record 1, as on Ampro's system
// disks, whose BIOS reloads them from there at warm boot (docs/CPM.md
// "Floppies").
const LoaderSize = 128

// floppySystem lays out the system tracks of format f: the loader
// (record 0), ccpbdos (cpm.SysSize bytes) and the BIOS, one after the
// other in sector-number order, so that the loader's two READTRK calls put
// the CCP at CCPBASE.
func floppySystem(f fdimage.Format, ccpbdos []byte) ([]byte, error) {
	if len(ccpbdos) != cpm.SysSize {
		return nil, fmt.Errorf("CCP+BDOS is %d bytes, want %d", len(ccpbdos), cpm.SysSize)
	}
	if f.Size != 512 && f.Size != 1024 {
		return nil, fmt.Errorf("format %s: %d-byte sectors; the boot ROM loads 512 or 1024", f.Name, f.Size)
	}
	boot, err := FloppyBoot()
	if err != nil {
		return nil, err
	}
	bios, err := BIOS()
	if err != nil {
		return nil, err
	}
	room := FloppySysTracks * f.Sectors * f.Size
	if LoaderSize+len(ccpbdos)+len(bios) > room {
		return nil, fmt.Errorf("format %s: the system (%d bytes) does not fit its %d-byte system tracks", f.Name, LoaderSize+len(ccpbdos)+len(bios), room)
	}
	sys := make([]byte, room)
	copy(sys, boot)
	copy(sys[LoaderSize:], ccpbdos)
	copy(sys[LoaderSize+len(ccpbdos):], bios)
	return sys, nil
}

// eachSystemSector calls fn for every sector of the system tracks with
// its place (cylinder, head, index in the track) and its new contents.
func eachSystemSector(d *fdimage.Disk, f fdimage.Format, sys []byte, fn func(c, h, i int, data []byte) error) error {
	for t := 0; t < FloppySysTracks; t++ {
		c, h := floppyTrack(f, t)
		tr := d.Track(c, h)
		if tr == nil {
			return fmt.Errorf("format %s: no cylinder %d head %d", f.Name, c, h)
		}
		for k := 0; k < f.Sectors; k++ {
			i := tr.Find(byte(f.FirstID + k))
			if i < 0 || tr.Sectors[i].Size() != f.Size {
				return fmt.Errorf("cylinder %d head %d: no %d-byte sector %d (not an Ampro format?)", c, h, f.Size, f.FirstID+k)
			}
			off := (t*f.Sectors + k) * f.Size
			if err := fn(c, h, i, sys[off:off+f.Size]); err != nil {
				return err
			}
		}
	}
	return nil
}

// InstallFloppy writes the system to the two system tracks of d, a disk of
// format f (amp1-amp4) being made in memory. The directory and files are
// left as they are.
func InstallFloppy(d *fdimage.Disk, f fdimage.Format, ccpbdos []byte) error {
	sys, err := floppySystem(f, ccpbdos)
	if err != nil {
		return err
	}
	return eachSystemSector(d, f, sys, func(c, h, i int, data []byte) error {
		d.Track(c, h).Sectors[i].Data = append([]byte(nil), data...)
		return nil
	})
}

// InstallFloppyImage writes the system to the system tracks of an open
// image (durably, sector by sector); files stay. The format comes from the
// image (raw) or from its first track (IMD).
func InstallFloppyImage(im *fdimage.Image, ccpbdos []byte) error {
	f := im.Format()
	if f.Sectors == 0 {
		var err error
		if f, err = formatOf(im.Disk()); err != nil {
			return err
		}
	}
	sys, err := floppySystem(f, ccpbdos)
	if err != nil {
		return err
	}
	d := im.Disk()
	// Check every sector first, so a disk that is not an Ampro system
	// disk is refused before anything is written.
	if err := eachSystemSector(d, f, sys, func(int, int, int, []byte) error { return nil }); err != nil {
		return err
	}
	return eachSystemSector(d, f, sys, func(c, h, i int, data []byte) error {
		s := d.Track(c, h).Sectors[i]
		s.Data = data
		s.BadCRC, s.Deleted = false, false
		return im.WriteSector(c, h, i, s)
	})
}

// formatOf reads an Ampro format off a disk's first track: its sector
// count, size and lowest sector number.
func formatOf(d *fdimage.Disk) (fdimage.Format, error) {
	tr := d.Track(0, 0)
	if tr == nil || len(tr.Sectors) == 0 {
		return fdimage.Format{}, fmt.Errorf("cylinder 0 is not formatted")
	}
	first := 255
	for _, s := range tr.Sectors {
		first = min(first, int(s.R))
	}
	return fdimage.Format{Name: "this disk's", Cylinders: d.Cylinders, Heads: d.Heads,
		Sectors: len(tr.Sectors), Size: tr.Sectors[0].Size(), FirstID: first}, nil
}
