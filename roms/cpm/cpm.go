// Package cpm is lbplus's own portable CP/M 2.2: the BDOS (bdos.asm) and the
// CCP (ccp.asm), Z80 sources embedded here and built by lbplus's assembler
// the first time they are asked for, plus layout.inc, the memory layout the
// BIOS and the system-disk tools share with them (docs/CPM.md).
//
// The layout is Digital Research's, so a user's own CCP+BDOS image for the
// same origin replaces ours unchanged.
package cpm

import (
	"embed"
	"io/fs"
)

//go:embed *.inc
var files embed.FS

// FS holds layout.inc (and the other shared include files) at its root, for
// programs that include it.
var FS fs.FS = files

// Layout of the default 60K system (layout.inc; layout_test.go checks the
// two agree).
const (
	MSIZE    = 60                       // system size in KB
	CCPBase  = (MSIZE-20)*1024 + 0x3400 // D400h
	CCPSize  = 0x0800
	BDOSBase = CCPBase + CCPSize // DC00h
	BDOSSize = 0x0E00
	BDOSEnt  = BDOSBase + 6
	BIOSBase = BDOSBase + BDOSSize // EA00h, a page boundary
	SysSize  = CCPSize + BDOSSize  // what warm boot reloads
)
