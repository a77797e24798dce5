package cpmbios

import (
	"bytes"
	"fmt"

	"github.com/lbplus/lbplus/roms/cpm"
)

// BlockDevice is a disk image as the system installer needs it
// (devices/image.File is one).
type BlockDevice interface {
	Blocks() int64
	ReadBlock(n int64, buf []byte) error
	WriteBlock(n int64, buf []byte) error
}

// HDConfig is what block 31 of an lbplus CP/M hard disk says.
type HDConfig struct {
	Partitions int  // 1..MaxPartitions, 4 MB each
	Burst      bool // 256-byte INIR/OTIR bursts instead of a DRQ poll per byte
}

// configSig starts the configuration block.
var configSig = []byte("LBPLUSHD")

const configVersion = 1

// Partitions returns how many whole 4 MB partitions fit on a disk of n
// blocks (at most MaxPartitions).
func Partitions(blocks int64) int {
	return int(min(blocks/(PartTracks*TrackBlocks), MaxPartitions))
}

// ReadHDConfig reads block 31; ok is false when it is not an lbplus
// configuration block.
func ReadHDConfig(d BlockDevice) (cfg HDConfig, ok bool, err error) {
	if d.Blocks() < SysBlocks {
		return cfg, false, nil
	}
	buf := make([]byte, BlockSize)
	if err := d.ReadBlock(ConfigBlock, buf); err != nil {
		return cfg, false, err
	}
	if !bytes.HasPrefix(buf, configSig) || buf[8] != configVersion || buf[9] < 1 || buf[9] > MaxPartitions {
		return cfg, false, nil
	}
	return HDConfig{Partitions: int(buf[9]), Burst: buf[10]&1 != 0}, true, nil
}

// InstallHD makes d a bootable lbplus CP/M hard disk: the boot loader in
// block 0, ccpbdos (a CCP and BDOS for roms/cpm's layout, cpm.SysSize
// bytes: ours, or DR's from a SYSGEN image) in blocks 10-20, the BIOS in
// blocks 21-30 and cfg in block 31. With format it also empties the
// directory of every partition (E5h, as CP/M expects of a new disk);
// without, the files on the disk stay as they are.
func InstallHD(d BlockDevice, ccpbdos []byte, cfg HDConfig, format bool) error {
	if len(ccpbdos) != cpm.SysSize {
		return fmt.Errorf("CCP+BDOS is %d bytes, want %d (CCP %04Xh + BDOS %04Xh for CCP at %04Xh)",
			len(ccpbdos), cpm.SysSize, cpm.CCPSize, cpm.BDOSSize, cpm.CCPBase)
	}
	if n := Partitions(d.Blocks()); cfg.Partitions < 1 || cfg.Partitions > n {
		return fmt.Errorf("%d partitions do not fit: the disk has %d blocks, room for %d of %d blocks",
			cfg.Partitions, d.Blocks(), n, PartTracks*TrackBlocks)
	}
	loader, err := Loader()
	if err != nil {
		return err
	}
	bios, err := BIOS()
	if err != nil {
		return err
	}
	sys := make([]byte, SysBlocks*BlockSize)
	copy(sys, loader)
	copy(sys[SysBlock*BlockSize:], ccpbdos)
	copy(sys[BIOSBlock*BlockSize:], bios)
	c := sys[ConfigBlock*BlockSize:]
	copy(c, configSig)
	c[8] = configVersion
	c[9] = byte(cfg.Partitions)
	if cfg.Burst {
		c[10] = 1
	}
	for n := 0; n < SysBlocks; n++ {
		if err := d.WriteBlock(int64(n), sys[n*BlockSize:(n+1)*BlockSize]); err != nil {
			return err
		}
	}
	if !format {
		return nil
	}
	empty := bytes.Repeat([]byte{0xE5}, BlockSize)
	for p := 0; p < cfg.Partitions; p++ {
		first := int64(PartitionStart(p)) * TrackBlocks
		for n := int64(0); n < DirEntries*32/BlockSize; n++ {
			if err := d.WriteBlock(first+n, empty); err != nil {
				return err
			}
		}
	}
	return nil
}

// PartitionStart is the first data track of partition p: the DPB's OFF
// (the system takes the first two tracks of partition 0).
func PartitionStart(p int) int {
	if p == 0 {
		return 2
	}
	return p * PartTracks
}
