package z80host

import (
	"unsafe"

	"github.com/lbplus/lbplus/z80host/optable"
)

// hot is optable.Info packed for the per-access path: 16 bytes without
// pointers, so the whole table stays in cache and selecting an instruction
// stores only an index in the CPU.
type hot struct {
	start                [6]uint8 // cycle starts (T-state offsets)
	read, write, hiFirst uint8    // bit i: cycle i is a memory read / write / first of a high-first pair
	n                    uint8    // number of cycles
	t, tAlt              uint8    // T-states of the T and TAlt paths
	m1                   uint8    // M1 cycles (R increments)
	cond                 optable.Cond
	post                 uint8 // post-processing or own-implementation code
	lenF                 uint8 // bytes in bits 6-0; bit 7: the instruction computes flags (loads Q)
}

const setsF = 0x80

// hot is kept at 16 bytes so an entry never straddles a cache line.
var _ = [1]struct{}{}[unsafe.Sizeof(hot{})-16]

// Offsets of the tables in hots.
const (
	hBase = 0
	hCB   = 256
	hED   = 512
	hXY   = 768
	hXYCB = 1024
)

var hots [1280]hot

func pack(in *optable.Info, post uint8) hot {
	if len(in.Cycles) > len(hot{}.start) {
		panic("z80host: instruction with more cycles than hot.start holds")
	}
	h := hot{n: uint8(len(in.Cycles)), t: uint8(in.T), tAlt: uint8(in.TAlt), m1: uint8(in.M1),
		cond: in.Cond, post: post, lenF: uint8(in.Len)}
	for i, cy := range in.Cycles {
		h.start[i] = cy.Start
		switch cy.Kind {
		case optable.Read:
			h.read |= 1 << i
		case optable.Write:
			h.write |= 1 << i
		}
		if cy.HiFirst {
			h.hiFirst |= 1 << i
		}
	}
	return h
}

func buildHots() {
	for i := 0; i < 256; i++ {
		op := uint8(i)
		hots[hBase+i] = pack(&optable.Base[i], basePost[i])
		if baseSetsF(op) {
			hots[hBase+i].lenF |= setsF
		}
		hots[hCB+i] = pack(&optable.CB[i], cbPost[i])
		if op < 0x80 { // rotates, shifts, BIT; not RES/SET
			hots[hCB+i].lenF |= setsF
		}
		hots[hED+i] = pack(&optable.ED[i], edPost[i])
		if edSetsF(op) {
			hots[hED+i].lenF |= setsF
		}
		hots[hXY+i] = pack(&optable.XY[i], xyPost[i])
		if baseSetsF(op) { // IX forms of flag-setting ops set flags alike
			hots[hXY+i].lenF |= setsF
		}
		hots[hXYCB+i] = pack(&optable.XYCB[i], pXYCB)
		if op < 0x80 {
			hots[hXYCB+i].lenF |= setsF
		}
	}
}

// baseSetsF: unprefixed instructions that compute flags. POP AF loads F
// without computing it and counts as not setting flags [A, after Sainz de
// Baranda's Q research].
func baseSetsF(op uint8) bool {
	x, y, z := op>>6, (op>>3)&7, op&7
	switch x {
	case 0:
		return (z == 1 && y&1 == 1) || z == 4 || z == 5 || z == 7
	case 2:
		return true
	case 3:
		return z == 6
	}
	return false
}

func edSetsF(op uint8) bool {
	x, y, z := op>>6, (op>>3)&7, op&7
	switch {
	case x == 1 && (z == 0 || z == 2 || z == 4):
		return true // IN r,(C), ADC/SBC HL, NEG
	case x == 1 && z == 7:
		return y == 2 || y == 3 || y == 4 || y == 5 // LD A,I, LD A,R, RRD, RLD
	case x == 2 && y >= 4 && z <= 3:
		return true // block instructions
	}
	return false
}
