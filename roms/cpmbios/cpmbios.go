// Package cpmbios is lbplus's CP/M 2.2 BIOS for the Ampro Little Board/PLUS
// (bios.asm) and the boot loader of its hard disks (bootstrap.asm), Z80
// sources embedded here and built by lbplus's assembler on first use. The
// BIOS sits at BIOSBASE of roms/cpm's layout (EA00h in the 60K system), so
// our BDOS and CCP or a user's DR CP/M 2.2 run on it; docs/CPM.md
// describes the devices, the disk layout and the partitions.
//
// Known inaccuracies / assumptions:
//   - Ampro's BIOS keeps its configuration in a different shape; the hard
//     disk's partitions here (4 MB each, their DPBs) and the configuration
//     block are this project's [A]; cpmtools reads them with docs/diskdefs.
//   - The clock counts seconds since cold boot on CTC channel 3 alone
//     (125 interrupts a second), so it needs no ZC/TO2 -> CLK/TRG3 jumper;
//     later Ampro BIOSes cascade channels 2 and 3 instead [F AMBIOS].
package cpmbios

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/scsilib"
)

//go:embed bios.asm bootstrap.asm fdboot.asm
var src embed.FS

// Disk layout of an lbplus CP/M hard disk (blocks of 512 bytes).
const (
	BlockSize   = 512
	LoaderBlock = 0  // bootstrap.asm
	SysBlock    = 10 // CCP+BDOS, cpm.SysSize bytes
	BIOSBlock   = 21 // the BIOS image, at most ImageMax bytes
	ConfigBlock = 31 // "LBPLUSHD", version, partitions, transfer mode
	SysBlocks   = 32 // blocks the system occupies (two CP/M tracks)

	ImageMax = 0x0E00 // BIOS bytes loaded from disk; above is its RAM

	TrackBlocks   = 16  // blocks per CP/M track (64 records)
	PartTracks    = 512 // tracks per partition (4 MB)
	MaxPartitions = 5
	DirEntries    = 512 // directory entries per partition
	BlockBytes    = 4096
)

var (
	once   sync.Once
	bios   *asm.Result
	boot   *asm.Result
	fdboot *asm.Result
	bderr  error
)

func build() {
	fsys := asm.UnionFS(src, cpm.FS, scsilib.FS)
	if bios, bderr = assemble(fsys, "bios.asm", "CP/M BIOS", cpm.BIOSBase, ImageMax, true); bderr != nil {
		return
	}
	if boot, bderr = assemble(fsys, "bootstrap.asm", "CP/M boot loader", 0x9000, BlockSize, false); bderr != nil {
		return
	}
	fdboot, bderr = assemble(fsys, "fdboot.asm", "CP/M floppy boot loader", 0x9000, LoaderSize, false)
}

// assemble builds file, which what names in errors; its image must start at
// org and be size bytes long, or at most size with upTo.
func assemble(fsys fs.FS, file, what string, org uint16, size int, upTo bool) (*asm.Result, error) {
	r, err := asm.Assemble(fsys, file, asm.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if r.Org != org || len(r.Bytes) > size || (!upTo && len(r.Bytes) != size) {
		want := fmt.Sprint(size)
		if upTo {
			want = "at most " + want
		}
		return nil, fmt.Errorf("%s: %d bytes at %04Xh, want %s at %04Xh", what, len(r.Bytes), r.Org, want, org)
	}
	return r, nil
}

// FloppyBoot returns the boot loader of a floppy, CP/M record 0 of its
// system tracks (shared; LoaderSize bytes; the CCP follows it).
func FloppyBoot() ([]byte, error) {
	once.Do(build)
	if bderr != nil {
		return nil, bderr
	}
	return fdboot.Bytes, nil
}

// BIOS returns the assembled BIOS image, loaded at cpm.BIOSBase (shared: do
// not modify).
func BIOS() ([]byte, error) {
	once.Do(build)
	if bderr != nil {
		return nil, bderr
	}
	return bios.Bytes, nil
}

// Symbols returns the BIOS's labels and their addresses.
func Symbols() (map[string]int64, error) {
	once.Do(build)
	if bderr != nil {
		return nil, bderr
	}
	return bios.Symbols, nil
}

// Loader returns block 0 of a hard disk: the boot loader (shared).
func Loader() ([]byte, error) {
	once.Do(build)
	if bderr != nil {
		return nil, bderr
	}
	return boot.Bytes, nil
}
