package cpmbios

import (
	"fmt"

	"github.com/lbplus/lbplus/cpmfs"
	"github.com/lbplus/lbplus/devices/fdimage"
)

// PartitionGeometry is partition p of a hard disk in cpmtools' terms (the
// lbplus-hdP entry of docs/diskdefs).
func PartitionGeometry(p int) cpmfs.Geometry {
	return cpmfs.Geometry{Name: fmt.Sprintf("lbplus-hd%d", p), SecLen: BlockSize, SecTrk: TrackBlocks,
		Tracks: (p + 1) * PartTracks, BlockSize: BlockBytes, MaxDir: DirEntries, BootTrk: PartitionStart(p)}
}

// hdSectors reads a hard disk image as cpmtools does: track t, sector s is
// block 16t + s.
type hdSectors struct{ d BlockDevice }

func (h hdSectors) ReadSector(t, s int, buf []byte) error {
	return h.d.ReadBlock(int64(t*TrackBlocks+s), buf)
}

func (h hdSectors) WriteSector(t, s int, buf []byte) error {
	return h.d.WriteBlock(int64(t*TrackBlocks+s), buf)
}

// PartitionFS opens the CP/M file system of partition p of a system disk.
func PartitionFS(d BlockDevice, p int) (*cpmfs.FS, error) {
	cfg, ok, err := ReadHDConfig(d)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("not an lbplus CP/M disk (no configuration in block %d)", ConfigBlock)
	}
	if p < 0 || p >= cfg.Partitions {
		return nil, fmt.Errorf("partition %d: the disk has %d (0-%d)", p, cfg.Partitions, cfg.Partitions-1)
	}
	return cpmfs.Open(hdSectors{d}, PartitionGeometry(p))
}

// floppyDirs is the directory size of each Ampro format [F AMBIOS].
var floppyDirs = map[[2]int]int{{1, 512}: 64, {2, 512}: 128, {1, 1024}: 128, {2, 1024}: 256}

// FloppyGeometry is an Ampro format in cpmtools' terms (amp1-amp4).
func FloppyGeometry(f fdimage.Format) (cpmfs.Geometry, error) {
	dir, ok := floppyDirs[[2]int{f.Heads, f.Size}]
	if !ok || f.FirstID != 1 && f.FirstID != 17 {
		return cpmfs.Geometry{}, fmt.Errorf("format %s is not one of the Ampro formats amp1-amp4", f.Name)
	}
	return cpmfs.Geometry{Name: f.Name, SecLen: f.Size, SecTrk: f.Sectors, Tracks: f.Cylinders * f.Heads,
		BlockSize: 2048, MaxDir: dir, BootTrk: FloppySysTracks}, nil
}

type fdSectors struct {
	im *fdimage.Image
	f  fdimage.Format
}

func (x fdSectors) find(t, s int) (c, h, i int, err error) {
	c, h = floppyTrack(x.f, t)
	tr := x.im.Disk().Track(c, h)
	if tr == nil {
		return 0, 0, 0, fmt.Errorf("%s: no cylinder %d head %d", x.im.Path(), c, h)
	}
	i = tr.Find(byte(x.f.FirstID + s))
	if i < 0 {
		return 0, 0, 0, fmt.Errorf("%s: cylinder %d head %d has no sector %d", x.im.Path(), c, h, x.f.FirstID+s)
	}
	return c, h, i, nil
}

func (x fdSectors) ReadSector(t, s int, buf []byte) error {
	c, h, i, err := x.find(t, s)
	if err != nil {
		return err
	}
	sec := x.im.Disk().Track(c, h).Sectors[i]
	if sec.BadCRC || len(sec.Data) != len(buf) {
		return fmt.Errorf("%s: cylinder %d head %d sector %d cannot be read", x.im.Path(), c, h, sec.R)
	}
	copy(buf, sec.Data)
	return nil
}

func (x fdSectors) WriteSector(t, s int, buf []byte) error {
	c, h, i, err := x.find(t, s)
	if err != nil {
		return err
	}
	sec := x.im.Disk().Track(c, h).Sectors[i]
	sec.Data = append([]byte(nil), buf...)
	sec.BadCRC, sec.Deleted = false, false
	return x.im.WriteSector(c, h, i, sec)
}

// FloppyFS opens the CP/M file system of an Ampro-format floppy image.
func FloppyFS(im *fdimage.Image) (*cpmfs.FS, error) {
	f := im.Format()
	if f.Sectors == 0 {
		var err error
		if f, err = formatOf(im.Disk()); err != nil {
			return nil, err
		}
		f.Cylinders = im.Disk().Cylinders
	}
	g, err := FloppyGeometry(f)
	if err != nil {
		return nil, err
	}
	return cpmfs.Open(fdSectors{im, f}, g)
}
