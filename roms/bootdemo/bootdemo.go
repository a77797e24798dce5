// Package bootdemo is an example SCSI boot block for the lbplus boot ROM: a
// Z80 program (bootdemo.asm, embedded) that the ROM loads from logical
// block 0 of a disk to 9000h and runs (at power-on or with the monitor's B). It prints a greeting naming the
// target it was booted from and returns to the monitor. docs/BOOT.md gives
// the boot protocol it follows.
//
// Known inaccuracies / assumptions: none of the hardware; the block relies
// on the ROM having set up the console (9600 baud, no interrupts), as
// any program entered from the monitor may.
package bootdemo

import (
	"embed"
	"fmt"

	"github.com/lbplus/lbplus/asm"
)

//go:embed bootdemo.asm
var src embed.FS

// Org is where the ROM loads a boot block and enters it.
const Org = 0x9000

// BlockSize is the size of the boot block: one 512-byte logical block.
const BlockSize = 512

// Message is the start of the line the block prints.
const Message = "Hello from the boot block of SCSI target "

// Block assembles bootdemo.asm with lbplus/asm into the 512-byte block to
// write to logical block 0 of a disk image.
func Block() ([]byte, error) {
	r, err := asm.Assemble(src, "bootdemo.asm", asm.Options{})
	if err != nil {
		return nil, fmt.Errorf("bootdemo: %w", err)
	}
	if r.Org != Org || len(r.Bytes) != BlockSize {
		return nil, fmt.Errorf("bootdemo: assembled to %d bytes at %04Xh, want %d at %04Xh", len(r.Bytes), r.Org, BlockSize, Org)
	}
	return r.Bytes, nil
}
