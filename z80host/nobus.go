package z80host

import "github.com/lbplus/lbplus/z80host/optable"

// The no-Bus loop. While every read page and every write page is plain
// memory (none nil) no memory access can reach the Bus, so no access needs
// its time, nothing can lower the limit or raise a signal, and koron's
// Memory need not count accesses: the board with its ROM switched out
// (flat) and the board on the ROM overlay (reads of low memory from the
// ROM, writes beneath it to RAM) with no memory observer. runNoBus runs
// the instructions z80host only has to time and complete, keeping time
// and Q in locals, until the limit or an instruction it does not take
// (I/O, HALT, EI, DDCB, an undocumented form, ...), which Run's general
// path executes.

// fastOp is what runNoBus needs of an instruction, by hots index: the
// completion (a quick kind, or qPrefix for the first byte of CB, ED, DD
// and FD), its two T-state counts and the mask that makes Q of F.
type fastOp struct {
	kind, t, tAlt, fmask uint8
}

// Kinds runNoBus takes beyond the quick ones (see quickKind).
const (
	qEXSP   = iota + qLDxR + 1 // EX (SP),HL|IX|IY: MEMPTR = the new value
	qNN1                       // the (nn) loads and stores: MEMPTR = nn+1
	qStNNA                     // LD (nn),A: MEMPTR = A:(nn+1)
	qMemRR                     // LD A,(BC)/(DE): MEMPTR = rr+1
	qStRR                      // LD (BC)/(DE),A: MEMPTR = A:(rr+1)
	qSCF                       // SCF, CCF: flags 3/5 from A OR (F AND NOT Q)
	qBITHL                     // BIT b,(HL): flags 3/5 from MEMPTR
	qRxD                       // RLD, RRD: MEMPTR = HL+1
	qPrefix                    // CB, ED, DD, FD: look the next byte up
)

var fastOps [len(hots)]fastOp

// buildFast fills fastOps from quickKind and the posts runNoBus completes
// itself; everything else stays qNone. It runs after buildQuick.
func buildFast() {
	for i := range fastOps {
		h := &hots[i]
		kind := quickKind[i]
		op := uint8(i)
		if kind == qNone {
			switch {
			case i < hCB:
				switch h.post {
				case pEXSP:
					kind = qEXSP
				case pNN1:
					kind = qNN1
				case pStNNA:
					kind = qStNNA
				case pMemRR:
					kind = qMemRR
				case pStRR:
					kind = qStRR
				case pSCF:
					kind = qSCF
				}
				if op == 0xcb || op == 0xed || op == 0xdd || op == 0xfd {
					kind = qPrefix
				}
			case i < hED:
				if h.post == pBITHL {
					kind = qBITHL
				}
			case i < hXY:
				if edSub[op] == op && h.cond == optable.Always {
					switch h.post {
					case pNN1:
						kind = qNN1
					case pRxD:
						kind = qRxD
					}
				}
			case i < hXYCB:
				if optable.XYIndexed[op] && h.cond == optable.Always {
					switch h.post {
					case pEXSP:
						kind = qEXSP
					case pNN1:
						kind = qNN1
					}
				}
			}
		}
		var fmask uint8
		if h.lenF&setsF != 0 {
			fmask = 0xff
		}
		fastOps[i] = fastOp{kind: kind, t: h.t, tAlt: h.tAlt, fmask: fmask}
		if kind == qPrefix {
			// The prefix's own entry holds where its table starts.
			fastOps[i].t = prefixTable[op]
		}
	}
}

// runNoBus runs instructions while T < limit (see the top of this file);
// it returns at the limit or before an instruction it does not take.
// Only Run calls it, with no Hook, sig 0 and c.noBus.
func (c *CPU) runNoBus() {
	k := &c.k
	rp := &c.paged.r
	t, limit, q := c.t, c.limit, c.q
	for t < limit {
		pc := k.PC
		b0 := rp[pc>>8][uint8(pc)]
		e := fastOps[b0]
		if e.kind == qPlain {
			k.Step()
			t += uint64(e.t)
			q = k.AF.Lo & e.fmask
			continue
		}
		T := e.t
		switch e.kind {
		case qJump:
			k.Step()
			c.memptr = k.PC
		case qNN:
			// JP writes nothing: nn is still in memory.
			k.Step()
			c.memptr = pagedWord(rp, pc+1)
		case qCond:
			// JR/CALL/RET cc leave F as they found it.
			k.Step()
			if c.cond(b0) {
				c.memptr = k.PC
			} else {
				T = e.tAlt
				if b0&7 != 0 { // CALL cc: no push, nn intact
					c.memptr = pagedWord(rp, pc+1)
				}
			}
		case qDJNZ:
			k.Step()
			if k.BC.Hi == 0 {
				T = e.tAlt
			} else {
				c.memptr = k.PC
			}
		case qAdd16:
			hl := k.HL.U16()
			k.Step()
			c.memptr = hl + 1
		case qEXSP:
			k.Step()
			c.memptr = k.HL.U16()
		case qNN1:
			// Read before koron runs: a store may overwrite its own nn.
			nn := pagedWord(rp, pc+1)
			k.Step()
			c.memptr = nn + 1
		case qStNNA:
			nn := pagedWord(rp, pc+1)
			k.Step()
			c.memptr = uint16(k.AF.Hi)<<8 | (nn+1)&0xff
		case qMemRR:
			k.Step()
			if b0 == 0x0a {
				c.memptr = k.BC.U16() + 1
			} else {
				c.memptr = k.DE.U16() + 1
			}
		case qStRR:
			k.Step()
			rr := k.BC.U16()
			if b0 == 0x12 {
				rr = k.DE.U16()
			}
			c.memptr = uint16(k.AF.Hi)<<8 | (rr+1)&0xff
		case qSCF:
			// See post's pSCF: flags 3/5 are A OR (F AND NOT Q).
			f0 := k.AF.Lo
			k.Step()
			k.AF.Lo = k.AF.Lo&^0x28 | (k.AF.Hi|f0&^q)&0x28
		case qPrefix:
			e = fastOps[int(e.t)<<8|int(rp[(pc+1)>>8][uint8(pc+1)])]
			T = e.t
			switch e.kind {
			case qPlain:
				k.Step()
			case qAdd16:
				rr := c.indexReg(b0)
				k.Step()
				c.memptr = rr + 1
			case qIXd:
				rr := c.indexReg(b0) + uint16(int8(rp[(pc+2)>>8][uint8(pc+2)]))
				k.Step()
				c.memptr = rr
			case qLDxR:
				k.Step()
				if k.PC != pc {
					T = e.tAlt
				} else {
					c.memptr = pc + 1
					c.repeatXY(pc)
				}
			case qEXSP:
				k.Step()
				c.memptr = c.indexReg(b0)
			case qNN1:
				nn := pagedWord(rp, pc+2)
				k.Step()
				c.memptr = nn + 1
			case qBITHL:
				k.Step()
				k.AF.Lo = k.AF.Lo&^0x28 | uint8(c.memptr>>8)&0x28
			case qRxD:
				k.Step()
				c.memptr = k.HL.U16() + 1
			default:
				c.t, c.q = t, q
				return
			}
		default:
			c.t, c.q = t, q
			return
		}
		t += uint64(T)
		q = k.AF.Lo & e.fmask
	}
	c.t, c.q = t, q
}

// indexReg is IX after prefix DD, IY after FD, HL otherwise.
func (c *CPU) indexReg(prefix uint8) uint16 {
	switch prefix {
	case 0xdd:
		return c.k.IX
	case 0xfd:
		return c.k.IY
	}
	return c.k.HL.U16()
}

// pagedWord is the little-endian word at a on the pages (none nil).
func pagedWord(rp *[256]*[256]byte, a uint16) uint16 {
	return uint16(rp[a>>8][uint8(a)]) | uint16(rp[(a+1)>>8][uint8(a+1)])<<8
}

// pagedMem is koron's Memory in the no-Bus state: a copy of the page
// tables (PagesChanged makes it), so that an access is two loads; none is
// counted (nothing needs a cycle's time).
type pagedMem struct {
	r, w [256]*[256]byte
}

func (m *pagedMem) Get(a uint16) uint8 { return m.r[a>>8][uint8(a)] }

func (m *pagedMem) Set(a uint16, v uint8) { m.w[a>>8][uint8(a)] = v }
