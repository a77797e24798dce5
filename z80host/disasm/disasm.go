// Package disasm turns Z80 machine code back into assembler text, one
// instruction at a time, for the debugger and traces.
//
// Lengths and T-states come from z80host/optable, the same table the timed
// CPU and the assembler's listings use, so the disassembly always steps
// exactly as the CPU executes. Mnemonics follow Zilog's, lower case, with
// numbers as the assembler writes them (0FFh, 01234h) and the
// undocumented forms the assembler accepts (ixh, sll, "rlc (ix+d),b",
// "in f,(c)", "out (c),0"). Relative jumps show their absolute target.
// Addresses that have a name in a symbol table (the assembler's --sym
// output, see ReadSymbols) are shown by name.
//
// Byte sequences the CPU treats specially are decoded as it executes them:
// a DD or FD prefix in front of an opcode it does not change is executed
// as that opcode with 4 T more (Note says so), a prefix in front of another
// prefix is a 4 T no-op of its own, and an undefined ED opcode is an 8 T
// NOP shown as "defb".
package disasm

import (
	"fmt"

	"github.com/lbplus/lbplus/z80host/optable"
)

// Inst is one decoded instruction.
type Inst struct {
	Addr  uint16
	Bytes []byte // the instruction's bytes, prefixes and operands included
	Text  string // e.g. "ld (ix+005h),07fh", "jr nz,loop"
	Note  string // how the CPU treats an odd sequence; "" for ordinary code
	// Target is the address a jump, call, relative jump or RST goes to
	// (HasTarget), for the debugger's "step over" and cross references.
	Target    uint16
	HasTarget bool
	Timing    optable.Info // length, T-states and machine cycles
}

// Len is the instruction's length in bytes.
func (in Inst) Len() int { return len(in.Bytes) }

var (
	regs  = [8]string{"b", "c", "d", "e", "h", "l", "(hl)", "a"}
	rp    = [4]string{"bc", "de", "hl", "sp"}
	rp2   = [4]string{"bc", "de", "hl", "af"}
	conds = [8]string{"nz", "z", "nc", "c", "po", "pe", "p", "m"}
	alu   = [8]string{"add a,", "adc a,", "sub ", "sbc a,", "and ", "xor ", "or ", "cp "}
	rot   = [8]string{"rlc", "rrc", "rl", "rr", "sla", "sra", "sll", "srl"}
	block = [4][4]string{
		{"ldi", "cpi", "ini", "outi"}, {"ldd", "cpd", "ind", "outd"},
		{"ldir", "cpir", "inir", "otir"}, {"lddr", "cpdr", "indr", "otdr"}}
	imMode = [8]string{"0", "0", "1", "2", "0", "0", "1", "2"}
	misc7  = [8]string{"ld i,a", "ld r,a", "ld a,i", "ld a,r", "rrd", "rld"}
	acc7   = [8]string{"rlca", "rrca", "rla", "rra", "daa", "cpl", "scf", "ccf"}
)

// hex8 and hex16 write numbers as the assembler reads them.
func hex8(v uint8) string   { return fmt.Sprintf("0%02xh", v) }
func hex16(v uint16) string { return fmt.Sprintf("0%04xh", v) }

// Decode decodes the instruction at pc, reading memory through read (which
// must not have side effects: pass a peek, not a bus read). syms may be nil.
func Decode(read func(addr uint16) uint8, pc uint16, syms *Symbols) Inst {
	var code [4]byte
	for i := range code {
		code[i] = read(pc + uint16(i))
	}
	info := optable.Lookup(code[:])
	d := decoder{pc: pc, code: code, syms: syms, n: info.Len}
	text := d.decode()
	return Inst{Addr: pc, Bytes: append([]byte(nil), code[:info.Len]...), Text: text, Note: d.note,
		Target: d.target, HasTarget: d.hasTarget, Timing: info}
}

// DecodeBytes decodes the instruction at the start of code, which is at
// address pc; bytes past the end of code read as 00h.
func DecodeBytes(code []byte, pc uint16, syms *Symbols) Inst {
	return Decode(func(a uint16) uint8 {
		if i := int(a - pc); i < len(code) {
			return code[i]
		}
		return 0
	}, pc, syms)
}

type decoder struct {
	pc        uint16
	code      [4]byte
	n         int // length from optable
	syms      *Symbols
	note      string
	target    uint16
	hasTarget bool

	// Index register substitution (DD/FD).
	xy   string // "ix", "iy" or "" for HL
	disp int8   // (ix+d)
	at   int    // index of the next operand byte
}

func (d *decoder) byteAt(i int) uint8 { return d.code[i] }

func (d *decoder) imm8() string {
	v := d.code[d.at]
	d.at++
	return hex8(v)
}

func (d *decoder) imm16() uint16 {
	v := uint16(d.code[d.at]) | uint16(d.code[d.at+1])<<8
	d.at += 2
	return v
}

func (d *decoder) addr(v uint16) string {
	if name, ok := d.syms.Name(v); ok {
		return name
	}
	return hex16(v)
}

func (d *decoder) jump(v uint16) string {
	d.target, d.hasTarget = v, true
	return d.addr(v)
}

// hl names HL, IX or IY.
func (d *decoder) hl() string {
	if d.xy != "" {
		return d.xy
	}
	return "hl"
}

func (d *decoder) indexed() string {
	if d.disp < 0 {
		return fmt.Sprintf("(%s-0%02xh)", d.xy, -int(d.disp))
	}
	return fmt.Sprintf("(%s+0%02xh)", d.xy, d.disp)
}

// reg names register r; with a prefix, H and L become IXH/IXL unless the
// instruction also uses (IX+d) (hasMem), and (HL) becomes (IX+d).
func (d *decoder) reg(r uint8, hasMem bool) string {
	if d.xy == "" {
		return regs[r]
	}
	switch r {
	case 4, 5:
		if hasMem {
			return regs[r]
		}
		return d.xy + regs[r]
	case 6:
		return d.indexed()
	}
	return regs[r]
}

func (d *decoder) decode() string {
	switch d.code[0] {
	case 0xcb:
		return d.cb(d.code[1], 2)
	case 0xed:
		return d.ed()
	case 0xdd, 0xfd:
		return d.prefixed()
	}
	d.at = 1
	return d.base(d.code[0])
}

func (d *decoder) prefixed() string {
	p := "ix"
	if d.code[0] == 0xfd {
		p = "iy"
	}
	op := d.code[1]
	switch {
	case op == 0xdd || op == 0xfd || op == 0xed:
		d.note = "prefix followed by another prefix: a 4 T no-op"
		return "defb " + hex8(d.code[0])
	case op == 0xcb:
		d.xy, d.disp = p, int8(d.code[2])
		return d.cb(d.code[3], 4)
	case !optable.XYIndexed[op]:
		d.note = fmt.Sprintf("%02Xh prefix ignored: executes the next opcode with 4 T more", d.code[0])
		d.at = 2
		return d.base(op)
	}
	d.xy = p
	// (IX+d) comes right after the opcode, before any immediate.
	if usesMem(op) {
		d.disp = int8(d.code[2])
		d.at = 3
	} else {
		d.at = 2
	}
	return d.base(op)
}

// usesMem reports whether an unprefixed opcode addresses (HL) through
// register code 6 (so a prefix gives it a displacement byte).
func usesMem(op uint8) bool {
	x, y, z := op>>6, (op>>3)&7, op&7
	switch x {
	case 0:
		return (z == 4 || z == 5 || z == 6) && y == 6
	case 1:
		return (z == 6 || y == 6) && op != 0x76
	case 2:
		return z == 6
	}
	return false
}

func (d *decoder) base(op uint8) string {
	x, y, z := op>>6, (op>>3)&7, op&7
	p, q := y>>1, y&1
	mem := usesMem(op)
	switch x {
	case 0:
		switch z {
		case 0:
			switch y {
			case 0:
				return "nop"
			case 1:
				return "ex af,af'"
			}
			e := int8(d.code[d.at])
			d.at++
			t := d.jump(d.pc + uint16(d.n) + uint16(int16(e)))
			switch y {
			case 2:
				return "djnz " + t
			case 3:
				return "jr " + t
			}
			return "jr " + conds[y-4] + "," + t
		case 1:
			r := rp[p]
			if p == 2 {
				r = d.hl()
			}
			if q == 0 {
				return "ld " + r + "," + d.addr(d.imm16())
			}
			return "add " + d.hl() + "," + r
		case 2:
			switch y {
			case 0:
				return "ld (bc),a"
			case 1:
				return "ld a,(bc)"
			case 2:
				return "ld (de),a"
			case 3:
				return "ld a,(de)"
			case 4:
				return "ld (" + d.addr(d.imm16()) + ")," + d.hl()
			case 5:
				return "ld " + d.hl() + ",(" + d.addr(d.imm16()) + ")"
			case 6:
				return "ld (" + d.addr(d.imm16()) + "),a"
			}
			return "ld a,(" + d.addr(d.imm16()) + ")"
		case 3:
			r := rp[p]
			if p == 2 {
				r = d.hl()
			}
			if q == 0 {
				return "inc " + r
			}
			return "dec " + r
		case 4:
			return "inc " + d.reg(y, mem)
		case 5:
			return "dec " + d.reg(y, mem)
		case 6:
			r := d.reg(y, mem)
			return "ld " + r + "," + d.imm8()
		}
		return acc7[y]
	case 1:
		if op == 0x76 {
			return "halt"
		}
		return "ld " + d.reg(y, mem) + "," + d.reg(z, mem)
	case 2:
		return alu[y] + d.reg(z, mem)
	}
	switch z {
	case 0:
		return "ret " + conds[y]
	case 1:
		if q == 0 {
			r := rp2[p]
			if p == 2 {
				r = d.hl()
			}
			return "pop " + r
		}
		return [4]string{"ret", "exx", "jp (" + d.hl() + ")", "ld sp," + d.hl()}[p]
	case 2:
		return "jp " + conds[y] + "," + d.jump(d.imm16())
	case 3:
		switch y {
		case 0:
			return "jp " + d.jump(d.imm16())
		case 2:
			return "out (" + d.imm8() + "),a"
		case 3:
			return "in a,(" + d.imm8() + ")"
		case 4:
			return "ex (sp)," + d.hl()
		case 5:
			return "ex de,hl"
		case 6:
			return "di"
		case 7:
			return "ei"
		}
	case 4:
		return "call " + conds[y] + "," + d.jump(d.imm16())
	case 5:
		if q == 0 {
			r := rp2[p]
			if p == 2 {
				r = d.hl()
			}
			return "push " + r
		}
		return "call " + d.jump(d.imm16()) // p == 0: the other three are prefixes
	case 6:
		return alu[y] + d.imm8()
	case 7:
		t := uint16(y) * 8
		d.target, d.hasTarget = t, true
		switch {
		case t == 0:
			return "rst 0"
		case t < 10:
			return "rst 8"
		}
		return fmt.Sprintf("rst %xh", t)
	}
	return "defb " + hex8(op) // not reached: CB, ED, DD and FD are decoded before
}

// cb decodes a CB opcode; n is the instruction length (2, or 4 for DDCB).
func (d *decoder) cb(op uint8, n int) string {
	x, y, z := op>>6, (op>>3)&7, op&7
	var target string
	if d.xy != "" {
		target = d.indexed()
	} else {
		target = regs[z]
	}
	// DD CB d op with a register other than (HL) also copies the result
	// into that register (undocumented), except BIT which only tests.
	copyTo := ""
	if d.xy != "" && z != 6 && x != 1 {
		copyTo = "," + regs[z]
	}
	switch x {
	case 0:
		return rot[y] + " " + target + copyTo
	case 1:
		return fmt.Sprintf("bit %d,%s", y, target)
	case 2:
		return fmt.Sprintf("res %d,%s%s", y, target, copyTo)
	}
	return fmt.Sprintf("set %d,%s%s", y, target, copyTo)
}

func (d *decoder) ed() string {
	op := d.code[1]
	x, y, z := op>>6, (op>>3)&7, op&7
	p, q := y>>1, y&1
	d.at = 2
	if x == 1 {
		switch z {
		case 0:
			if y == 6 {
				return "in f,(c)"
			}
			return "in " + regs[y] + ",(c)"
		case 1:
			if y == 6 {
				return "out (c),0"
			}
			return "out (c)," + regs[y]
		case 2:
			if q == 0 {
				return "sbc hl," + rp[p]
			}
			return "adc hl," + rp[p]
		case 3:
			a := "(" + d.addr(d.imm16()) + ")"
			if q == 0 {
				return "ld " + a + "," + rp[p]
			}
			return "ld " + rp[p] + "," + a
		case 4:
			return "neg"
		case 5:
			if y == 1 {
				return "reti"
			}
			return "retn"
		case 6:
			return "im " + imMode[y]
		case 7:
			if y < 6 {
				return misc7[y]
			}
		}
	}
	if x == 2 && y >= 4 && z <= 3 {
		return block[y-4][z]
	}
	d.note = "undefined ED opcode: an 8 T NOP"
	return "defb " + hex8(0xed) + "," + hex8(op)
}
