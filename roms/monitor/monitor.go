// Package monitor is the default boot ROM of lbplus (monitor.asm, embedded,
// built by lbplus's own assembler the first time it is asked for). It boots
// the Ampro Little Board/PLUS the way Ampro's SCSI/floppy boot ROM does, so
// original Ampro boot sectors and HGEN hard-disk loaders run unchanged, and
// keeps a small monitor for a key typed during the boot.
//
// At reset the ROM copies itself to 8000h and runs there with the EPROM
// switched out; it tries floppy drive A (when a WD1772 answers), then SCSI
// (target 0 when the J9 ID is 7, else target 7), loads the boot sector to
// 9000h and enters it if its first byte is 21h or 3Eh. Boot sectors call the
// jump table at 8000h-801Bh and read the variables at 801Eh-802Bh
// (docs/BOOT.md lists them). The SCSI code is programmed I/O, a REQ/ACK
// handshake through the ICR per byte, so booting needs nothing in RAM.
//
// Known inaccuracies / assumptions:
//   - Arbitration before selection, as Ampro's ROM does [F AMPROM]; no
//     ATN/IDENTIFY (SASI style) [A]. The LUN is in CDB byte 1.
//   - Timeouts and delays are poll counts of known T-states (48 T a console
//     poll, 51 T a selection poll, 59 T a floppy status poll (48 T during
//     Restore or Step In), 70 T a REQ poll), not CTC time; they assume a 4 MHz clock and no WAIT, as
//     Ampro's do [F AMPROM].
//   - After a failed floppy boot the step-in, side and retry behaviour
//     beyond what boot sectors use (two boot tracks) is our choice [A].
package monitor

import (
	"embed"
	"fmt"
	"sync"

	"github.com/lbplus/lbplus/asm"
)

//go:embed monitor.asm
var src embed.FS

// Bootable reports whether the ROM enters a boot sector: its first byte is
// 21h (LD HL,nn) or 3Eh (LD A,n) [F AMPROM; docs/BOOT.md].
func Bootable(sector []byte) bool {
	return len(sector) > 0 && (sector[0] == 0x21 || sector[0] == 0x3E)
}

// Size is the ROM image size: a 2732 EPROM (4 KB).
const Size = 4096

// Org is where the ROM runs: it copies itself there at reset [F AMPROM].
const Org = 0x8000

// Entry points and variables of the jump table at Org that boot sectors use
// (docs/BOOT.md).
const (
	Restart  = 0x8000 // start over from reset
	Setup    = 0x8003 // select floppy A, Restore
	StepIn   = 0x8006 // next boot track (side 1 first on double-sided media)
	Side1    = 0x8009 // select side 1
	FDClear  = 0x800C // Force Interrupt
	SetDMA   = 0x800F // DMA address = HL
	ReadTrk  = 0x8012 // read a track (SCSI boot: the next 16 blocks)
	ReadSec  = 0x8015 // read the sector in the FDC's sector register
	ReadID   = 0x8018 // Read Address into IDSave
	InitHDC  = 0x801B // SCSI command HL with DATA OUT from DE
	DMAAddr  = 0x801E // word: where the next sector goes
	IDSave   = 0x8020 // 6 bytes: the last ID read
	SelByte  = 0x8026 // port 00 value for the floppy
	Track    = 0x8027
	Sector   = 0x8028
	Status   = 0x8029 // status of the last floppy command
	TwoSided = 0x802A // 1: double-sided media
	SecBias  = 0x802B // sector number bias: 0 or 16
	BootSec  = 0x9000 // where the boot sector is loaded and entered
)

var (
	once   sync.Once
	result *asm.Result
	err    error
)

func build() {
	result, err = asm.Assemble(src, "monitor.asm", asm.Options{})
	if err != nil {
		err = fmt.Errorf("monitor ROM: %w", err)
		return
	}
	if result.Org != Org || len(result.Bytes) != Size {
		err = fmt.Errorf("monitor ROM: assembled to %d bytes at %04Xh, want %d at %04Xh", len(result.Bytes), result.Org, Size, Org)
	}
}

// Image returns the assembled 4 KB ROM image (shared: do not modify).
func Image() ([]byte, error) {
	once.Do(build)
	if err != nil {
		return nil, err
	}
	return result.Bytes, nil
}

// Symbols returns the ROM's labels and their addresses.
func Symbols() (map[string]int64, error) {
	once.Do(build)
	if err != nil {
		return nil, err
	}
	return result.Symbols, nil
}

// Result returns the whole assembly (symbols, which of them are labels,
// the listing), for debuggers. Shared: do not modify.
func Result() (*asm.Result, error) {
	once.Do(build)
	return result, err
}
