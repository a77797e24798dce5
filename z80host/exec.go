package z80host

import "github.com/lbplus/lbplus/z80host/optable"

var noPages [256]*[256]byte

// Run executes whole instructions while T() < limit (SetLimit may lower the
// limit meanwhile). It returns true if the Hook stopped it.
func (c *CPU) Run(limit uint64) (stopped bool) {
	c.limit = limit
	hook := c.Hook
	// koron's Memory is runMem while Run's fast paths run and mem
	// (which serves prefetched bytes and keeps what koron reads) otherwise.
	c.k.Memory, c.inRun = c.runMem, true
	for c.t < c.limit {
		if hook != nil && hook.BeforeInstruction(c.k.PC, c.t) {
			c.k.Memory, c.inRun = (*mem)(c), false
			return true
		}
		if c.sig == 0 {
			if c.noBus && hook == nil {
				c.runNoBus()
				if c.t >= c.limit {
					break
				}
			}
			pc, t0 := c.k.PC, c.t
			if p := c.rpage[pc>>8]; p != nil {
				b0 := p[uint8(pc)]
				switch path[b0] {
				// The paths without a Bus fetch or a byte to substitute,
				// through plainMem (see quickKind).
				case pathPlain:
					h := &hots[b0]
					c.t0, c.hi, c.idx = t0, int(b0), 0
					c.k.Step()
					c.t = t0 + uint64(h.t)
					// The access count is not checked against the cycle
					// table here (pagedMem keeps none); Step's paths and
					// every Bus access check it.
					c.q = c.k.AF.Lo & uint8(int8(h.lenF)>>7)
					continue
				case pathBase:
					if kind := quickKind[b0]; kind != qNone {
						h := &hots[b0]
						hl := c.k.HL.U16() // for ADD HL,rr's MEMPTR
						c.t0, c.hi, c.idx = t0, int(b0), 0
						c.k.Step()
						T := h.t
						switch kind {
						case qJump:
							c.memptr = c.k.PC
						case qNN:
							// JP writes nothing: nn is as koron read it.
							c.memptr = c.fetched16(pc)
						case qCond:
							// JR/CALL/RET cc leave F as they found it.
							if c.cond(b0) {
								c.memptr = c.k.PC
							} else {
								T = h.tAlt
								if b0&7 != 0 { // CALL cc: no push, nn intact
									c.memptr = c.fetched16(pc)
								}
							}
						case qDJNZ:
							if c.k.BC.Hi == 0 {
								T = h.tAlt
							} else {
								c.memptr = c.k.PC
							}
						case qAdd16:
							c.memptr = hl + 1
						}
						c.t = t0 + uint64(T)
						c.q = c.k.AF.Lo & uint8(int8(h.lenF)>>7)
						continue
					}
				}
				if c.prefixed(pc, t0, p, b0) {
					continue
				}
				if (b0 == 0xdb || b0 == 0xed) && c.spin != nil && hook == nil && c.spinIn(pc, b0) {
					continue // replayed iterations of the loop an IN heads
				}
				c.k.Memory, c.inRun = (*mem)(c), false
				if path[b0] == pathBase {
					c.execBase(pc, t0, b0)
				} else {
					c.execFull(pc, t0, b0)
				}
				c.k.Memory, c.inRun = c.runMem, true
				continue
			}
			c.k.Memory, c.inRun = (*mem)(c), false
			c.exec()
			c.k.Memory, c.inRun = c.runMem, true
			continue
		}
		if c.sig&(sigHalted|sigNMI) == sigHalted && (c.sig&sigINT == 0 || !c.k.IFF1) {
			// Idle M1 cycles until the limit: nothing on the bus changes.
			n := (c.limit - c.t + 3) / 4
			c.t += 4 * n
			c.q = 0 // as Step's halted cycles
			c.sig &^= sigEI
			r := c.k.IR.Lo
			c.k.IR.Lo = r&0x80 | (r+uint8(n))&0x7f
			continue
		}
		c.k.Memory, c.inRun = (*mem)(c), false
		c.Step()
		c.k.Memory, c.inRun = c.runMem, true
	}
	c.k.Memory, c.inRun = (*mem)(c), false
	return false
}

// prefixed runs a CB, ED, DD or FD instruction at pc (prefix b0, read
// from page p) through koron with plainMem when z80host's part is one of
// the common cheap ones (quickKind): nothing, an ADD/ADC/SBC's or an
// indexed access's MEMPTR, a repeating block move. The bytes z80host must
// decode before koron runs (the second opcode byte, an index displacement)
// must be on a page. It reports false, having changed nothing, otherwise;
// execFull handles every instruction. For the instructions it takes,
// koron's R count is the Z80's (the sweep tests compare Run with Step,
// which repairs R).
func (c *CPU) prefixed(pc uint16, t0 uint64, p *[256]byte, b0 uint8) bool {
	k := &c.k
	pre := prefixTable[b0]
	if pre == 0 {
		return false
	}
	if pc&0xff == 0xff {
		if p = c.rpage[(pc+1)>>8]; p == nil {
			return false
		}
	}
	hi := int(pre)<<8 | int(p[uint8(pc+1)])
	kind := quickKind[hi]
	if kind == qNone {
		return false
	}
	var rr uint16 // the register MEMPTR is derived from, before koron runs
	var d uint8
	switch b0 {
	case 0xdd:
		rr = k.IX
	case 0xfd:
		rr = k.IY
	default:
		rr = k.HL.U16()
	}
	if kind == qIXd {
		if pc&0xff >= 0xfe {
			if p = c.rpage[(pc+2)>>8]; p == nil {
				return false
			}
		}
		d = p[uint8(pc+2)]
	}
	h := &hots[hi]
	c.t0, c.hi, c.idx = t0, hi, 0 // c.waits is 0: no I/O here
	k.Step()
	T := h.t
	switch kind {
	case qAdd16:
		c.memptr = rr + 1
	case qIXd:
		c.memptr = rr + uint16(int8(d))
	case qLDxR:
		if k.PC != pc {
			T = h.tAlt
		} else {
			c.memptr = pc + 1
			c.repeatXY(pc)
		}
	}
	c.t = t0 + uint64(T)
	c.q = k.AF.Lo & uint8(int8(h.lenF)>>7)
	return true
}

// prefixTable maps a prefix opcode to its table in hots (in units of 256).
var prefixTable = [256]uint8{0xcb: hCB >> 8, 0xed: hED >> 8, 0xdd: hXY >> 8, 0xfd: hXY >> 8}

// fetched16 is the operand nn of the unprefixed instruction at pc, as
// koron read it: each byte from its page, or from the buffer getBus kept if
// it came from the Bus. Only for instructions whose writes cannot have
// changed it.
func (c *CPU) fetched16(pc uint16) uint16 {
	return uint16(c.fetched(1, pc+1)) | uint16(c.fetched(2, pc+2))<<8
}

func (c *CPU) fetched(i int, a uint16) uint8 {
	if p := c.rpage[a>>8]; p != nil {
		return p[uint8(a)]
	}
	return c.buf[i&7]
}

// Kinds of instruction quick runs (quickKind, by hots index).
const (
	qNone  = iota // not quick: execBase or execFull
	qPlain        // nothing to complete
	qJump         // JR e, CALL nn, RET, RST p: MEMPTR = new PC
	qNN           // JP nn, JP cc,nn: MEMPTR = nn, taken or not
	qCond         // JR/CALL/RET cc (the ones whose T-states depend on it)
	qDJNZ         //
	qAdd16        // ADD HL|IX|IY,rr, ADC/SBC HL,rr: MEMPTR = old value + 1
	qIXd          // an (IX+d)/(IY+d) access: MEMPTR = IX+d
	qLDxR         // LDI, LDD, LDIR, LDDR
)

var quickKind [len(hots)]uint8

// buildQuick picks the instructions quick may run: those koron executes
// exactly, with no byte substituted for it (undocumented ED duplicates,
// DDCB) and none z80host executes itself.
func buildQuick() {
	for i := 0; i < 256; i++ {
		base, cb, ed, xy := &hots[hBase+i], &hots[hCB+i], &hots[hED+i], &hots[hXY+i]
		switch {
		case i == 0xcb || i == 0xed || i == 0xdd || i == 0xfd || base.post >= oFirst:
		case base.cond == optable.Flag:
			quickKind[hBase+i] = qCond
		case base.cond == optable.DJNZ:
			quickKind[hBase+i] = qDJNZ
		case base.post == pNN && i != 0xcd: // JP nn, JP cc,nn (10 T either way)
			quickKind[hBase+i] = qNN
		case base.post == pJump || base.post == pNN: // JR e, RET, RST p, CALL nn
			quickKind[hBase+i] = qJump
		case base.post == pAdd16:
			quickKind[hBase+i] = qAdd16
		case base.post == pNone:
			quickKind[hBase+i] = qPlain
		}
		if cb.post == pNone {
			quickKind[hCB+i] = qPlain
		}
		if edSub[i] == uint8(i) {
			switch {
			case ed.post == pNone && ed.cond == optable.Always:
				quickKind[hED+i] = qPlain
			case ed.post == pAdd16:
				quickKind[hED+i] = qAdd16
			case ed.post == pLDxR && ed.cond == optable.Repeat: // LDIR, LDDR
				quickKind[hED+i] = qLDxR
			case ed.post == pLDxR: // LDI, LDD: MEMPTR only while repeating
				quickKind[hED+i] = qPlain
			}
		}
		if optable.XYIndexed[i] && i != 0xcb && xy.cond == optable.Always {
			switch xy.post {
			case pNone:
				quickKind[hXY+i] = qPlain
			case pAdd16:
				quickKind[hXY+i] = qAdd16
			case pIXd:
				quickKind[hXY+i] = qIXd
			}
		}
	}
}

// Step executes one instruction, one interrupt acknowledge or (while halted)
// one 4 T idle M1 cycle, and returns the T-states it took.
func (c *CPU) Step() int {
	t := c.t
	switch {
	case c.sig&sigNMI != 0:
		c.sig &^= sigEI
		c.interrupt(true)
	case c.sig&(sigINT|sigEI) == sigINT && c.k.IFF1:
		c.interrupt(false)
	case c.sig&sigHalted != 0:
		c.sig &^= sigEI
		c.q = 0
		c.fetch(c.k.PC, c.t)
		c.t += 4
		r := c.k.IR.Lo
		c.k.IR.Lo = r&0x80 | (r+1)&0x7f
	default:
		c.sig &^= sigEI | sigLDAIR
		c.exec()
	}
	return int(c.t - t)
}

// fetch, read and write take the page table fast path inline and call
// the Bus otherwise.
func (c *CPU) fetch(a uint16, t uint64) uint8 {
	p := c.rpage[a>>8]
	if p == nil {
		return c.busFetch(a, t)
	}
	return p[uint8(a)]
}

func (c *CPU) busFetch(a uint16, t uint64) uint8 { return c.bus.Fetch(a, t) }

func (c *CPU) read(a uint16, t uint64) uint8 {
	p := c.rpage[a>>8]
	if p == nil {
		return c.busRead(a, t)
	}
	return p[uint8(a)]
}

func (c *CPU) busRead(a uint16, t uint64) uint8 { return c.bus.Read(a, t) }

func (c *CPU) write(a uint16, v uint8, t uint64) {
	p := c.wpage[a>>8]
	if p == nil {
		c.busWrite(a, v, t)
		return
	}
	p[uint8(a)] = v
}

func (c *CPU) busWrite(a uint16, v uint8, t uint64) { c.bus.Write(a, v, t) }

// next returns the start of the next machine cycle of the current
// instruction and advances to the one after.
func (c *CPU) next() uint64 {
	i := c.idx
	c.idx++
	if h := &hots[c.hi]; i < int(h.n) {
		return c.t0 + c.waits + uint64(h.start[i])
	}
	c.Mismatches++
	return c.t0 + c.waits
}

// Get serves koron's memory reads: the prefetched opcode bytes from the
// buffer, later reads from a page directly (no time needed) or from the bus
// at their cycle's time.
func (m *mem) Get(a uint16) uint8 {
	c := (*CPU)(m)
	i := c.idx
	c.idx = i + 1
	if i < c.npre {
		return c.buf[i]
	}
	if p := c.rpage[a>>8]; p != nil {
		v := p[uint8(a)]
		c.buf[i&7] = v
		return v
	}
	return c.getBus(a, i)
}

// plainMem is the CPU seen as koron's Memory while an execPlain instruction
// runs: its opcode came from a page, so koron's re-read of it can come
// from the page too, and nothing after koron needs the bytes it read. A
// read that hits a page is then only counted (the count says which cycle a
// later Bus access is); the prefetch buffer is skipped.
type plainMem CPU

func (m *plainMem) Get(a uint16) uint8 {
	c := (*CPU)(m)
	i := c.idx
	c.idx = i + 1
	if p := c.rpage[a>>8]; p != nil {
		return p[uint8(a)]
	}
	return c.getBus(a, i)
}

// Set serves a write to a page directly (no time needed), otherwise to
// the Bus at its cycle's time (setSlow); mem.Set adds keeping the byte.
func (m *plainMem) Set(a uint16, v uint8) {
	c := (*CPU)(m)
	if p := c.wpage[a>>8]; p != nil && !c.holding {
		c.idx++
		c.heldA = a // a bus write that completes a HiFirst pair needs it
		p[uint8(a)] = v
		return
	}
	c.setSlow(a, v, c.idx)
}

// readFlatMem is plainMem when every read page is one array's but some
// write page is not (a watched write, such as a harness waiting for a
// program's result byte): a read is only counted, without the page
// lookup; a write is plainMem's.
type readFlatMem CPU

func (m *readFlatMem) Get(a uint16) uint8 {
	m.idx++
	return m.flat[a]
}

func (m *readFlatMem) Set(a uint16, v uint8) { (*plainMem)(m).Set(a, v) }

// getBus is a read that needs a timestamp: cycle i of the instruction.
func (c *CPU) getBus(a uint16, i int) uint8 {
	h := &hots[c.hi]
	if h.read>>i&1 == 0 {
		c.Mismatches++
	}
	v := c.bus.Read(a, c.cycle(i))
	c.buf[i&7] = v
	return v
}

// cycle returns the start of machine cycle i of the current instruction.
func (c *CPU) cycle(i int) uint64 {
	if h := &hots[c.hi]; i < int(h.n) {
		return c.t0 + c.waits + uint64(h.start[i])
	}
	c.Mismatches++
	return c.t0 + c.waits
}

// Set serves koron's memory writes: to a page directly (no time needed),
// otherwise to the bus at the cycle's time. The Z80 pushes the high byte
// first; koron's order varies by instruction, so the first write of a
// HiFirst pair that goes to the bus is held until the second arrives and
// the two are issued in address order (higher first), each at its own
// cycle's time.
func (m *mem) Set(a uint16, v uint8) {
	m.lastW = v // for DDCB's register copy
	(*plainMem)(m).Set(a, v)
}

// setSlow is a write that needs a timestamp (or completes a held pair):
// cycle i of the instruction.
func (c *CPU) setSlow(a uint16, v uint8, i int) {
	h := &hots[c.hi]
	if i >= int(h.n) {
		c.write(a, v, c.next())
		return
	}
	if h.write>>i&1 == 0 {
		c.Mismatches++
	}
	if h.hiFirst>>i&1 != 0 {
		c.idx++
		c.heldA, c.heldV, c.holding = a, v, true
		return
	}
	t := c.next()
	if c.holding {
		// The higher address is written first, whichever order koron used.
		c.holding = false
		t1 := c.t0 + c.waits + uint64(h.start[i-1])
		if a == c.heldA+1 {
			c.write(a, v, t1)
			c.write(c.heldA, c.heldV, t)
		} else {
			c.write(c.heldA, c.heldV, t1)
			c.write(a, v, t)
		}
		return
	}
	if i > 0 && h.hiFirst>>(i-1)&1 != 0 && a == c.heldA+1 {
		// The pair's other byte went to a page; this one is the higher
		// address, which the Z80 writes in the earlier cycle.
		t = c.t0 + c.waits + uint64(h.start[i-1])
	}
	c.write(a, v, t)
}

// exec runs one instruction at PC.
func (c *CPU) exec() {
	k := &c.k
	pc := k.PC
	t0 := c.t
	var b0 uint8
	if p := c.rpage[pc>>8]; p != nil { // fetch, inlined by hand
		b0 = p[uint8(pc)]
	} else {
		b0 = c.bus.Fetch(pc, t0)
	}
	switch path[b0] {
	case pathPlain:
		c.execPlain(b0, t0)
	case pathBase:
		c.execBase(pc, t0, b0)
	default:
		c.execFull(pc, t0, b0)
	}
}

// execBase runs an unprefixed instruction that koron executes and
// z80host completes (a condition, MEMPTR, a flag fix-up); koron's own M1
// fetch advances R by one, as the Z80 does.
func (c *CPU) execBase(pc uint16, t0 uint64, b0 uint8) {
	k := &c.k
	h := &hots[b0]
	post := h.post
	c.buf[0] = b0
	c.t0, c.waits, c.hi, c.npre, c.idx = t0, 0, int(b0), 1, 0
	hl := c.before(post)
	k.Step()
	T, taken := c.tstates(h, b0, pc)
	c.t = t0 + uint64(T) + c.waits
	if post != pNone {
		c.post(post, taken, 1, pc, hl, 0)
	}
	c.q = k.AF.Lo & uint8(int8(h.lenF)>>7)
}

// execPlain is the common path: an unprefixed instruction (opcode b0,
// starting at T-state t0) that koron executes exactly, with one count of
// T-states and nothing to correct (koron's own M1 fetch advances R by one,
// as the Z80 does). Its only bookkeeping is what a Bus access would need
// for its timestamp.
func (c *CPU) execPlain(b0 uint8, t0 uint64) {
	h := &hots[b0]
	c.buf[0] = b0
	c.t0, c.waits, c.hi, c.npre, c.idx = t0, 0, int(b0), 1, 0
	c.k.Step()
	c.t = t0 + uint64(h.t) + c.waits
	c.q = c.k.AF.Lo & uint8(int8(h.lenF)>>7) // F if it computes flags, else 0
	if c.idx != int(h.n) {
		c.Mismatches++
	}
}

// execFull runs any instruction; b0 is the byte at pc, already fetched.
func (c *CPU) execFull(pc uint16, t0 uint64, b0 uint8) {
	k := &c.k
	r := k.IR.Lo
	var (
		hi   int
		npre = 1
		xy   uint16
	)
	for {
		c.buf[0] = b0
		switch b0 {
		case 0xcb:
			b1 := c.fetch(pc+1, t0+4)
			c.buf[1] = b1
			hi, npre = hCB+int(b1), 2
		case 0xed:
			b1 := c.fetch(pc+1, t0+4)
			if b1 == 0x4d && c.ack != nil {
				c.ack.RETI(t0 + 4)
			}
			c.buf[1] = edSub[b1]
			hi, npre = hED+int(b1), 2
		case 0xdd, 0xfd:
			b1 := c.fetch(pc+1, t0+4)
			xy = k.IX
			if b0 == 0xfd {
				xy = k.IY
			}
			if b1 == 0xcb {
				d := c.read(pc+2, t0+8)
				op := c.read(pc+3, t0+11)
				c.buf[1], c.buf[2], c.buf[3] = 0xcb, d, op&^7|6
				c.xyop = op
				hi, npre = hXYCB+int(op), 4
			} else if optable.XYIndexed[b1] {
				c.buf[1] = b1
				hi, npre = hXY+int(b1), 2
			} else {
				// The prefix alone: a 4 T no-op; the next byte is an
				// opcode. It computes no flags, so it clears Q, which
				// DD/FD SCF and CCF show (docs/HARDWARE.md 2.4).
				c.q = 0
				pc++
				t0 += 4
				r = r&0x80 | (r+1)&0x7f
				b0 = b1
				continue
			}
		default:
			hi = int(b0)
		}
		break
	}
	h := &hots[hi]
	post := h.post
	c.t0, c.waits, c.hi, c.npre = t0, 0, hi, npre
	if post >= oFirst {
		c.idx = npre
		c.own(post, h, pc, r)
		return
	}
	hl := c.before(post)
	c.idx = 0
	k.PC = pc
	k.IR.Lo = r
	k.Step()
	T, taken := c.tstates(h, c.buf[npre-1], pc)
	c.t = t0 + uint64(T) + c.waits
	if post != pLDRA {
		k.IR.Lo = r&0x80 | (r+h.m1)&0x7f
	}
	if post != pNone {
		c.post(post, taken, npre, pc, hl, xy)
	}
	// Q is the F the instruction leaves, after z80host's own corrections.
	c.q = 0
	if h.lenF&setsF != 0 {
		c.q = k.AF.Lo
	}
}

// before keeps what post needs from before koron runs: HL for an ADD's
// MEMPTR (returned), F for SCF/CCF.
func (c *CPU) before(post uint8) (hl uint16) {
	switch post {
	case pAdd16:
		return c.k.HL.U16()
	case pSCF:
		c.f0 = c.k.AF.Lo
	}
	return 0
}

// tstates returns the T-states of the instruction koron just ran (hots
// entry h, opcode op at pc) and whether it took its branch or repeated,
// judged after koron ran it: JR/JP/CALL/RET cc leave F as they found it,
// DJNZ leaves the B it tested, and a repeating block instruction winds PC
// back to itself.
func (c *CPU) tstates(h *hot, op uint8, pc uint16) (T uint8, taken bool) {
	taken = true
	switch h.cond {
	case optable.Flag:
		taken = c.cond(op)
	case optable.DJNZ:
		taken = c.k.BC.Hi != 0
	case optable.Repeat:
		taken = c.k.PC == pc
	}
	if !taken {
		return h.tAlt, false
	}
	return h.t, true
}

// cond evaluates the condition of JR cc, JP cc, CALL cc, RET cc.
func (c *CPU) cond(op uint8) bool {
	cc := (op >> 3) & 7
	if op < 0x40 {
		cc &= 3 // JR NZ/Z/NC/C
	}
	return condition(c.k.AF.Lo, cc)
}

// condition evaluates condition cc (0-7: NZ Z NC C PO PE P M) on flags f.
func condition(f, cc uint8) bool {
	var bit uint8
	switch cc >> 1 {
	case 0:
		bit = f & 0x40
	case 1:
		bit = f & 0x01
	case 2:
		bit = f & 0x04
	default:
		bit = f & 0x80
	}
	return (bit != 0) == (cc&1 != 0)
}

// Post-processing after koron (p*) and instructions z80host executes itself
// (o*, all >= oFirst).
const (
	pNone  = iota
	pLDRA  // LD R,A: keep koron's R
	pMemRR // LD A,(BC)/(DE): MEMPTR = rr+1
	pStRR  // LD (BC)/(DE),A: MEMPTR = A:(rr+1)
	pAdd16 // ADD/ADC/SBC HL|IX|IY,rr: MEMPTR = old value + 1
	pJump  // taken jumps, calls and returns: MEMPTR = new PC
	pNN    // JP/CALL (cc,)nn: MEMPTR = nn taken or not
	pNN1   // 16-bit loads from/to (nn), LD A,(nn): MEMPTR = nn+1
	pStNNA // LD (nn),A: MEMPTR = A:(nn+1)
	pEXSP  // EX (SP),HL|IX|IY: MEMPTR = new value
	pRxD   // RLD, RRD: MEMPTR = HL+1
	pLDxR  // LDIR/LDDR: MEMPTR = PC+1 while repeating
	pCPI   // CPI/CPIR
	pCPD   // CPD/CPDR
	pIXd   // any (IX+d)/(IY+d) access: MEMPTR = IX+d
	pBITHL // BIT b,(HL): flags 3/5 from MEMPTR
	pXYCB  // DDCB/FDCB
	pRETI  // RETI: IFF1 = IFF2, MEMPTR = new PC
	pSCF   // SCF/CCF: flags 3/5 from A OR the old F
	pLDAIR // LD A,I / LD A,R: remember for the P/V quirk
	oFirst // own implementations from here
	oHALT  //
	oEI    //
	oNOP   // undefined ED opcodes
	oINn   // IN A,(n)
	oOUTn  // OUT (n),A
	oINC   // IN r,(C)
	oOUTC  // OUT (C),r
	oINI   // INI IND INIR INDR
	oOUTI  // OUTI OUTD OTIR OTDR
)

var (
	basePost, cbPost, edPost, xyPost [256]uint8
	// edSub maps undocumented ED duplicates onto the documented opcode
	// koron implements.
	edSub [256]uint8
)

func init() {
	for i := 0; i < 256; i++ {
		op := uint8(i)
		edSub[i] = op
		x, y, z := op>>6, (op>>3)&7, op&7
		// Base table.
		switch {
		case op == 0x0a || op == 0x1a:
			basePost[i] = pMemRR
		case op == 0x02 || op == 0x12:
			basePost[i] = pStRR
		case x == 0 && z == 1 && y&1 == 1:
			basePost[i] = pAdd16
		case op == 0x10 || op == 0x18 || (op >= 0x20 && op <= 0x38 && z == 0):
			basePost[i] = pJump
		case op == 0x22 || op == 0x2a || op == 0x3a:
			basePost[i] = pNN1
		case op == 0x32:
			basePost[i] = pStNNA
		case x == 3 && (z == 0 || op == 0xc9 || z == 7):
			basePost[i] = pJump
		case x == 3 && (z == 2 || z == 4 || op == 0xc3 || op == 0xcd):
			basePost[i] = pNN
		case op == 0xe3:
			basePost[i] = pEXSP
		case op == 0x37 || op == 0x3f:
			basePost[i] = pSCF
		case op == 0x76:
			basePost[i] = oHALT
		case op == 0xfb:
			basePost[i] = oEI
		case op == 0xdb:
			basePost[i] = oINn
		case op == 0xd3:
			basePost[i] = oOUTn
		}
		// CB table.
		if x == 1 && z == 6 {
			cbPost[i] = pBITHL
		}
		// ED table.
		switch {
		case x == 1 && z == 0:
			edPost[i] = oINC
		case x == 1 && z == 1:
			edPost[i] = oOUTC
		case x == 1 && z == 2:
			edPost[i] = pAdd16
		case x == 1 && z == 3:
			edPost[i] = pNN1
		case x == 1 && z == 4:
			edSub[i] = 0x44 // NEG
		case op == 0x4d:
			edPost[i] = pRETI
		case x == 1 && z == 5:
			edSub[i] = 0x45 // RETN
			edPost[i] = pJump
		case x == 1 && z == 6:
			edSub[i] = [4]uint8{0x46, 0x46, 0x56, 0x5e}[y&3] // IM 0, 0/1 (as 0), 1, 2
		case op == 0x4f:
			edPost[i] = pLDRA
		case op == 0x57 || op == 0x5f:
			edPost[i] = pLDAIR
		case op == 0x67 || op == 0x6f:
			edPost[i] = pRxD
		case x == 1 && z == 7 && y >= 6: // ED 77, ED 7F
			edPost[i] = oNOP
		case x == 1 && z == 7:
		case x == 2 && y >= 4 && z == 0:
			edPost[i] = pLDxR
		case x == 2 && y >= 4 && z == 1 && y&1 == 0:
			edPost[i] = pCPI
		case x == 2 && y >= 4 && z == 1:
			edPost[i] = pCPD
		case x == 2 && y >= 4 && z == 2:
			edPost[i] = oINI
		case x == 2 && y >= 4 && z == 3:
			edPost[i] = oOUTI
		default:
			edPost[i] = oNOP
		}
		// DD/FD table (only opcodes the prefix changes are looked up).
		switch {
		case op == 0x09 || op == 0x19 || op == 0x29 || op == 0x39:
			xyPost[i] = pAdd16
		case op == 0x22 || op == 0x2a:
			xyPost[i] = pNN1
		case op == 0xe3:
			xyPost[i] = pEXSP
		case op == 0x34 || op == 0x35 || op == 0x36:
			xyPost[i] = pIXd
		case (x == 1 && (z == 6 || y == 6) && op != 0x76) || (x == 2 && z == 6):
			xyPost[i] = pIXd
		}
	}
	buildHots()
	buildQuick()
	buildFast()
	for i := range path {
		h := &hots[hBase+i]
		switch {
		case i == 0xcb || i == 0xed || i == 0xdd || i == 0xfd || h.post >= oFirst:
			path[i] = pathFull
		case h.post == pNone && h.cond == optable.Always:
			path[i] = pathPlain
		default:
			path[i] = pathBase
		}
	}
}

// path picks how exec runs each unprefixed opcode.
var path [256]uint8

const (
	pathPlain = iota // execPlain: koron alone, no correction
	pathBase         // execBase: koron, then a condition or post-processing
	pathFull         // execFull: prefixes and z80host's own instructions
)

// post applies MEMPTR and the fixes koron needs after it ran an instruction.
func (c *CPU) post(p uint8, taken bool, npre int, pc, hl, xy uint16) {
	k := &c.k
	switch p {
	case pMemRR:
		if c.buf[npre-1] == 0x0a {
			c.memptr = k.BC.U16() + 1
		} else {
			c.memptr = k.DE.U16() + 1
		}
	case pStRR:
		rr := k.BC.U16()
		if c.buf[npre-1] == 0x12 {
			rr = k.DE.U16()
		}
		c.memptr = uint16(k.AF.Hi)<<8 | (rr+1)&0xff
	case pAdd16:
		if npre == 2 && c.buf[0] != 0xed {
			c.memptr = xy + 1
		} else {
			c.memptr = hl + 1
		}
	case pJump:
		if taken {
			c.memptr = k.PC
		}
	case pNN:
		c.memptr = uint16(c.buf[npre]) | uint16(c.buf[npre+1])<<8
	case pNN1:
		c.memptr = uint16(c.buf[npre]) | uint16(c.buf[npre+1])<<8 + 1
	case pStNNA:
		nn := uint16(c.buf[npre]) | uint16(c.buf[npre+1])<<8
		c.memptr = uint16(k.AF.Hi)<<8 | (nn+1)&0xff
	case pEXSP:
		switch c.buf[0] {
		case 0xdd:
			c.memptr = k.IX
		case 0xfd:
			c.memptr = k.IY
		default:
			c.memptr = k.HL.U16()
		}
	case pRxD:
		c.memptr = k.HL.U16() + 1
	case pLDxR:
		if taken && c.buf[1]&0x10 != 0 {
			c.memptr = pc + 1
			c.repeatXY(pc)
		}
	case pCPI, pCPD:
		if taken && c.buf[1]&0x10 != 0 {
			c.memptr = pc + 1
			c.repeatXY(pc)
		} else if p == pCPI {
			c.memptr++
		} else {
			c.memptr--
		}
	case pIXd:
		c.memptr = xy + uint16(int8(c.buf[2]))
	case pBITHL:
		k.AF.Lo = k.AF.Lo&^0x28 | uint8(c.memptr>>8)&0x28
	case pXYCB:
		a := xy + uint16(int8(c.buf[2]))
		c.memptr = a
		op := c.xyop
		switch {
		case op>>6 == 1:
			k.AF.Lo = k.AF.Lo&^0x28 | uint8(a>>8)&0x28
		case op&7 != 6:
			c.setReg(op&7, c.lastW)
		}
	case pRETI:
		k.IFF1 = k.IFF2
		c.memptr = k.PC
	case pLDAIR:
		c.sig |= sigLDAIR
	case pSCF:
		// koron takes 3/5 from A alone. On the Zilog NMOS Z80 they are
		// A | (F &^ Q): Q holds the flags the previous instruction computed,
		// 0 if it computed none [A, after M. Sainz de Baranda's and P. Rak's
		// measurements of real Zilog parts; docs/HARDWARE.md 2.4].
		// c.q is still the previous instruction's Q here.
		k.AF.Lo = k.AF.Lo&^0x28 | (k.AF.Hi|c.f0&^c.q)&0x28
	}
}

// repeatXY applies what the extra 5 T of a repeating block instruction do
// to F: while PC is wound back to the instruction (pc), flags 5 and 3 take
// bits 13 and 11 of PC (docs/HARDWARE.md 2.4).
func (c *CPU) repeatXY(pc uint16) {
	c.k.AF.Lo = c.k.AF.Lo&^0x28 | uint8(pc>>8)&0x28
}

func (c *CPU) setReg(r uint8, v uint8) {
	k := &c.k
	switch r {
	case 0:
		k.BC.Hi = v
	case 1:
		k.BC.Lo = v
	case 2:
		k.DE.Hi = v
	case 3:
		k.DE.Lo = v
	case 4:
		k.HL.Hi = v
	case 5:
		k.HL.Lo = v
	case 7:
		k.AF.Hi = v
	}
}

func (c *CPU) reg(r uint8) uint8 {
	k := &c.k
	switch r {
	case 0:
		return k.BC.Hi
	case 1:
		return k.BC.Lo
	case 2:
		return k.DE.Hi
	case 3:
		return k.DE.Lo
	case 4:
		return k.HL.Hi
	case 5:
		return k.HL.Lo
	case 7:
		return k.AF.Hi
	}
	return 0
}
