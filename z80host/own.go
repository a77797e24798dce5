package z80host

// Instructions z80host executes itself rather than through koron, and the
// interrupt acknowledge sequences.

var sz53p [256]uint8 // S, Z, 5, 3 and P/V (even parity) of a byte

func init() {
	for i := range sz53p {
		v := uint8(i)
		f := v & 0xa8
		if v == 0 {
			f |= 0x40
		}
		p := v ^ v>>4
		p ^= p >> 2
		p ^= p >> 1
		if p&1 == 0 {
			f |= 0x04
		}
		sz53p[i] = f
	}
}

// in performs the next cycle of the instruction as an I/O read.
func (c *CPU) in(port uint16) uint8 {
	v, w := c.bus.In(port, c.next())
	if w > 0 {
		c.waits += uint64(w)
	}
	if c.spin != nil && c.spin.recording {
		c.spinRecorded(v, w)
	}
	return v
}

// out performs the next cycle of the instruction as an I/O write.
func (c *CPU) out(port uint16, v uint8) {
	if w := c.bus.Out(port, v, c.next()); w > 0 {
		c.waits += uint64(w)
	}
}

// own executes instruction kind o; the opcode and prefix bytes have been
// fetched (c.idx = c.npre) and info describes it.
func (c *CPU) own(o uint8, h *hot, pc uint16, r uint8) {
	k := &c.k
	k.IR.Lo = r&0x80 | (r+h.m1)&0x7f
	op := c.buf[c.npre-1]
	k.PC = pc + uint16(h.lenF&^setsF)
	T := h.t
	switch o {
	case oHALT:
		c.sig |= sigHalted
	case oEI:
		k.IFF1, k.IFF2 = true, true
		c.sig |= sigEI
	case oNOP:
	case oINn:
		n := c.read(pc+1, c.next())
		port := uint16(k.AF.Hi)<<8 | uint16(n)
		k.AF.Hi = c.in(port)
		c.memptr = port + 1
	case oOUTn:
		n := c.read(pc+1, c.next())
		a := k.AF.Hi
		c.out(uint16(a)<<8|uint16(n), a)
		c.memptr = uint16(a)<<8 | uint16(n+1)
	case oINC:
		bc := k.BC.U16()
		v := c.in(bc)
		c.setReg((op>>3)&7, v) // IN F,(C) (r = 6) sets flags only
		k.AF.Lo = k.AF.Lo&0x01 | sz53p[v]
		c.memptr = bc + 1
	case oOUTC:
		bc := k.BC.U16()
		c.out(bc, c.reg((op>>3)&7)) // OUT (C),0 for r = 6 (NMOS)
		c.memptr = bc + 1
	case oINI:
		dec := op&0x08 != 0
		bc := k.BC.U16()
		v := c.in(bc) // B before the decrement on A15-A8
		k.BC.Hi--
		hl := k.HL.U16()
		c.write(hl, v, c.next())
		cAdj := k.BC.Lo + 1
		if dec {
			k.HL.SetU16(hl - 1)
			c.memptr = bc - 1
			cAdj = k.BC.Lo - 1
		} else {
			k.HL.SetU16(hl + 1)
			c.memptr = bc + 1
		}
		c.blockIOFlags(v, uint16(v)+uint16(cAdj))
		T = c.blockIORepeat(op, h, pc, v)
	case oOUTI:
		dec := op&0x08 != 0
		hl := k.HL.U16()
		v := c.read(hl, c.next())
		k.BC.Hi--
		bc := k.BC.U16()
		c.out(bc, v) // B after the decrement on A15-A8
		if dec {
			k.HL.SetU16(hl - 1)
			c.memptr = bc - 1
		} else {
			k.HL.SetU16(hl + 1)
			c.memptr = bc + 1
		}
		c.blockIOFlags(v, uint16(v)+uint16(k.HL.Lo))
		T = c.blockIORepeat(op, h, pc, v)
	}
	c.t = c.t0 + uint64(T) + c.waits
	c.waits = 0 // only I/O cycles wait; Run's fast paths rely on it being 0
	c.q = 0
	if h.lenF&setsF != 0 {
		c.q = k.AF.Lo
	}
}

// blockIOFlags sets the flags of INI/IND/OUTI/OUTD [F Young] (docs/HARDWARE.md
// 2.2): S, Z, 5, 3 from B; N = bit 7 of the data; H = C = carry out of the
// 8-bit sum s; P = parity((s & 7) ^ B).
func (c *CPU) blockIOFlags(v uint8, s uint16) {
	k := &c.k
	b := k.BC.Hi
	f := sz53p[b] &^ 0x04
	f |= (v >> 6) & 0x02
	if s > 0xff {
		f |= 0x11
	}
	f |= sz53p[uint8(s)&7^b] & 0x04
	k.AF.Lo = f
}

// blockIORepeat applies the repeat of INIR/INDR/OTIR/OTDR and returns the
// instruction's T-states. v is the byte transferred. While the instruction
// repeats, its extra 5 T change F as the 2018 analysis of interrupted
// block instructions found (docs/HARDWARE.md 2.4): flags 5 and 3 from PC (as for
// LDIR), and the ALU pass that decrements PC also adjusts B by the sign of
// the transfer when there was a carry, which sets H from B's low nibble and
// folds the parity of the adjusted B's low 3 bits into P/V. MEMPTR becomes
// PC+1.
func (c *CPU) blockIORepeat(op uint8, h *hot, pc uint16, v uint8) uint8 {
	k := &c.k
	if op&0x10 == 0 {
		return h.t
	}
	b := k.BC.Hi
	if b == 0 {
		return h.tAlt
	}
	k.PC = pc
	c.memptr = pc + 1
	f := k.AF.Lo&^0x28 | uint8(pc>>8)&0x28
	adj := b // the ALU's view of B: B, or B -/+ 1 after a carry
	if f&0x01 != 0 {
		f &^= 0x10
		if v&0x80 != 0 {
			adj = b - 1
			if b&0x0f == 0x00 {
				f |= 0x10
			}
		} else {
			adj = b + 1
			if b&0x0f == 0x0f {
				f |= 0x10
			}
		}
	}
	// P/V becomes P/V XNOR (even parity of adj's low 3 bits).
	if sz53p[adj&7]&0x04 == 0 {
		f ^= 0x04
	}
	k.AF.Lo = f
	return h.t
}

// push stores v at SP-1 (high byte, cycle at t) and SP-2 (low byte, t+3).
func (c *CPU) push(v uint16, t uint64) {
	k := &c.k
	c.write(k.SP-1, uint8(v>>8), t)
	c.write(k.SP-2, uint8(v), t+3)
	k.SP -= 2
}

// interrupt acknowledges an NMI or a maskable interrupt (docs/HARDWARE.md 2.2):
// NMI 11 T (5,3,3) to 0066h; IM 0 with RST 13 T (7,3,3); IM 1 13 T (7,3,3)
// to 0038h; IM 2 19 T (7,3,3,3,3) through the table at I*256 + the bus byte.
// The INTA cycle is an M1 cycle with two automatic wait states; R advances.
func (c *CPU) interrupt(nmi bool) {
	k := &c.k
	t0 := c.t
	c.t0, c.waits = t0, 0
	pc := k.PC
	c.sig &^= sigHalted
	if c.sig&sigLDAIR != 0 {
		// NMOS: an interrupt accepted right after LD A,I / LD A,R finds
		// IFF2 already cleared when P/V is written [F Young].
		c.sig &^= sigLDAIR
		k.AF.Lo &^= 0x04
	}
	k.IR.Lo = k.IR.Lo&0x80 | (k.IR.Lo+1)&0x7f
	c.q = 0
	if nmi {
		c.sig &^= sigNMI
		c.fetch(pc, t0) // an M1 cycle whose opcode is ignored
		k.IFF1 = false
		c.push(pc, t0+5)
		k.PC = 0x0066
		c.memptr = k.PC
		c.t = t0 + 11
		return
	}
	k.IFF1, k.IFF2 = false, false
	v := uint8(0xff) // nothing drives the bus: pull-ups
	if c.ack != nil {
		v = c.ack.Acknowledge(t0)
	}
	switch k.IM {
	case 2:
		c.push(pc, t0+7)
		a := uint16(k.IR.Hi)<<8 | uint16(v)
		lo := c.read(a, t0+13)
		hi := c.read(a+1, t0+16)
		k.PC = uint16(hi)<<8 | uint16(lo)
		c.t = t0 + 19
	case 1:
		c.push(pc, t0+7)
		k.PC = 0x0038
		c.t = t0 + 13
	default:
		if v&0xc7 == 0xc7 { // RST p
			c.push(pc, t0+7)
			k.PC = uint16(v & 0x38)
			c.t = t0 + 13
			break
		}
		// Another opcode on the bus: execute it as fetched by the INTA
		// cycle, which is 2 T longer than a normal M1 cycle; unprefixed
		// ones koron runs get z80host's usual completion (conditions,
		// MEMPTR, SCF/CCF, Q).
		k.PC = pc - 1
		r := k.IR.Lo
		if path[v] != pathFull {
			c.execBase(pc-1, t0+2, v)
			k.IR.Lo = r
			return
		}
		h := &hots[hBase+int(v)]
		c.t0, c.hi, c.npre, c.idx = t0+2, hBase+int(v), 1, 0
		c.buf[0] = v
		k.Step()
		k.IR.Lo = r
		c.t = t0 + 2 + uint64(h.t) + c.waits
		c.q = 0
		return
	}
	c.memptr = k.PC
}
