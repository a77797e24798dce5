package z80host

import "lbplus/z80host/optable"

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
	len                  uint8 // bytes
	setsF                bool  // the instruction computes flags (it loads Q)
}

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
		cond: in.Cond, post: post, len: uint8(in.Len)}
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
		hots[hBase+i].setsF = baseSetsF(op)
		hots[hCB+i] = pack(&optable.CB[i], cbPost[i])
		hots[hCB+i].setsF = op < 0x80 // rotates, shifts, BIT; not RES/SET
		hots[hED+i] = pack(&optable.ED[i], edPost[i])
		hots[hED+i].setsF = edSetsF(op)
		hots[hXY+i] = pack(&optable.XY[i], xyPost[i])
		hots[hXY+i].setsF = baseSetsF(op) // IX forms of flag-setting ops set flags alike
		hots[hXYCB+i] = pack(&optable.XYCB[i], pXYCB)
		hots[hXYCB+i].setsF = op < 0x80
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
