// Package fdbench holds FDBENCH, a Z80 program that drives the WD1772 of
// the emulated board from a script (format with Write Track, write, read,
// Read Address) with the polled loops of an Ampro-style BIOS, and its
// script encoding. The harness that runs it on a machine with floppy
// drives is bench.LoadFloppy; it serves the floppy acceptance tests and
// `lbplus bench floppy` (docs/FLOPPY.md, "Bench").
//
// The read loop polls status (BUSY, DRQ) and takes a byte in 67 T-states;
// Build pads it to any longer loop, to show where a slower host starts to
// lose data (the disk gives a byte every 32 us = 128 T-states).
//
// Known inaccuracies / assumptions:
//   - The program is placed in RAM and boots through the stub ROM, as the
//     other bench programs do [A].
//   - After each sector the program copies it with LDIR (512 bytes, 2.7 ms)
//     as a deblocking BIOS does; that host time between sectors is what
//     makes interleave matter [A: an Ampro-style BIOS].
package fdbench

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
)

//go:embed fdbench.asm
var source string

// BaseLoop is the read loop's T-states a byte without padding.
const BaseLoop = 67

var (
	mu    sync.Mutex
	cache = map[int]*asm.Result{}
)

// pad finds a, b, c >= 0 with 4a + 6b + 7c = n (n >= 0, n not 1, 2, 3, 5
// or 9).
func pad(n int) (a, b, c int, ok bool) {
	for c = 0; 7*c <= n; c++ {
		for b = 0; 7*c+6*b <= n; b++ {
			if r := n - 7*c - 6*b; r%4 == 0 {
				return r / 4, b, c, true
			}
		}
	}
	return 0, 0, 0, false
}

// Build assembles FDBENCH with a read loop of loop T-states a byte, once
// per loop and process; callers share the result and must not modify it.
// Harnesses reach the program through its symbols (bench.RAMProgram):
// p_script, r_state, r_retries, r_raptr, r_stptr, r_rabuf, r_status.
func Build(loop int) (*asm.Result, error) {
	mu.Lock()
	defer mu.Unlock()
	if r := cache[loop]; r != nil {
		return r, nil
	}
	a, b, c, ok := pad(loop - BaseLoop)
	if !ok || loop < BaseLoop {
		return nil, fmt.Errorf("fdbench: no read loop of %d T-states a byte (%d or more, not %d+1, 2, 3, 5, 9)", loop, BaseLoop, BaseLoop)
	}
	res, err := asm.AssembleString(source, asm.Options{Defines: map[string]int64{"PAD4": int64(a), "PAD6": int64(b), "PAD7": int64(c)}})
	if err != nil {
		return nil, fmt.Errorf("fdbench: %w", err)
	}
	cache[loop] = res
	return res, nil
}

// Script is a list of FDBENCH operations.
type Script [][4]byte

func (s *Script) add(op, a, b, c byte) { *s = append(*s, [4]byte{op, a, b, c}) }

// Latch writes port 00 (the ROM stays off: bit 6 is forced).
func (s *Script) Latch(v byte) { s.add(1, v|emu.LatchRAM, 0, 0) }

// TypeI issues a type I command with the data register set to data.
func (s *Script) TypeI(cmd, data byte) { s.add(2, cmd, data, 0) }

// WriteTrack streams pages*256 bytes from page to Write Track.
func (s *Script) WriteTrack(page, pages byte) { s.add(3, page, pages, 0) }

// WriteSector writes sector r from page.
func (s *Script) WriteSector(r, page byte) { s.add(4, r, page, 0) }

// ReadSector reads sector r into page, retrying up to retries times.
func (s *Script) ReadSector(r, page, retries byte) { s.add(5, r, page, retries) }

// ReadAddress reads the next ID.
func (s *Script) ReadAddress() { s.add(6, 0, 0, 0) }

// Copy moves 512 bytes from page to page (LDIR).
func (s *Script) Copy(from, to byte) { s.add(7, from, to, 0) }

// Mark writes v to the printer data port: a scope marker for the harness.
func (s *Script) Mark(v byte) { s.add(8, v, 0, 0) }

// Bytes encodes the script with its end marker.
func (s Script) Bytes() []byte {
	out := make([]byte, 0, 4*len(s)+4)
	for _, e := range s {
		out = append(out, e[:]...)
	}
	return append(out, 0, 0, 0, 0)
}
