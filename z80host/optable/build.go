package optable

import (
	"fmt"
	"strings"
)

// A spec is a compact cycle list: "O4 R3 W3" = M1 fetch of 4 T, a read of 3 T,
// a write of 3 T. Letters: O fetch, R read, W write, I in, P out ("port
// write"); H is a write with HiFirst set. Digits are the length in T-states
// including the internal T-states that follow the cycle.
func parse(spec string) []Cycle {
	var cs []Cycle
	start := 0
	for _, f := range strings.Fields(spec) {
		var c Cycle
		switch f[0] {
		case 'O':
			c.Kind = Fetch
		case 'R':
			c.Kind = Read
		case 'W':
			c.Kind = Write
		case 'H':
			c.Kind, c.HiFirst = Write, true
		case 'I':
			c.Kind = In
		case 'P':
			c.Kind = Out
		default:
			panic("optable: bad spec " + spec)
		}
		var n int
		if _, err := fmt.Sscanf(f[1:], "%d", &n); err != nil {
			panic("optable: bad spec " + spec)
		}
		c.Start, c.Len = uint8(start), uint8(n)
		start += n
		cs = append(cs, c)
	}
	return cs
}

func mk(length int, spec string) Info {
	cs := parse(spec)
	in := Info{Len: length, Cycles: cs, NAlt: len(cs), Valid: true}
	for _, c := range cs {
		in.T += int(c.Len)
		if c.Kind == Fetch {
			in.M1++
		}
	}
	in.TAlt = in.T
	return in
}

// mkc is mk for a conditional form: the alternative path runs the first
// nalt cycles and takes talt T-states.
func mkc(length int, spec string, cond Cond, nalt, talt int) Info {
	in := mk(length, spec)
	in.Cond, in.NAlt, in.TAlt = cond, nalt, talt
	return in
}

// prefixed prepends an M1 fetch of 4 T to in (a DD/FD prefix in front of an
// instruction it does not change).
func prefixed(in Info) Info {
	out := in
	out.Len++
	out.T += 4
	out.TAlt += 4
	out.M1++
	out.NAlt++
	out.Cycles = append([]Cycle{{Kind: Fetch, Start: 0, Len: 4}}, in.Cycles...)
	for i := 1; i < len(out.Cycles); i++ {
		out.Cycles[i].Start += 4
	}
	return out
}

func init() {
	for op := 0; op < 256; op++ {
		Base[op] = base(uint8(op))
		CB[op] = cb(uint8(op))
		ED[op] = ed(uint8(op))
		XYCB[op] = xycb(uint8(op))
	}
	for op := 0; op < 256; op++ {
		if in, ok := xy(uint8(op)); ok {
			XY[op] = in
			XYIndexed[op] = true
		} else {
			XY[op] = prefixed(Base[op])
		}
	}
	Prefix = mk(1, "O4")
}

// base is the unprefixed table (CB, ED, DD, FD entries describe the prefix
// only and are never used by Get).
func base(op uint8) Info {
	x, y, z := op>>6, (op>>3)&7, op&7
	switch x {
	case 1:
		switch {
		case op == 0x76:
			return mk(1, "O4") // HALT
		case z == 6:
			return mk(1, "O4 R3")
		case y == 6:
			return mk(1, "O4 W3")
		}
		return mk(1, "O4")
	case 2:
		if z == 6 {
			return mk(1, "O4 R3")
		}
		return mk(1, "O4")
	case 0:
		switch z {
		case 0:
			switch y {
			case 0, 1: // NOP, EX AF,AF'
				return mk(1, "O4")
			case 2:
				return mkc(2, "O5 R8", DJNZ, 2, 8)
			case 3:
				return mk(2, "O4 R8")
			default:
				return mkc(2, "O4 R8", Flag, 2, 7)
			}
		case 1:
			if y&1 == 0 {
				return mk(3, "O4 R3 R3") // LD rr,nn
			}
			return mk(1, "O11") // ADD HL,rr
		case 2:
			switch y {
			case 0, 1, 2, 3: // LD (BC),A  LD A,(BC)  LD (DE),A  LD A,(DE)
				if y&1 == 0 {
					return mk(1, "O4 W3")
				}
				return mk(1, "O4 R3")
			case 4:
				return mk(3, "O4 R3 R3 W3 W3")
			case 5:
				return mk(3, "O4 R3 R3 R3 R3")
			case 6:
				return mk(3, "O4 R3 R3 W3")
			default:
				return mk(3, "O4 R3 R3 R3")
			}
		case 3:
			return mk(1, "O6") // INC/DEC rr
		case 4, 5:
			if y == 6 {
				return mk(1, "O4 R4 W3")
			}
			return mk(1, "O4")
		case 6:
			if y == 6 {
				return mk(2, "O4 R3 W3")
			}
			return mk(2, "O4 R3")
		default:
			return mk(1, "O4")
		}
	}
	// x == 3
	switch z {
	case 0:
		return mkc(1, "O5 R3 R3", Flag, 1, 5) // RET cc
	case 1:
		switch y {
		case 1: // RET
			return mk(1, "O4 R3 R3")
		case 3, 7: // EXX, LD SP,HL
			if y == 7 {
				return mk(1, "O6")
			}
			return mk(1, "O4")
		case 5: // JP (HL)
			return mk(1, "O4")
		}
		return mk(1, "O4 R3 R3") // POP
	case 2:
		return mk(3, "O4 R3 R3") // JP cc: both 10 T
	case 3:
		switch y {
		case 0:
			return mk(3, "O4 R3 R3")
		case 1:
			return mk(1, "O4") // CB prefix
		case 2:
			return mk(2, "O4 R3 P4")
		case 3:
			return mk(2, "O4 R3 I4")
		case 4:
			return mk(1, "O4 R3 R4 H3 W5")
		}
		return mk(1, "O4") // EX DE,HL, DI, EI
	case 4:
		return mkc(3, "O4 R3 R4 H3 W3", Flag, 3, 10)
	case 5:
		if y&1 == 0 {
			return mk(1, "O5 H3 W3") // PUSH
		}
		if y == 1 {
			return mk(3, "O4 R3 R4 H3 W3") // CALL
		}
		return mk(1, "O4") // DD ED FD prefixes
	case 6:
		return mk(2, "O4 R3")
	}
	return mk(1, "O5 H3 W3") // RST
}

func cb(op uint8) Info {
	x, z := op>>6, op&7
	if z != 6 {
		return mk(2, "O4 O4")
	}
	if x == 1 {
		return mk(2, "O4 O4 R4") // BIT b,(HL)
	}
	return mk(2, "O4 O4 R4 W3")
}

func ed(op uint8) Info {
	x, y, z := op>>6, (op>>3)&7, op&7
	if x == 1 {
		switch z {
		case 0:
			return mk(2, "O4 O4 I4")
		case 1:
			return mk(2, "O4 O4 P4")
		case 2:
			return mk(2, "O4 O11")
		case 3:
			if y&1 == 0 {
				return mk(4, "O4 O4 R3 R3 W3 W3")
			}
			return mk(4, "O4 O4 R3 R3 R3 R3")
		case 4, 6:
			return mk(2, "O4 O4") // NEG, IM
		case 5:
			return mk(2, "O4 O4 R3 R3") // RETN, RETI
		case 7:
			switch y {
			case 0, 1, 2, 3:
				return mk(2, "O4 O5") // LD I,A  LD R,A  LD A,I  LD A,R
			case 4, 5:
				return mk(2, "O4 O4 R7 W3") // RRD, RLD
			}
			return mk(2, "O4 O4")
		}
	}
	if x == 2 && y >= 4 && z <= 3 {
		rep := y >= 6
		var in Info
		switch z {
		case 0: // LDI LDD LDIR LDDR
			in = mk(2, "O4 O4 R3 W5")
			if rep {
				in = mkc(2, "O4 O4 R3 W10", Repeat, 4, 16)
			}
		case 1: // CPI ...
			in = mk(2, "O4 O4 R8")
			if rep {
				in = mkc(2, "O4 O4 R13", Repeat, 3, 16)
			}
		case 2: // INI ...
			in = mk(2, "O4 O5 I4 W3")
			if rep {
				in = mkc(2, "O4 O5 I4 W8", Repeat, 4, 16)
			}
		case 3: // OUTI ...
			in = mk(2, "O4 O5 R3 P4")
			if rep {
				in = mkc(2, "O4 O5 R3 P9", Repeat, 4, 16)
			}
		}
		return in
	}
	return mk(2, "O4 O4") // undefined: an 8 T NOP
}

// xy is the DD/FD table for opcodes the prefix changes; ok false otherwise.
func xy(op uint8) (Info, bool) {
	x, y, z := op>>6, (op>>3)&7, op&7
	switch op {
	case 0x21:
		return mk(4, "O4 O4 R3 R3"), true
	case 0x22:
		return mk(4, "O4 O4 R3 R3 W3 W3"), true
	case 0x2a:
		return mk(4, "O4 O4 R3 R3 R3 R3"), true
	case 0x23, 0x2b:
		return mk(2, "O4 O6"), true
	case 0x09, 0x19, 0x29, 0x39:
		return mk(2, "O4 O11"), true
	case 0x24, 0x25, 0x2c, 0x2d:
		return mk(2, "O4 O4"), true
	case 0x26, 0x2e:
		return mk(3, "O4 O4 R3"), true
	case 0x34, 0x35:
		return mk(3, "O4 O4 R8 R4 W3"), true
	case 0x36:
		return mk(4, "O4 O4 R3 R5 W3"), true
	case 0xe1:
		return mk(2, "O4 O4 R3 R3"), true
	case 0xe5:
		return mk(2, "O4 O5 H3 W3"), true
	case 0xe3:
		return mk(2, "O4 O4 R3 R4 H3 W5"), true
	case 0xe9:
		return mk(2, "O4 O4"), true
	case 0xf9:
		return mk(2, "O4 O6"), true
	}
	switch x {
	case 1:
		if op == 0x76 {
			return Info{}, false
		}
		if z == 6 {
			return mk(3, "O4 O4 R8 R3"), true // LD r,(IX+d)
		}
		if y == 6 {
			return mk(3, "O4 O4 R8 W3"), true // LD (IX+d),r
		}
		if y == 4 || y == 5 || z == 4 || z == 5 {
			return mk(2, "O4 O4"), true // IXH/IXL
		}
	case 2:
		if z == 6 {
			return mk(3, "O4 O4 R8 R3"), true
		}
		if z == 4 || z == 5 {
			return mk(2, "O4 O4"), true
		}
	}
	return Info{}, false
}

// xycb is DD CB d op / FD CB d op, indexed by op. The op byte is read by a
// plain memory read, not an M1 cycle, so R advances by two.
func xycb(op uint8) Info {
	if op>>6 == 1 {
		return mk(4, "O4 O4 R3 R5 R4") // BIT b,(IX+d): 20 T
	}
	return mk(4, "O4 O4 R3 R5 R4 W3") // 23 T
}
