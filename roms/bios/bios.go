// Package bios embeds bios.inc, a CP/M-style hard disk READ of 128-byte
// records deblocked from 512-byte SCSI blocks, the way the 1990 story
// describes Ampro's BIOS: one SCSI READ(6) of a single block per host block,
// moved with the byte-by-byte handshake (one DRQ poll per byte, 15 us), kept
// in a host buffer, and handed out in four 128-byte pieces.
//
// A program includes it after scsilib.inc (see package roms/scsilib for the
// calling convention); the entry points have CP/M 2.2 shapes: bios_settrk,
// bios_setsec, bios_setdma (BC), bios_read (A = 0 ok, 1 error), plus
// bios_inval to drop the host buffer.
//
// # Known inaccuracies / assumptions
//
//   - Ampro's BIOS source was not available: the deblocking follows the
//     textbook CP/M 2.2 read path (a host buffer reused while the same host
//     block is asked for) and the per-call overhead is only what this code
//     costs, without BDOS. The real BIOS also served writes, several
//     partitions and the floppies; none of that is here [A].
//   - 64 records (8 KB) per CP/M track is a convenient choice, not Ampro's
//     disk parameter block [A]; it changes nothing in the SCSI traffic.
package bios

import (
	"embed"
	"io/fs"
)

//go:embed bios.inc
var files embed.FS

// FS holds bios.inc at its root.
var FS fs.FS = files
