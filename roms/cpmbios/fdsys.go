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

// InstallFloppy writes the system to the two system tracks of d, a disk of
// format f (amp1-amp4): the boot sector, ccpbdos (cpm.SysSize bytes) and
// the BIOS, one after the other in sector-number order, so that the boot
// sector's two READTRK calls put the CCP at CCPBASE. The directory and
// files are left as they are.
func InstallFloppy(d *fdimage.Disk, f fdimage.Format, ccpbdos []byte) error {
	if len(ccpbdos) != cpm.SysSize {
		return fmt.Errorf("CCP+BDOS is %d bytes, want %d", len(ccpbdos), cpm.SysSize)
	}
	if f.Size != 512 && f.Size != 1024 {
		return fmt.Errorf("format %s: %d-byte sectors; the boot ROM loads 512 or 1024", f.Name, f.Size)
	}
	boot, err := FloppyBoot()
	if err != nil {
		return err
	}
	bios, err := BIOS()
	if err != nil {
		return err
	}
	room := FloppySysTracks * f.Sectors * f.Size
	sys := make([]byte, room)
	copy(sys, boot)
	copy(sys[f.Size:], ccpbdos)
	copy(sys[f.Size+len(ccpbdos):], bios)
	if f.Size+len(ccpbdos)+len(bios) > room {
		return fmt.Errorf("format %s: the system (%d bytes) does not fit its %d-byte system tracks", f.Name, f.Size+len(ccpbdos)+len(bios), room)
	}
	for t := 0; t < FloppySysTracks; t++ {
		c, h := floppyTrack(f, t)
		tr := d.Track(c, h)
		if tr == nil {
			return fmt.Errorf("format %s: no cylinder %d head %d", f.Name, c, h)
		}
		for k := 0; k < f.Sectors; k++ {
			i := tr.Find(byte(f.FirstID + k))
			if i < 0 || tr.Sectors[i].Size() != f.Size {
				return fmt.Errorf("cylinder %d head %d: no %d-byte sector %d", c, h, f.Size, f.FirstID+k)
			}
			off := (t*f.Sectors + k) * f.Size
			tr.Sectors[i].Data = append([]byte(nil), sys[off:off+f.Size]...)
		}
	}
	return nil
}
