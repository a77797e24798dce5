// Package cpm is lbplus's own portable CP/M 2.2: the BDOS (bdos.asm) and the
// CCP (ccp.asm), Z80 sources embedded here and built by lbplus's assembler
// the first time they are asked for, plus layout.inc, the memory layout the
// BIOS and the system-disk tools share with them (docs/CPM.md).
//
// The layout is Digital Research's, so a user's own CCP+BDOS image for the
// same origin replaces ours unchanged. Package cpmtest runs the two on a Go
// BIOS; the Ampro BIOS and the boot media live elsewhere.
package cpm

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/lbplus/lbplus/asm"
)

//go:embed *.inc *.asm
var files embed.FS

// FS holds layout.inc, bdos.asm and ccp.asm at its root, for programs that
// include the layout.
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

type part struct {
	once sync.Once
	res  *asm.Result
	err  error
}

var bdos, ccp part

func (p *part) get(file string, org, size int) (*asm.Result, error) {
	p.once.Do(func() {
		p.res, p.err = asm.Assemble(files, file, asm.Options{})
		if p.err != nil {
			p.err = fmt.Errorf("cpm: %w", p.err)
			return
		}
		if int(p.res.Org) != org || len(p.res.Bytes) != size {
			p.err = fmt.Errorf("cpm: %s assembled to %d bytes at %04Xh, want %d at %04Xh",
				file, len(p.res.Bytes), p.res.Org, size, org)
		}
	})
	return p.res, p.err
}

// BDOS returns the assembled BDOS, 0E00h bytes for BDOSBase (shared: do not
// modify).
func BDOS() ([]byte, error) {
	r, err := bdos.get("bdos.asm", BDOSBase, BDOSSize)
	if err != nil {
		return nil, err
	}
	return r.Bytes, nil
}

// CCP returns the assembled CCP, 0800h bytes for CCPBase (shared).
func CCP() ([]byte, error) {
	r, err := ccp.get("ccp.asm", CCPBase, CCPSize)
	if err != nil {
		return nil, err
	}
	return r.Bytes, nil
}

// System returns CCP and BDOS as one SysSize image for CCPBase: what a
// system disk carries and warm boot reloads.
func System() ([]byte, error) {
	c, err := CCP()
	if err != nil {
		return nil, err
	}
	b, err := BDOS()
	if err != nil {
		return nil, err
	}
	return append(append(make([]byte, 0, SysSize), c...), b...), nil
}

// Symbols returns the labels of bdos.asm or ccp.asm (for tests and
// debuggers).
func Symbols(file string) (map[string]int64, error) {
	var r *asm.Result
	var err error
	switch file {
	case "bdos.asm":
		r, err = bdos.get(file, BDOSBase, BDOSSize)
	case "ccp.asm":
		r, err = ccp.get(file, CCPBase, CCPSize)
	default:
		return nil, fmt.Errorf("cpm: no source %q", file)
	}
	if err != nil {
		return nil, err
	}
	return r.Symbols, nil
}
