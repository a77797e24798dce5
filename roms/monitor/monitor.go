// Package monitor is the default boot ROM of lbplus: a small monitor for the
// Ampro Little Board/PLUS written in Z80 assembly (monitor.asm, embedded)
// and built by lbplus's own assembler the first time it is asked for.
//
// See monitor.asm for the commands. The SCSI boot command B jumps to the
// scsiboot routine, the hook the SCSI work fills in: read logical block 0 of
// the chosen target into RAM at BOOTADR (8000h) and jump there with A = the
// target ID.
package monitor

import (
	"embed"
	"fmt"
	"sync"

	"lbplus/asm"
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
