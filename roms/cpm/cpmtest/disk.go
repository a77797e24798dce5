package cpmtest

import (
	"fmt"
	"os"
)

// Format is a CP/M disk format: the physical geometry cpmtools' diskdefs
// describe and the CP/M 2.2 disk parameter block that goes with it.
type Format struct {
	Name      string // cpmtools diskdef name (-f)
	SecLen    int    // bytes per physical sector
	SecTrk    int    // physical sectors per track
	Tracks    int    // tracks (cylinders × sides)
	BlockSize int    // allocation block, bytes
	MaxDir    int    // directory entries
	BootTrk   int    // system tracks before the directory (OFF)
	CKS       int    // directory records checksummed (0 for fixed disks)
}

// The Ampro floppy formats, as cpmtools' diskdefs amp1-amp4 give them
// (docs/FLOPPY.md "Formats", docs/CPM.md), and a hard-disk partition for
// exercising 16-bit block numbers (4 KB blocks, 1920 of them: 7.5 MB);
// Diskdef gives its entry for a cpmtools diskdefs file.
var (
	Amp1 = Format{"amp1", 512, 10, 40, 2048, 64, 2, 16}
	Amp2 = Format{"amp2", 512, 10, 80, 2048, 128, 2, 32}
	Amp3 = Format{"amp3", 1024, 5, 80, 2048, 128, 2, 32}
	Amp4 = Format{"amp4", 1024, 5, 160, 2048, 256, 2, 64}
	HD   = Format{"lbhdtest", 512, 16, 962, 4096, 1024, 2, 0}
)

// SPT is the number of 128-byte records per track.
func (f Format) SPT() int { return f.SecLen * f.SecTrk / 128 }

// Size is the image size in bytes.
func (f Format) Size() int { return f.SecLen * f.SecTrk * f.Tracks }

// DSM is the highest block number.
func (f Format) DSM() int { return (f.Tracks-f.BootTrk)*f.SecLen*f.SecTrk/f.BlockSize - 1 }

// DPB returns the 15-byte CP/M 2.2 disk parameter block.
func (f Format) DPB() []byte {
	bsh := 0
	for 128<<bsh < f.BlockSize {
		bsh++
	}
	dsm := f.DSM()
	exm := f.BlockSize/1024 - 1
	if dsm > 255 {
		exm = f.BlockSize/2048 - 1
	}
	dirBlocks := (f.MaxDir*32 + f.BlockSize - 1) / f.BlockSize
	al := uint16(0xffff << (16 - dirBlocks))
	spt, drm := f.SPT(), f.MaxDir-1
	return []byte{
		byte(spt), byte(spt >> 8), byte(bsh), byte(1<<bsh - 1), byte(exm),
		byte(dsm), byte(dsm >> 8), byte(drm), byte(drm >> 8),
		byte(al >> 8), byte(al), byte(f.CKS), byte(f.CKS >> 8),
		byte(f.BootTrk), byte(f.BootTrk >> 8),
	}
}

// Disk is a raw image in cpmtools' layout: tracks in order, sectors in
// order within a track (skew 0), so record r of track t is at
// (t*SPT + r)*128.
type Disk struct {
	F    Format
	Data []byte
	// Bad holds record numbers (track*SPT + record) whose reads and
	// writes fail, for the BAD SECTOR path.
	Bad map[int]bool
}

// NewDisk is a freshly formatted disk: every byte E5h.
func NewDisk(f Format) *Disk {
	d := &Disk{F: f, Data: make([]byte, f.Size())}
	for i := range d.Data {
		d.Data[i] = 0xe5
	}
	return d
}

// LoadDisk reads an image file made by cpmtools (mkfs.cpm, cpmcp).
func LoadDisk(f Format, path string) (*Disk, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) > f.Size() || len(b)%f.SecLen != 0 {
		return nil, fmt.Errorf("%s: %d bytes, not a %s image (%d bytes)", path, len(b), f.Name, f.Size())
	}
	// mkfs.cpm writes only up to the directory; the rest reads as E5h.
	d := NewDisk(f)
	copy(d.Data, b)
	return d, nil
}

// Diskdef is the format as a cpmtools diskdefs entry.
func (f Format) Diskdef() string {
	return fmt.Sprintf("diskdef %s\n  seclen %d\n  tracks %d\n  sectrk %d\n  blocksize %d\n  maxdir %d\n  skew 0\n  boottrk %d\n  os 2.2\nend\n",
		f.Name, f.SecLen, f.Tracks, f.SecTrk, f.BlockSize, f.MaxDir, f.BootTrk)
}

func (d *Disk) record(track, sector int) (int, bool) {
	spt := d.F.SPT()
	if track < 0 || track >= d.F.Tracks || sector < 0 || sector >= spt {
		return 0, false
	}
	n := track*spt + sector
	return n * 128, !d.Bad[n]
}
