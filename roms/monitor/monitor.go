// Package monitor is the default boot ROM of lbplus: a small monitor for the
// Ampro Little Board/PLUS written in Z80 assembly (monitor.asm, embedded)
// and built by lbplus's own assembler the first time it is asked for.
//
// See monitor.asm for the commands. The SCSI boot command B [id] reads
// logical block 0 (512 bytes) of LUN 0 of the target into RAM at BOOTADR
// (8000h) and jumps there with A = the target ID; docs/BOOT.md is the
// protocol for whoever makes a bootable disk, roms/bootdemo an example.
// The monitor drives the NCR 5380 itself, by programmed I/O (a REQ/ACK
// handshake through the ICR per byte), so booting needs no code loaded into
// RAM. Failures are reported on the console: no 5380, no answer to
// selection (250 ms), the initiator's own ID, a stuck bus, a target that
// stops handshaking (then SCSI RST), CHECK CONDITION with the REQUEST SENSE
// bytes, another status, a short or blank block 0.
//
// Known inaccuracies / assumptions:
//   - Selection without arbitration and without ATN/IDENTIFY (one
//     initiator, SASI style, as FUZIX drives the board) [A]; the LUN is in
//     CDB byte 1.
//   - Timeouts are poll counts of known T-states (51 T a selection poll, 70 T
//     a REQ poll), not CTC time; they assume a 4 MHz clock and no WAIT.
//   - Ampro's own boot ROM was not available: the boot protocol (load
//     address, entry registers) is this project's, not Ampro's [A].
package monitor

import (
	"embed"
	"fmt"
	"sync"

	"github.com/lbplus/lbplus/asm"
)

//go:embed monitor.asm
var src embed.FS

// Size is the ROM image size: a 2732 EPROM (4 KB).
const Size = 4096

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
	if result.Org != 0 || len(result.Bytes) != Size {
		err = fmt.Errorf("monitor ROM: assembled to %d bytes at %04Xh, want %d at 0000h", len(result.Bytes), result.Org, Size)
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

// Source returns monitor.asm.
func Source() []byte {
	b, _ := src.ReadFile("monitor.asm")
	return b
}
