// Package backup holds BACKUP, the Z80 program that replays Bill
// Stubblebine's disk-to-tape experiment (Usenet, 20 August 1990;
// docs/HARDWARE.md 8) on the emulated board, and the Go side
// of its settings: assembling it and encoding its parameter block.
//
// BACKUP copies a range of the hard disk (SCSI ID 0, the ACB-4000) to the
// tape (SCSI ID 1, the MCD-403) in 8192-byte tape blocks. Each pass fills a
// buffer from the disk, by direct READ(6) commands of a chosen size or by
// 128-byte BIOS calls (roms/bios), with the byte-by-byte or the INIR-burst
// handshake, then writes it with one WRITE(6) per tape block, byte by byte
// or in OTIR bursts with a DRQ check before each burst. It times itself with
// the CTC (64 us units, roms/scsilib) and reports bytes and microseconds on
// the console. The program is plain Z80 code loaded at 0100h; the parameter
// harness (bench) writes Params.Fields at the p_* labels and reads the
// result block's r_* labels, all by name.
//
// # Known inaccuracies / assumptions
//
//   - Disk reads and tape writes alternate on one buffer, as a single-tasking
//     CP/M program of 1990 would; nothing overlaps them [A].
//   - The tape WRITE(6) carries the tape block number in the LBA field and a
//     count of 1 block, the block-addressed command set assumed for the
//     MCD-403 (docs/HARDWARE.md 7) [A].
//   - Before timing starts, both devices are polled with TEST UNIT READY
//     (1 s apart) so cartridge load and retension are not counted [A].
package backup

import (
	"embed"
	"encoding/binary"
	"fmt"
	"io/fs"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/bios"
	"github.com/lbplus/lbplus/roms/scsilib"
)

//go:embed backup.asm
var files embed.FS

// FS holds backup.asm at its root.
var FS fs.FS = files

// Sources is every file the program needs, for asm.Assemble.
func Sources() fs.FS { return asm.UnionFS(FS, scsilib.FS, bios.FS) }

// Build assembles BACKUP with lbplus/asm. The source is embedded and the
// settings travel in the parameter block, so the program is assembled once
// per process; callers share the result and must not modify it. Harnesses
// reach the program through its symbols (bench.RAMProgram).
func Build() (*asm.Result, error) { return build() }

var build = sync.OnceValues(func() (*asm.Result, error) {
	return scsilib.AssembleRAMProgram(Sources(), "backup.asm")
})

// Source selects how the disk is read.
type Source uint8

// Disk source paths.
const (
	SourceSCSI Source = 0 // direct READ(6) commands of ReadSectors blocks
	SourceBIOS Source = 1 // 128-byte BIOS calls, 1-block READs, byte handshake
)

// Handshake selects how data bytes cross the 5380.
type Handshake uint8

// Data handshakes (roms/scsilib mode bit 1).
const (
	Byte  Handshake = 0 // one DRQ poll per byte: 60 T = 15 us
	Burst Handshake = 2 // one DRQ poll per burst, INIR/OTIR: 21 T = 5.25 us
)

// NoTape as TapeID reads the disk only.
const NoTape = 0xFF

// Sizes of the blocks and of the buffer.
const (
	SectorSize   = 512
	TapeBlock    = 8192
	MaxBufSector = 64 // 32 KB buffer
)

// Params is BACKUP's parameter block.
type Params struct {
	Source      Source
	DiskID      uint8
	TapeID      uint8 // NoTape skips the tape
	DiskMode    Handshake
	DiskBurst   int // bytes per INIR burst, 1..256
	TapeMode    Handshake
	TapeBurst   int // bytes per OTIR burst, 1..256
	ReadSectors int // 512-byte blocks per READ (SourceSCSI), 1..64
	BufSectors  int // blocks per pass, multiple of ReadSectors (and of 16 with tape)
	Timeout     int // SCSI timeout units of ~1.5 s, 1..255
	StartLBA    uint32
	StartTape   uint32
	Passes      int // 1..65535
	Console     bool
	ReadyTries  int // TEST UNIT READY tries per device, 1..255
	// BIOSNoCache makes the BIOS re-read the host block for every 128-byte
	// record instead of reusing its buffer (an alternative assumption about
	// Ampro's BIOS, for comparison) [A].
	BIOSNoCache bool
}

// Defaults returns the story's best row: bursts, 8K x1 reads, 16-byte tape bursts.
func Defaults() Params {
	return Params{Source: SourceSCSI, DiskID: 0, TapeID: 1, DiskMode: Burst, DiskBurst: 256,
		TapeMode: Burst, TapeBurst: 16, ReadSectors: 16, BufSectors: 16, Timeout: 20,
		Passes: 8, Console: true, ReadyTries: 30}
}

// Validate reports a parameter BACKUP cannot run with.
func (p Params) Validate() error {
	switch {
	case p.Source > SourceBIOS:
		return fmt.Errorf("backup: source %d is neither SCSI (0) nor BIOS (1)", p.Source)
	case p.DiskMode != Byte && p.DiskMode != Burst, p.TapeMode != Byte && p.TapeMode != Burst:
		return fmt.Errorf("backup: handshake must be byte or burst")
	case p.DiskBurst < 1 || p.DiskBurst > 256, p.TapeBurst < 1 || p.TapeBurst > 256:
		return fmt.Errorf("backup: burst sizes must be 1..256 bytes (disk %d, tape %d)", p.DiskBurst, p.TapeBurst)
	case p.ReadSectors < 1 || p.ReadSectors > MaxBufSector:
		return fmt.Errorf("backup: READ size %d blocks is outside 1..%d", p.ReadSectors, MaxBufSector)
	case p.BufSectors < 1 || p.BufSectors > MaxBufSector || p.BufSectors%p.ReadSectors != 0:
		return fmt.Errorf("backup: buffer of %d blocks is not a multiple of the READ size %d up to %d", p.BufSectors, p.ReadSectors, MaxBufSector)
	case p.TapeID != NoTape && p.BufSectors%(TapeBlock/SectorSize) != 0:
		return fmt.Errorf("backup: buffer of %d blocks is not whole 8 KB tape blocks", p.BufSectors)
	case p.Timeout < 1 || p.Timeout > 255, p.ReadyTries < 1 || p.ReadyTries > 255:
		return fmt.Errorf("backup: timeout and ready tries must be 1..255")
	case p.Passes < 1 || p.Passes > 65535:
		return fmt.Errorf("backup: passes %d outside 1..65535", p.Passes)
	case p.StartLBA >= 1<<21 || p.StartTape >= 1<<21:
		return fmt.Errorf("backup: start block beyond the 21-bit READ(6)/WRITE(6) address")
	}
	return nil
}

// Bytes is the amount of data the run copies.
func (p Params) Bytes() int64 { return int64(p.Passes) * int64(p.BufSectors) * SectorSize }

// Fields are the parameter block's values by the labels of backup.asm
// (p_*), as the program reads them: a harness writes each at its label.
func (p Params) Fields() map[string][]byte {
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	flag := func(b bool) []byte {
		if b {
			return []byte{1}
		}
		return []byte{0}
	}
	return map[string][]byte{
		"p_src": {byte(p.Source)}, "p_dtgt": {p.DiskID}, "p_ttgt": {p.TapeID},
		"p_dmode": {byte(p.DiskMode)}, "p_dburst": {byte(p.DiskBurst)}, // 256 -> 0
		"p_tmode": {byte(p.TapeMode) | 1}, "p_tburst": {byte(p.TapeBurst)},
		"p_rdsec": {byte(p.ReadSectors)}, "p_bufsec": {byte(p.BufSectors)}, "p_tmo": {byte(p.Timeout)},
		"p_lba": le32(p.StartLBA), "p_tblk": le32(p.StartTape),
		"p_npass": binary.LittleEndian.AppendUint16(nil, uint16(p.Passes)),
		"p_con":   flag(p.Console), "p_ready": {byte(p.ReadyTries)}, "p_bcache": flag(!p.BIOSNoCache),
	}
}
