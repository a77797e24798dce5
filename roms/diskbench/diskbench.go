// Package diskbench holds DISKBENCH, the Z80 program that replays the
// story's interleave measurement (docs/HARDWARE.md 8 row 5: time
// to move 8192 bytes from disk to memory as 4K x2 or 8K x1 READs), and its
// parameter block. The harness that runs it on a fresh machine with an
// ACB-4000 and an ST-125 image formatted at a chosen interleave is
// bench.RunDisk.
//
// The time is taken two ways: by the program itself with the CTC (64 us
// units, as a program on the real machine could; a stamp after every READ)
// and on the SCSI bus (every READ's bus free), as the story's scope did.
//
// The story's figure is the steady state of a bulk transfer: its owner's
// backup read sequential 8 KB chunks and he watched them on a scope. So
// the default measurement (bench.DiskResult.Steady) runs several chunks, each READ
// continuing at the next block, and takes the mean time per chunk after
// the first, whose rotational latency is random; from then on the READs
// are locked to the rotation and the figure does not depend on the spindle
// angle at the start. DiskResult.Scope (first selection to last bus free) is
// the isolated measurement of one transfer from a random angle.
//
// Nothing here knows the story's figures except Story, which only feeds
// reports and tests.
//
// Known inaccuracies / assumptions:
//   - The program is placed in RAM directly (no CP/M) and boots through a
//     three-instruction stub ROM, as the bench harness does [A].
//   - The isolated measurement samples an unknown rotational phase; the
//     harness takes the spindle phase at power-on as an input (acb4000
//     Params.IndexPhase) so a report can average over it [A].
//   - A steady run that crosses a cylinder (68 blocks on the ST-125) pays
//     a seek; the harness's default of four chunks from block 0 stays on
//     cylinder 0 [A: the story's chunks were "usually on the same track"].
package diskbench

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/scsilib"
)

//go:embed diskbench.asm
var files embed.FS

// Sources is every file the program needs, for asm.Assemble.
func Sources() fs.FS { return asm.UnionFS(files, scsilib.FS) }

// Build assembles DISKBENCH with lbplus/asm, once per process; callers
// share the result and must not modify it. Harnesses reach the program
// through its symbols (bench.RAMProgram).
func Build() (*asm.Result, error) { return build() }

var build = sync.OnceValues(func() (*asm.Result, error) {
	return scsilib.AssembleRAMProgram(Sources(), "diskbench.asm")
})

// Limits and sizes of diskbench.asm's parameter block and buffer.
const (
	MaxBlocks = 64 // 32 KB buffer: the largest READ
	MaxReads  = 64 // entries in the stamp table r_tab
	BlockSize = 512
)

// Handshake modes (scsilib mode bit 1).
const (
	ByteByByte = 0 // one DRQ poll per byte: 15 us a byte
	Burst      = 2 // INIR bursts: 5.25 us a byte
)

// Params is the program's parameter block.
type Params struct {
	Target    uint8
	Mode      uint8 // ByteByByte or Burst
	Burst     int   // bytes per INIR burst 1..256
	ReadSecs  int   // blocks per READ 1..64
	Reads     int   // READ commands 1..64 (the buffer wraps)
	LBA       int   // first block, < 2^21
	ReadyTrys int   // TEST UNIT READY tries 1..255
	Timeout   int   // scsilib timeout units 1..255
}

// Defaults is the story's 4K x2 burst case from block 0.
func Defaults() Params {
	return Params{Target: 0, Mode: Burst, Burst: 256, ReadSecs: 8, Reads: 2, LBA: 0, ReadyTrys: 10, Timeout: 4}
}

// Validate checks the ranges the program relies on.
func (p Params) Validate() error {
	switch {
	case p.Target > 7:
		return fmt.Errorf("target %d not 0-7", p.Target)
	case p.Mode != ByteByByte && p.Mode != Burst:
		return fmt.Errorf("mode %d not byte (0) or burst (2)", p.Mode)
	case p.Burst < 1 || p.Burst > 256:
		return fmt.Errorf("burst %d not 1-256", p.Burst)
	case p.ReadSecs < 1 || p.ReadSecs > MaxBlocks:
		return fmt.Errorf("READs of %d blocks: 1-%d blocks a READ", p.ReadSecs, MaxBlocks)
	case p.Reads < 1 || p.Reads > MaxReads:
		return fmt.Errorf("%d READs: 1-%d", p.Reads, MaxReads)
	case p.LBA < 0 || p.LBA+p.ReadSecs*p.Reads > 1<<21:
		return fmt.Errorf("block %d out of range", p.LBA)
	case p.ReadyTrys < 1 || p.ReadyTrys > 255 || p.Timeout < 1 || p.Timeout > 255:
		return fmt.Errorf("tries %d / timeout %d not 1-255", p.ReadyTrys, p.Timeout)
	}
	return nil
}

// Fields are the parameter block's values by the labels of diskbench.asm
// (p_*): a harness writes each at its label.
func (p Params) Fields() map[string][]byte {
	return map[string][]byte{"p_tgt": {p.Target}, "p_mode": {p.Mode}, "p_burst": {byte(p.Burst)},
		"p_rdsec": {byte(p.ReadSecs)}, "p_nread": {byte(p.Reads)},
		"p_lba": {byte(p.LBA), byte(p.LBA >> 8), byte(p.LBA >> 16)}, "p_ready": {byte(p.ReadyTrys)}, "p_tmo": {byte(p.Timeout)}}
}

// Story is the story's interleave table (docs/HARDWARE.md 8 rows 5 and 8), for
// reports only: milliseconds for 8192 bytes by interleave, 4K x2 bursts, and
// one 8K read at 3:1.
var Story = map[string]map[int]float64{
	"4Kx2": {2: 165, 3: 80, 4: 95, 5: 110, 6: 120, 7: 140, 8: 120, 9: 140},
	"8Kx1": {3: 60},
}
