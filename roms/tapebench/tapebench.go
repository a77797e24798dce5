// Package tapebench holds TAPEBENCH, the Z80 program that writes or reads
// consecutive 8 KB blocks on the MCD-403 as fast as the Little Board/PLUS
// allows (optionally with a host delay before each block): the tape half of
// the 1990 story's experiments (docs/HARDWARE.md 8), without the disk. The harness that runs it on the
// emulated machine against the tape model is bench.RunTape.
//
// The program uses roms/scsilib: one READ(6)/WRITE(6) of one block per
// command, byte by byte (a DRQ poll per byte, 15 us) or in INIR/OTIR bursts
// with one DRQ poll per burst; it times itself with the CTC (64 us units)
// and detects a hung transfer with scsilib's poll-count timeout.
//
// # Known inaccuracies / assumptions
//
//   - The program sits in RAM at 0100h and is entered through a boot stub,
//     not loaded by CP/M [A].
//   - Reads need written blocks: the harness writes them into the image
//     before the board starts (the data a write run would have left).
//   - Every run starts at the load point with the cartridge retensioned, so
//     runs are deterministic.
package tapebench

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/scsilib"
)

//go:embed tapebench.asm
var files embed.FS

// FS holds tapebench.asm at its root.
var FS fs.FS = files

// Build assembles TAPEBENCH with lbplus/asm, once per process; callers
// share the result and must not modify it. Harnesses reach the program
// through its symbols (bench.RAMProgram).
func Build() (*asm.Result, error) { return build() }

var build = sync.OnceValues(func() (*asm.Result, error) {
	return scsilib.AssembleRAMProgram(asm.UnionFS(FS, scsilib.FS), "tapebench.asm")
})
