package asm

// Instruction encoding: operands are classified once, then each mnemonic
// picks its form. Bytes follow the Zilog Z80 CPU User Manual (UM0080) plus
// the well-known undocumented forms (IXH/IXL/IYH/IYL, SLL, DD/FD CB d with a
// register copy, IN F,(C), OUT (C),0).

type opKind uint8

const (
	oImm    opKind = iota // expression
	oReg8                 // B C D E H L A, IXH IXL IYH IYL (reg = code, pfx = DD/FD)
	oRegI                 // I
	oRegR                 // R
	oReg16                // BC DE HL SP IX IY (reg = 0..3, pfx for IX/IY)
	oAF                   // AF
	oAFx                  // AF'
	oF                    // F, only in IN F,(C)
	oCond                 // NZ Z NC PO PE P M (C is a register operand)
	oIndBC                // (BC)
	oIndDE                // (DE)
	oIndHL                // (HL)
	oIndSP                // (SP)
	oIndC                 // (C)
	oIndIdx               // (IX+d) (IY+d), pfx set
	oIndImm               // (nn)
)

type operand struct {
	kind opKind
	reg  int
	pfx  byte
	e    *expr
	col  int
}

var reg8Codes = map[string]int{"B": 0, "C": 1, "D": 2, "E": 3, "H": 4, "L": 5, "A": 7}

var condCodes = map[string]int{"NZ": 0, "Z": 1, "NC": 2, "PO": 4, "PE": 5, "P": 6, "M": 7}

// parseOperand classifies one comma-separated operand.
func parseOperand(toks []token) (operand, *lexError) {
	o := operand{col: toks[0].col}
	if len(toks) == 1 && toks[0].kind == tIdent {
		up := toks[0].up
		if c, ok := reg8Codes[up]; ok {
			o.kind, o.reg = oReg8, c
			return o, nil
		}
		if c, ok := condCodes[up]; ok {
			o.kind, o.reg = oCond, c
			return o, nil
		}
		switch up {
		case "IXH", "IXL", "IYH", "IYL":
			o.kind, o.reg, o.pfx = oReg8, 4, 0xDD
			if up[1] == 'Y' {
				o.pfx = 0xFD
			}
			if up[2] == 'L' {
				o.reg = 5
			}
			return o, nil
		case "I":
			o.kind = oRegI
			return o, nil
		case "R":
			o.kind = oRegR
			return o, nil
		case "BC", "DE", "HL", "SP":
			o.kind = oReg16
			o.reg = map[string]int{"BC": 0, "DE": 1, "HL": 2, "SP": 3}[up]
			return o, nil
		case "IX":
			o.kind, o.reg, o.pfx = oReg16, 2, 0xDD
			return o, nil
		case "IY":
			o.kind, o.reg, o.pfx = oReg16, 2, 0xFD
			return o, nil
		case "AF":
			o.kind = oAF
			return o, nil
		case "AF'":
			o.kind = oAFx
			return o, nil
		case "F":
			o.kind = oF
			return o, nil
		}
	}
	if t := toks[0]; t.kind == tOp && (t.text == "(" || t.text == "[") && matchClose(toks) < 0 {
		return o, &lexError{t.col, "unbalanced " + quote(t.text)}
	}
	if t := toks[0]; t.kind == tOp && (t.text == "(" || t.text == "[") && matchClose(toks) == len(toks)-1 {
		inner := toks[1 : len(toks)-1]
		if len(inner) == 0 {
			return o, &lexError{t.col, "empty parentheses"}
		}
		if inner[0].kind == tIdent {
			up := inner[0].up
			if len(inner) == 1 {
				switch up {
				case "BC":
					o.kind = oIndBC
					return o, nil
				case "DE":
					o.kind = oIndDE
					return o, nil
				case "HL":
					o.kind = oIndHL
					return o, nil
				case "SP":
					o.kind = oIndSP
					return o, nil
				case "C":
					o.kind = oIndC
					return o, nil
				}
			}
			if up == "IX" || up == "IY" {
				o.kind, o.pfx = oIndIdx, 0xDD
				if up == "IY" {
					o.pfx = 0xFD
				}
				if len(inner) == 1 {
					o.e = &expr{op: eNum}
					return o, nil
				}
				if inner[1].kind != tOp || (inner[1].text != "+" && inner[1].text != "-") {
					return o, &lexError{inner[1].col, "'+' or '-' expected after " + inner[0].text}
				}
				e, err := parseExpr(inner[1:])
				if err != nil {
					return o, err
				}
				o.e = e
				return o, nil
			}
			if isRegisterWord(up) {
				return o, &lexError{inner[0].col, "register " + inner[0].text + " cannot be used indirectly"}
			}
		}
		e, err := parseExpr(inner)
		if err != nil {
			return o, err
		}
		o.kind, o.e = oIndImm, e
		return o, nil
	}
	for _, t := range toks {
		if t.kind == tIdent && isRegisterWord(t.up) {
			return o, &lexError{t.col, "register " + t.text + " not allowed in an expression"}
		}
	}
	e, err := parseExpr(toks)
	if err != nil {
		return o, err
	}
	o.kind, o.e = oImm, e
	return o, nil
}

// matchClose returns the index of the bracket closing toks[0], or -1.
func matchClose(toks []token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func isRegisterWord(up string) bool {
	switch up {
	case "A", "B", "C", "D", "E", "H", "L", "I", "R", "IXH", "IXL", "IYH", "IYL",
		"BC", "DE", "HL", "SP", "IX", "IY", "AF", "AF'":
		return true
	}
	return false
}

// noOperand lists instructions without operands.
var noOperand = map[string][]byte{
	"NOP": {0x00}, "RLCA": {0x07}, "RRCA": {0x0F}, "RLA": {0x17}, "RRA": {0x1F},
	"DAA": {0x27}, "CPL": {0x2F}, "SCF": {0x37}, "CCF": {0x3F}, "HALT": {0x76},
	"EXX": {0xD9}, "DI": {0xF3}, "EI": {0xFB},
	"NEG": {0xED, 0x44}, "RETN": {0xED, 0x45}, "RETI": {0xED, 0x4D},
	"RRD": {0xED, 0x67}, "RLD": {0xED, 0x6F},
	"LDI": {0xED, 0xA0}, "CPI": {0xED, 0xA1}, "INI": {0xED, 0xA2}, "OUTI": {0xED, 0xA3},
	"LDD": {0xED, 0xA8}, "CPD": {0xED, 0xA9}, "IND": {0xED, 0xAA}, "OUTD": {0xED, 0xAB},
	"LDIR": {0xED, 0xB0}, "CPIR": {0xED, 0xB1}, "INIR": {0xED, 0xB2}, "OTIR": {0xED, 0xB3},
	"LDDR": {0xED, 0xB8}, "CPDR": {0xED, 0xB9}, "INDR": {0xED, 0xBA}, "OTDR": {0xED, 0xBB},
}

var aluBase = map[string]byte{"ADD": 0x80, "ADC": 0x88, "SUB": 0x90, "SBC": 0x98, "AND": 0xA0, "XOR": 0xA8, "OR": 0xB0, "CP": 0xB8}

var cbBase = map[string]byte{"RLC": 0x00, "RRC": 0x08, "RL": 0x10, "RR": 0x18, "SLA": 0x20, "SRA": 0x28, "SLL": 0x30, "SLI": 0x30, "SL1": 0x30, "SRL": 0x38}

var bitBase = map[string]byte{"BIT": 0x40, "RES": 0x80, "SET": 0xC0}

// mnemonics is the set of instruction words.
var mnemonics = func() map[string]bool {
	m := map[string]bool{}
	for k := range noOperand {
		m[k] = true
	}
	for k := range aluBase {
		m[k] = true
	}
	for k := range cbBase {
		m[k] = true
	}
	for k := range bitBase {
		m[k] = true
	}
	for _, k := range []string{"LD", "PUSH", "POP", "EX", "INC", "DEC", "JP", "JR", "DJNZ", "CALL", "RET", "RST", "IM", "IN", "OUT"} {
		m[k] = true
	}
	return m
}()

// encoder assembles one instruction into buf.
type encoder struct {
	a    *assembler
	buf  []byte
	err  *lexError
	pc   int64 // address of the instruction ($)
	mcol int   // column of the mnemonic
	warn string
}

func (c *encoder) fail(col int, msg string) {
	if c.err == nil {
		c.err = &lexError{col, msg}
	}
}

func (c *encoder) emit(b ...byte) { c.buf = append(c.buf, b...) }

// prefixed emits o's index prefix (DDh or FDh) when o names IX, IY or one of
// their halves, then b.
func (c *encoder) prefixed(o operand, b ...byte) {
	if o.pfx != 0 {
		c.emit(o.pfx)
	}
	c.emit(b...)
}

func (c *encoder) value(o operand) int64 {
	if c.err != nil {
		return 0
	}
	if o.e == nil {
		c.fail(o.col, "number expected")
		return 0
	}
	v, err := eval(o.e, c.a)
	if err != nil {
		c.err = err
		return 0
	}
	return v
}

// byteVal evaluates an 8-bit immediate: 0..255 or a negative -256..-1.
func (c *encoder) byteVal(o operand) byte {
	v := c.value(o)
	if v > 0xFF && v < 0xFF00 {
		c.fail(o.col, "value "+hex16(v)+" out of range for a byte")
	}
	return byte(v)
}

func (c *encoder) word(o operand) {
	v := c.value(o)
	c.emit(byte(v), byte(v>>8))
}

// disp evaluates an index displacement, which must fit a signed byte.
func (c *encoder) disp(o operand) byte {
	v := c.value(o)
	s := v
	if s >= 0x8000 {
		s -= 0x10000
	}
	if s < -128 || s > 127 {
		c.fail(o.col, "index offset "+itoa(s)+" out of range -128..127")
	}
	return byte(v)
}

func (c *encoder) bad(o operand) { c.fail(o.col, "invalid operand") }

// condAbs encodes JP cc,nn (base C2h) and CALL cc,nn (base C4h): the
// condition goes in bits 3-5, the 16-bit target follows.
func (c *encoder) condAbs(base byte, ops []operand) {
	cc, ok := condOf(ops[0])
	if !ok {
		c.fail(ops[0].col, "condition expected")
		return
	}
	if !c.imm(ops[1]) {
		c.bad(ops[1])
		return
	}
	c.emit(base | byte(cc)<<3)
	c.word(ops[1])
}

func isImm(o operand) bool { return o.kind == oImm || o.kind == oIndImm }

// imm accepts an immediate operand. "(nn)" where the instruction has no
// indirect form is taken as the value nn, as pasmo does, with a warning.
func (c *encoder) imm(o operand) bool {
	if o.kind == oIndImm && c.warn == "" {
		c.warn = "parentheses taken as an expression: this instruction has no (address) form"
	}
	return isImm(o)
}

// isR8 reports a register or (HL)/(IX+d) operand of the "r" field.
func isR8(o operand) bool { return o.kind == oReg8 || o.kind == oIndHL || o.kind == oIndIdx }

// r8 emits prefix+op with the r field set (at shift) and the displacement.
func (c *encoder) r8(o operand, op byte, shift uint, tail ...byte) {
	switch o.kind {
	case oReg8:
		c.prefixed(o, op|byte(o.reg)<<shift)
	case oIndHL:
		c.emit(op | 6<<shift)
	case oIndIdx:
		c.emit(o.pfx, op|6<<shift, c.disp(o))
	}
	c.emit(tail...)
}

func condOf(o operand) (int, bool) {
	if o.kind == oCond {
		return o.reg, true
	}
	if o.kind == oReg8 && o.pfx == 0 && o.reg == 1 {
		return 3, true
	}
	return 0, false
}

func (c *encoder) encode(mn string, ops []operand) {
	n := len(ops)
	if b, ok := noOperand[mn]; ok {
		if n != 0 {
			c.fail(ops[0].col, mn+" takes no operand")
			return
		}
		c.emit(b...)
		return
	}
	need := func(k ...int) bool {
		for _, x := range k {
			if n == x {
				return true
			}
		}
		if n == 0 {
			c.fail(c.mcol, mn+" needs an operand")
		} else {
			c.fail(ops[0].col, "wrong number of operands for "+mn)
		}
		return false
	}
	switch mn {
	case "LD":
		if need(2) {
			c.ld(ops[0], ops[1])
		}
	case "PUSH", "POP":
		if !need(1) {
			return
		}
		base := byte(0xC5)
		if mn == "POP" {
			base = 0xC1
		}
		switch o := ops[0]; {
		case o.kind == oReg16 && o.reg != 3:
			c.prefixed(o, base|byte(o.reg)<<4)
		case o.kind == oAF:
			c.emit(base | 0x30)
		default:
			c.bad(o)
		}
	case "EX":
		if !need(2) {
			return
		}
		d, s := ops[0], ops[1]
		switch {
		case d.kind == oReg16 && d.reg == 1 && s.kind == oReg16 && s.reg == 2 && s.pfx == 0:
			c.emit(0xEB)
		case d.kind == oAF && s.kind == oAFx:
			c.emit(0x08)
		case d.kind == oIndSP && s.kind == oReg16 && s.reg == 2:
			c.prefixed(s, 0xE3)
		default:
			c.bad(s)
		}
	case "ADD", "ADC", "SUB", "SBC", "AND", "XOR", "OR", "CP":
		if !need(1, 2) {
			return
		}
		if n == 2 && ops[0].kind == oReg16 {
			c.add16(mn, ops[0], ops[1])
			return
		}
		s := ops[0]
		if n == 2 {
			if d := ops[0]; d.kind != oReg8 || d.reg != 7 || d.pfx != 0 {
				c.bad(d)
				return
			}
			s = ops[1]
		}
		base := aluBase[mn]
		switch {
		case isR8(s):
			c.r8(s, base, 0)
		case c.imm(s):
			c.emit(base|0x46, c.byteVal(s))
		default:
			c.bad(s)
		}
	case "INC", "DEC":
		if !need(1) {
			return
		}
		o := ops[0]
		var d8, d16 byte = 0x04, 0x03
		if mn == "DEC" {
			d8, d16 = 0x05, 0x0B
		}
		switch {
		case isR8(o):
			c.r8(o, d8, 3)
		case o.kind == oReg16:
			c.prefixed(o, d16|byte(o.reg)<<4)
		default:
			c.bad(o)
		}
	case "RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SLI", "SL1", "SRL":
		if !need(1, 2) {
			return
		}
		c.cbOp(cbBase[mn], ops[0], ops[1:])
	case "BIT", "RES", "SET":
		if !need(2, 3) {
			return
		}
		b := c.value(ops[0])
		if b > 7 {
			c.fail(ops[0].col, "bit number must be 0..7")
			return
		}
		c.cbOp(bitBase[mn]|byte(b)<<3, ops[1], ops[2:])
	case "JP":
		if !need(1, 2) {
			return
		}
		if n == 1 {
			o := ops[0]
			switch {
			case o.kind == oIndHL || (o.kind == oReg16 && o.reg == 2 && o.pfx == 0):
				c.emit(0xE9)
			case (o.kind == oIndIdx && o.e.op == eNum && o.e.val == 0) || (o.kind == oReg16 && o.pfx != 0):
				c.emit(o.pfx, 0xE9)
			case c.imm(o):
				c.emit(0xC3)
				c.word(o)
			default:
				c.bad(o)
			}
			return
		}
		c.condAbs(0xC2, ops)
	case "CALL":
		if !need(1, 2) {
			return
		}
		if n == 1 {
			if !c.imm(ops[0]) {
				c.bad(ops[0])
				return
			}
			c.emit(0xCD)
			c.word(ops[0])
			return
		}
		c.condAbs(0xC4, ops)
	case "JR", "DJNZ":
		if mn == "DJNZ" && !need(1) || mn == "JR" && !need(1, 2) {
			return
		}
		op := byte(0x18)
		if mn == "DJNZ" {
			op = 0x10
		}
		t := ops[n-1]
		if n == 2 {
			cc, ok := condOf(ops[0])
			if !ok || cc > 3 {
				c.fail(ops[0].col, "JR condition must be NZ, Z, NC or C")
				return
			}
			op = 0x20 | byte(cc)<<3
		}
		if !c.imm(t) {
			c.bad(t)
			return
		}
		v := c.value(t)
		d := (v - (c.pc + 2)) & 0xFFFF
		if d >= 0x8000 {
			d -= 0x10000
		}
		if c.err == nil && (d < -128 || d > 127) {
			c.fail(t.col, "relative jump out of range ("+itoa(d)+" bytes, limit -128..127)")
		}
		c.emit(op, byte(d))
	case "RET":
		if n == 0 {
			c.emit(0xC9)
			return
		}
		if !need(1) {
			return
		}
		cc, ok := condOf(ops[0])
		if !ok {
			c.fail(ops[0].col, "condition expected")
			return
		}
		c.emit(0xC0 | byte(cc)<<3)
	case "RST":
		if !need(1) {
			return
		}
		v := c.value(ops[0])
		if c.err == nil && (v&^0x38 != 0) {
			c.fail(ops[0].col, "RST address must be 0, 8, 10h, ... 38h")
			return
		}
		c.emit(0xC7 | byte(v))
	case "IM":
		if !need(1) {
			return
		}
		v := c.value(ops[0])
		codes := map[int64]byte{0: 0x46, 1: 0x56, 2: 0x5E}
		b, ok := codes[v]
		if c.err == nil && !ok {
			c.fail(ops[0].col, "interrupt mode must be 0, 1 or 2")
			return
		}
		c.emit(0xED, b)
	case "IN":
		if !need(1, 2) {
			return
		}
		if n == 1 {
			if ops[0].kind != oIndC {
				c.bad(ops[0])
				return
			}
			c.emit(0xED, 0x70)
			return
		}
		d, s := ops[0], ops[1]
		switch {
		case s.kind == oIndC && d.kind == oReg8 && d.pfx == 0:
			c.emit(0xED, 0x40|byte(d.reg)<<3)
		case s.kind == oIndC && d.kind == oF:
			c.emit(0xED, 0x70)
		case s.kind == oIndImm && d.kind == oReg8 && d.reg == 7 && d.pfx == 0:
			c.emit(0xDB, c.byteVal(s))
		default:
			c.bad(s)
		}
	case "OUT":
		if !need(2) {
			return
		}
		d, s := ops[0], ops[1]
		switch {
		case d.kind == oIndC && s.kind == oReg8 && s.pfx == 0:
			c.emit(0xED, 0x41|byte(s.reg)<<3)
		case d.kind == oIndC && s.kind == oImm:
			if v := c.value(s); c.err == nil && v != 0 {
				c.fail(s.col, "OUT (C) takes a register or 0")
				return
			}
			c.emit(0xED, 0x71)
		case d.kind == oIndImm && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
			c.emit(0xD3, c.byteVal(d))
		default:
			c.bad(s)
		}
	default:
		c.fail(c.mcol, "unknown instruction "+mn)
	}
}

// cbOp encodes the CB-prefixed rotate, shift and bit group, including the
// undocumented "op (IX+d),r" forms that also copy the result into r.
func (c *encoder) cbOp(op byte, o operand, extra []operand) {
	if len(extra) > 0 {
		r := extra[0]
		if o.kind != oIndIdx || r.kind != oReg8 || r.pfx != 0 {
			c.bad(r)
			return
		}
		c.emit(o.pfx, 0xCB, c.disp(o), op|byte(r.reg))
		return
	}
	switch {
	case o.kind == oReg8 && o.pfx == 0:
		c.emit(0xCB, op|byte(o.reg))
	case o.kind == oIndHL:
		c.emit(0xCB, op|6)
	case o.kind == oIndIdx:
		c.emit(o.pfx, 0xCB, c.disp(o), op|6)
	default:
		c.bad(o)
	}
}

func (c *encoder) add16(mn string, d, s operand) {
	if d.reg != 2 {
		c.bad(d)
		return
	}
	if s.kind != oReg16 {
		c.bad(s)
		return
	}
	// The source HL position means IX/IY when the destination is indexed.
	if s.reg == 2 && s.pfx != d.pfx {
		c.bad(s)
		return
	}
	switch mn {
	case "ADD":
		c.prefixed(d, 0x09|byte(s.reg)<<4)
	case "ADC", "SBC":
		if d.pfx != 0 {
			c.bad(d)
			return
		}
		base := byte(0x4A)
		if mn == "SBC" {
			base = 0x42
		}
		c.emit(0xED, base|byte(s.reg)<<4)
	default:
		c.bad(d)
	}
}

func (c *encoder) ld(d, s operand) {
	switch {
	case d.kind == oReg8 && s.kind == oReg8:
		if d.pfx != 0 && s.pfx != 0 && d.pfx != s.pfx {
			c.bad(s)
			return
		}
		// With a prefix, H and L mean IXH/IXL, so plain H/L cannot mix with them.
		if (d.pfx != 0 && s.pfx == 0 && (s.reg == 4 || s.reg == 5)) ||
			(s.pfx != 0 && d.pfx == 0 && (d.reg == 4 || d.reg == 5)) {
			c.bad(s)
			return
		}
		p := d.pfx | s.pfx
		if p != 0 {
			c.emit(p)
		}
		c.emit(0x40 | byte(d.reg)<<3 | byte(s.reg))
	case d.kind == oReg8 && d.reg == 7 && d.pfx == 0 && s.kind == oRegI:
		c.emit(0xED, 0x57)
	case d.kind == oReg8 && d.reg == 7 && d.pfx == 0 && s.kind == oRegR:
		c.emit(0xED, 0x5F)
	case d.kind == oRegI && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
		c.emit(0xED, 0x47)
	case d.kind == oRegR && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
		c.emit(0xED, 0x4F)
	case d.kind == oReg8 && d.pfx == 0 && (s.kind == oIndHL || s.kind == oIndIdx):
		c.r8(s, 0x40|byte(d.reg)<<3, 0)
	case (d.kind == oIndHL || d.kind == oIndIdx) && s.kind == oReg8:
		if s.pfx != 0 {
			c.bad(s)
			return
		}
		c.r8(d, 0x70|byte(s.reg), 3) // bits 3-5 of 70h+r already hold 6
	case d.kind == oReg8 && d.reg == 7 && d.pfx == 0 && s.kind == oIndBC:
		c.emit(0x0A)
	case d.kind == oReg8 && d.reg == 7 && d.pfx == 0 && s.kind == oIndDE:
		c.emit(0x1A)
	case d.kind == oReg8 && d.reg == 7 && d.pfx == 0 && s.kind == oIndImm:
		c.emit(0x3A)
		c.word(s)
	case d.kind == oIndBC && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
		c.emit(0x02)
	case d.kind == oIndDE && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
		c.emit(0x12)
	case d.kind == oIndImm && s.kind == oReg8 && s.reg == 7 && s.pfx == 0:
		c.emit(0x32)
		c.word(d)
	case d.kind == oReg8 && c.imm(s):
		c.prefixed(d, 0x06|byte(d.reg)<<3, c.byteVal(s))
	case d.kind == oIndHL && c.imm(s):
		c.emit(0x36, c.byteVal(s))
	case d.kind == oIndIdx && c.imm(s):
		dd := c.disp(d)
		c.emit(d.pfx, 0x36, dd, c.byteVal(s))
	case d.kind == oReg16 && d.reg == 3 && s.kind == oReg16 && s.reg == 2:
		c.prefixed(s, 0xF9)
	case d.kind == oReg16 && s.kind == oIndImm:
		switch {
		case d.reg == 2:
			c.prefixed(d, 0x2A)
		default:
			c.emit(0xED, 0x4B|byte(d.reg)<<4)
		}
		c.word(s)
	case d.kind == oReg16 && s.kind == oImm:
		c.prefixed(d, 0x01|byte(d.reg)<<4)
		c.word(s)
	case d.kind == oIndImm && s.kind == oReg16:
		switch {
		case s.reg == 2:
			c.prefixed(s, 0x22)
		default:
			c.emit(0xED, 0x43|byte(s.reg)<<4)
		}
		c.word(d)
	case d.kind == oImm || d.kind == oCond || d.kind == oF:
		c.bad(d)
	default:
		c.bad(s)
	}
}
