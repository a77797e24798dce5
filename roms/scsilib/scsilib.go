// Package scsilib embeds the Z80 routines that lbplus programs share to drive
// the Ampro Little Board/PLUS hardware: the NCR 5380 SCSI initiator, an
// interval timer on the Z80 CTC and console output on the DART.
//
// The sources are plain Zilog syntax that both pasmo and lbplus/asm accept.
// A program includes them by name from the file system FS (combine it with
// its own sources through asm.UnionFS):
//
//	INCLUDE "scsilib.inc"   ; all of the below
//	INCLUDE "sl_hw.inc"     ; port and register-bit EQUs (docs/HARDWARE.md 1.3, 3.1)
//	INCLUDE "sl_scsi.inc"   ; sl_init, sl_exec, sl_select, sl_cdb, sl_data, sl_finish, sl_abort
//	INCLUDE "sl_timer.inc"  ; tm_init, tm_read, tm_stop (CTC channel 2, 64 us units)
//	INCLUDE "sl_con.inc"    ; con_init, con_putc, con_puts, con_crlf, con_dec32, con_hex8
//
// # Calling convention
//
// Results come back in the carry flag: CF=0 success, CF=1 failure with A an
// SE_* code (SE_BUSY 1, SE_SELTO 2, SE_PHASE 3, SE_HANG 4). IX and IY are
// preserved; AF, BC, DE, HL and the alternate HL' are not (HL' counts
// timeouts, so interrupt handlers must not use EXX). sl_exec takes IX
// pointing at a 16-byte request block (RQ_* offsets in sl_scsi.inc: target,
// mode, burst, CDB length and address, buffer, length; results: status,
// error, stage, CSB, bytes moved). The mode byte selects the data handshake:
// bit 0 direction (1 = DATA OUT), bit 1 bursts (INIR/OTIR of RQ_BURST bytes
// after one DRQ poll) instead of one DRQ poll per byte (INI/OUTI, 60 T).
//
// Every wait is bounded: the byte sl_tmo holds the timeout in units of 65536
// unanswered polls (about 1.5 s each); a target that stops handshaking makes
// the routine return SE_HANG, after which sl_exec pulses SCSI RST.
//
// # Known inaccuracies / assumptions
//
//   - Selection skips arbitration (single initiator), with no ATN or IDENTIFY,
//     as FUZIX drives this board [F FUZIX]. The ACB-4000 and a SASI-era tape
//     drive accept that [A].
//   - The byte-by-byte handshake is the 5380's DMA mode with a BSR poll per
//     byte, which is how a 15 us/byte loop is reached on this CPU
//     (docs/HARDWARE.md 2.1); Ampro's BIOS source was not available, so the exact
//     instruction sequence is an assumption [A].
//   - Bursts check DRQ once per burst only; a target slower than 5.25 us per
//     byte inside a burst gets stale reads or overwritten writes. That is the
//     hardware's behaviour (docs/HARDWARE.md 1.5), not a bug to fix here.
//   - Timeouts are counted in polls, not in CTC time, so they scale with the
//     poll loop's length (1.4-1.6 s a unit).
package scsilib

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/lbplus/lbplus/asm"
)

//go:embed *.inc
var files embed.FS

// FS holds the include files at its root.
var FS fs.FS = files

// AssembleRAMProgram assembles file from fsys (the program's own sources
// joined with FS and whatever else it includes, asm.UnionFS) as one of the
// RAM programs the bench harnesses run (BACKUP, DISKBENCH, TAPEBENCH): code,
// variables and stack first, up to the label stack, then the transfer
// buffer at BUF. A program whose stack runs into its buffer, or that lacks
// either symbol, is an error naming file.
func AssembleRAMProgram(fsys fs.FS, file string) (*asm.Result, error) {
	r, err := asm.Assemble(fsys, file, asm.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	buf, err := r.Symbol("BUF")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	stack, err := r.Symbol("stack")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if stack > buf {
		return nil, fmt.Errorf("%s: program ends at %04Xh, inside its buffer at %04Xh", file, stack, buf)
	}
	return r, nil
}
