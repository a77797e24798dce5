package z80host

// Loop replay: the iterations of a loop that polls a port, repeated from
// a decoded copy of the loop instead of through koron.
//
// A program waiting for a device spends most of its time in a few
// instructions that read a port, test the value, count a timeout and
// jump back (docs/PERFORMANCE.md: while the tape writes a block, 80-90 %
// of BACKUP's T-states). Run executes each of them through koron, with
// the prefetch and the cycle bookkeeping of an I/O instruction, millions
// of times with the same outcome.
//
// When Run reaches an IN at the loop's head for the third time, with the
// Bus promising (SteadyBus) that nothing it does will change before some
// iterations more could run, it decodes the instructions from the head
// back to it. A decode is kept only if it is made of the small set of
// instructions below. It is then checked: from the state at the
// previous arrival and the port values that iteration read, the decoded
// loop must give the state koron arrived with now, every register, R,
// MEMPTR, Q and the T-state. Only then does Run replay it, one iteration
// after another, up to the earlier of its limit and the time the Bus
// named.
//
// A replayed iteration makes the Bus calls Run would make, in the same
// order, at the same T-states (the IN cycles; nothing else the loop does
// reaches the Bus: its code and stack are on plain pages), so the Bus
// sees no difference at all. Each instruction computes what z80host
// computes for it (the tests compare every instruction kind with Step,
// exhaustively over its inputs where they fit), and a plan made from the
// checked iteration skips those that compute the same in every
// iteration (spinPlan). Replay stops at the
// first instruction boundary where the loop would not go on as decoded:
// a branch taken the other way, an IN that waited or returned another
// value, a store that would change memory, /INT, NMI, a new limit or new
// page tables after a Bus call. There Run takes over, exactly where it
// would have been.

// SteadyBus is an optional interface of a Bus that lets Run replay a
// loop that polls a port. A Bus that implements it must call the CPU's
// PagesChanged whenever it changes its page tables.
type SteadyBus interface {
	// SteadyUntil returns a T-state before which no In cycle of a port
	// with the low address byte port, starting at t or later, returns
	// anything but what one at t returns, waits, or changes anything
	// the CPU sees; t or less if it cannot promise that. It is a hint:
	// replay checks every In it makes for its value, its waits, /INT,
	// NMI, the limit and the page tables. What it cannot check is
	// memory: an In must never write the CPU's memory behind it.
	SteadyUntil(port uint8, t uint64) uint64
}

// Tuning of replay. spinMinIters: a loop is decoded, checked and
// replayed only when at least this many iterations fit before the
// horizon (a wait for the next byte of a handshake is over in one or
// two; decoding it would only cost). spinMaxOps: the longest loop
// decoded, in instructions.
const (
	spinMinIters = 8
	spinMaxOps   = 32
)

// Kinds of instruction replay executes.
const (
	skNOP    = iota
	skLDrr   // LD r,r'
	skLDrn   // LD r,n
	skALU    // AND/XOR/OR/CP r or n (a: operation 4-7)
	skINC    // INC r
	skDEC    // DEC r
	skINC16  // INC rr
	skDEC16  // DEC rr
	skRot    // RLCA RRCA RLA RRA (a: 0-3)
	skEXX    //
	skEXAF   // EX AF,AF'
	skEXDEHL // EX DE,HL
	skJR     // JR e
	skJRcc   // JR cc,e
	skDJNZ   //
	skJP     // JP nn
	skJPcc   // JP cc,nn
	skCALL   // CALL nn
	skCALLcc // CALL cc,nn
	skRET    //
	skRETcc  // RET cc
	skINn    // IN A,(n)
	skINrC   // IN r,(C)
	skBIT    // BIT b,r
	// skCheck is a plan's conditional whose outputs every iteration
	// computes alike: only whether it is taken (condition a on F).
	skCheck
)

// Register slots of spinRegs.r: the Z80's r encoding with F where (HL)
// would be.
const (
	rB, rC, rD, rE, rH, rL, rF, rA = 0, 1, 2, 3, 4, 5, 6, 7
)

// spinOp is one decoded instruction of a loop.
type spinOp struct {
	kind    uint8
	a, b    uint8  // registers, ALU operation, condition or bit
	n       uint8  // immediate byte, or port for IN A,(n)
	nn      uint16 // jump target
	pc      uint16
	len     uint8
	t, tAlt uint8  // T-states; tAlt when a conditional is not taken
	m1      uint8  // R increments
	io      uint8  // start of the IN cycle
	setsF   bool   // loads Q
	cond    bool   // its T-states depend on taken
	ret     bool   // RET or RET cc: its address comes from the stack
	taken   bool   // a conditional's outcome in the checked iteration
	inV     uint8  // the value its IN cycle read in the checked iteration
	tOff    uint16 // T-states from the head to it in the checked iteration
	want    uint16 // the next instruction's address in the checked iteration
	idx     uint8  // its index in the loop (in a plan: in path)
	npre    uint8  // pre-stores in use
	pre     [2]spinStore
	code    [3]uint8
}

// spinRegs is what the loop's instructions read and write; the rest of
// the CPU (IX, IY, I, IFF, IM) none of them touches.
type spinRegs struct {
	r, alt [8]uint8
	sp, pc uint16
	memptr uint16
	rr, q  uint8 // R, Q
	t      uint64
}

// spinner is Run's replay state.
type spinner struct {
	bus  SteadyBus
	head uint16 // PC of the IN last arrived at
	at   uint64 // T-state of that arrival
	// prev is the state at the last arrival and ins (with their waits)
	// the values the IN cycles read since; recording says they are kept.
	prev      spinRegs
	ins, insW []uint8
	recording bool
	// path is the loop decoded at pathHead (decoded says there is one):
	// period and m1 are its T-states and R increments.
	path     []spinOp
	pathHead uint16
	decoded  bool
	period   uint64
	m1       uint8
	bad      bool   // head's loop has an instruction replay does not do
	gen      uint64 // pagesGen when path was decoded
	limit    uint64 // the CPU's limit when replay began
	// inV and inW are the values and waits of the IN cycles of the
	// iteration being replayed.
	inV, inW [spinMaxOps]uint8
	// snaps are the states before each instruction of the checked
	// iteration and after its last; fast and ends are the plan made from
	// them (spinPlan), planned says there is one.
	snaps []spinRegs
	// pathIns (and their waits, none) are the values of the IN cycles of
	// the checked iteration, in order.
	pathIns, pathInW []uint8
	fast             []spinOp
	ends             []spinStore
	planned          bool
}

// spinStore puts a value the checked iteration had into one location
// of spinRegs (numbered as spinUses numbers them).
type spinStore struct {
	loc uint8
	v   uint16
}

// ReplayStats counts loop replay's work (for tests).
type ReplayStats struct {
	Rejected   uint64 // checks koron did not confirm
	Iterations uint64 // iterations replayed
}

// Replay returns replay's counts so far.
func (c *CPU) Replay() ReplayStats { return c.replay }

func (c *CPU) spinLoad(s *spinRegs) {
	k := &c.k
	s.r = [8]uint8{k.BC.Hi, k.BC.Lo, k.DE.Hi, k.DE.Lo, k.HL.Hi, k.HL.Lo, k.AF.Lo, k.AF.Hi}
	a := &k.Alternate
	s.alt = [8]uint8{a.BC.Hi, a.BC.Lo, a.DE.Hi, a.DE.Lo, a.HL.Hi, a.HL.Lo, a.AF.Lo, a.AF.Hi}
	s.sp, s.pc, s.memptr, s.rr, s.q, s.t = k.SP, k.PC, c.memptr, k.IR.Lo, c.q, c.t
}

func (c *CPU) spinStore(s *spinRegs) {
	k := &c.k
	k.BC.Hi, k.BC.Lo, k.DE.Hi, k.DE.Lo, k.HL.Hi, k.HL.Lo, k.AF.Lo, k.AF.Hi =
		s.r[0], s.r[1], s.r[2], s.r[3], s.r[4], s.r[5], s.r[6], s.r[7]
	a := &k.Alternate
	a.BC.Hi, a.BC.Lo, a.DE.Hi, a.DE.Lo, a.HL.Hi, a.HL.Lo, a.AF.Lo, a.AF.Hi =
		s.alt[0], s.alt[1], s.alt[2], s.alt[3], s.alt[4], s.alt[5], s.alt[6], s.alt[7]
	k.SP, k.PC, c.memptr, k.IR.Lo, c.q, c.t = s.sp, s.pc, s.memptr, s.rr, s.q, s.t
}

// spinIn is Run's look at an IN A,(n) (b0 DB) or ED-prefixed instruction
// at pc before it executes it: it may replay iterations of the loop pc
// heads. It reports whether it did (the CPU is at pc again, later).
func (c *CPU) spinIn(pc uint16, b0 uint8) bool {
	s := c.spin
	port, ok := c.spinPort(pc, b0)
	if !ok {
		s.recording = false
		return false
	}
	if pc != s.head {
		s.head, s.at, s.bad, s.recording = pc, c.t, false, false
		return false
	}
	period := c.t - s.at
	s.at = c.t
	if s.bad || period == 0 {
		s.recording = false
		return false
	}
	horizon := min(s.bus.SteadyUntil(port, c.t), c.limit)
	if horizon <= c.t || horizon-c.t < spinMinIters*period {
		s.recording = false
		return false
	}
	if !s.recording {
		c.spinRecord()
		return false
	}
	// The previous arrival was recorded: take the last decode, if its
	// code is still there and the recorded iteration went its way, or
	// decode the loop from there; then check it against what koron did.
	s.recording = false
	if !(s.decoded && s.gen == c.pagesGen && s.pathHead == pc && c.spinCodeSame() && c.spinCheck()) {
		s.decoded = false
		if !c.spinDecode(pc) {
			s.bad = true
			return false
		}
		s.decoded, s.pathHead, s.gen = true, pc, c.pagesGen
		if !c.spinCheck() {
			// An interrupt or a wait in the recorded iteration, or a
			// loop replay would get wrong: Run goes on, and may
			// record again.
			c.replay.Rejected++
			return false
		}
	}
	s.planned = c.spinPlan()
	if !c.spinReplay(horizon) {
		return false
	}
	s.at = c.t
	return true
}

// spinCheck reports whether the decoded loop, run from the recorded
// state on the recorded port values, ends in the CPU's state.
func (c *CPU) spinCheck() bool {
	s := c.spin
	st := s.prev
	src := spinSource{v: s.ins, w: s.insW}
	s.snaps = s.snaps[:0]
	s.pathIns, s.pathInW = s.pathIns[:0], s.pathInW[:0]
	for i := range s.path {
		s.snaps = append(s.snaps, st)
		used := src.used
		if n, _ := c.spinRun(&st, s.path[i:i+1], &src, 0, true); n != 1 || st.pc != s.path[(i+1)%len(s.path)].pc {
			return false
		}
		if src.used > used {
			// A decode kept from an earlier iteration goes on with
			// this one's port values.
			s.path[i].inV = s.ins[used]
			s.pathIns, s.pathInW = append(s.pathIns, s.ins[used]), append(s.pathInW, 0)
		}
	}
	s.snaps = append(s.snaps, st)
	var now spinRegs
	c.spinLoad(&now)
	return src.used == len(s.ins) && st == now
}

// spinRecorded keeps the value and waits of an IN cycle while an
// iteration is recorded (at most one loop's worth).
func (c *CPU) spinRecorded(v uint8, waits int) {
	s := c.spin
	if len(s.ins) >= spinMaxOps || waits > 0 {
		// Replay stops at any wait, so an iteration with one is no
		// model for the others.
		s.recording = false
		return
	}
	s.ins, s.insW = append(s.ins, v), append(s.insW, 0)
}

// spinRecord starts keeping the state and port values from this arrival.
func (c *CPU) spinRecord() {
	s := c.spin
	c.spinLoad(&s.prev)
	s.ins, s.insW = s.ins[:0], s.insW[:0]
	s.recording = true
}

// spinPort returns the low port byte of the IN at pc: IN A,(n) or
// IN r,(C) (not IN F,(C)).
func (c *CPU) spinPort(pc uint16, b0 uint8) (uint8, bool) {
	p := c.rpage[(pc+1)>>8]
	if p == nil {
		return 0, false
	}
	b1 := p[uint8(pc+1)]
	if b0 == 0xdb {
		return b1, true
	}
	if b1&0xc7 == 0x40 && b1 != 0x70 {
		return c.k.BC.Lo, true
	}
	return 0, false
}

// spinByte reads code at a from its page.
func (c *CPU) spinByte(a uint16) (uint8, bool) {
	p := c.rpage[a>>8]
	if p == nil {
		return 0, false
	}
	return p[uint8(a)], true
}

// spinCodeSame reports whether the decoded loop's code is still in
// memory.
func (c *CPU) spinCodeSame() bool {
	for i := range c.spin.path {
		op := &c.spin.path[i]
		for j := uint8(0); j < op.len; j++ {
			if v, ok := c.spinByte(op.pc + uint16(j)); !ok || v != op.code[j] {
				return false
			}
		}
	}
	return true
}

// spinDecode decodes the loop from head, following the way the recorded
// iteration went, until it is back at head. It reports false if an
// instruction is not one replay executes or the loop is too long.
func (c *CPU) spinDecode(head uint16) bool {
	s := c.spin
	s.path, s.period, s.m1 = s.path[:0], 0, 0
	st := s.prev
	src := spinSource{v: s.ins, w: s.insW}
	for range spinMaxOps {
		op, ok := c.spinDecodeOne(st.pc)
		if !ok {
			return false
		}
		used, t := src.used, st.t
		op.tOff = uint16(s.period)
		ops := []spinOp{op}
		if n, status := c.spinRun(&st, ops, &src, 0, true); n != 1 || status != spinOK {
			return false
		}
		if src.used > used {
			op.inV = src.v[used]
		}
		op.taken = st.pc != op.pc+uint16(op.len)
		op.want = st.pc
		op.idx = uint8(len(s.path))
		s.period += st.t - t
		s.m1 += op.m1
		s.path = append(s.path, op)
		if st.pc == head {
			return s.period < 1<<16
		}
	}
	return false
}

// spinDecodeOne decodes the instruction at pc.
func (c *CPU) spinDecodeOne(pc uint16) (op spinOp, ok bool) {
	b0, ok := c.spinByte(pc)
	if !ok {
		return op, false
	}
	h := &hots[b0]
	x, y, z := b0>>6, (b0>>3)&7, b0&7
	op.pc, op.kind = pc, 0xff
	switch {
	case b0 == 0x00:
		op.kind = skNOP
	case x == 1 && y != 6 && z != 6:
		op.kind, op.a, op.b = skLDrr, y, z
	case x == 0 && z == 6 && y != 6:
		op.kind, op.a = skLDrn, y
	case x == 2 && y >= 4 && z != 6:
		op.kind, op.a, op.b = skALU, y, z
	case x == 3 && z == 6 && y >= 4:
		op.kind, op.a, op.b = skALU, y, 0xff
	case x == 0 && z == 4 && y != 6:
		op.kind, op.a = skINC, y
	case x == 0 && z == 5 && y != 6:
		op.kind, op.a = skDEC, y
	case x == 0 && z == 3:
		op.kind, op.a = skINC16, y>>1
		if y&1 != 0 {
			op.kind = skDEC16
		}
	case x == 0 && z == 7 && y < 4:
		op.kind, op.a = skRot, y
	case b0 == 0xd9:
		op.kind = skEXX
	case b0 == 0x08:
		op.kind = skEXAF
	case b0 == 0xeb:
		op.kind = skEXDEHL
	case b0 == 0x18:
		op.kind = skJR
	case x == 0 && z == 0 && y >= 4:
		op.kind, op.a = skJRcc, y-4
	case b0 == 0x10:
		op.kind = skDJNZ
	case b0 == 0xc3:
		op.kind = skJP
	case x == 3 && z == 2:
		op.kind, op.a = skJPcc, y
	case b0 == 0xcd:
		op.kind = skCALL
	case x == 3 && z == 4:
		op.kind, op.a = skCALLcc, y
	case b0 == 0xc9:
		op.kind = skRET
	case x == 3 && z == 0:
		op.kind, op.a = skRETcc, y
	case b0 == 0xdb:
		op.kind = skINn
	case b0 == 0xed || b0 == 0xcb:
		b1, ok := c.spinByte(pc + 1)
		if !ok {
			return op, false
		}
		if b0 == 0xed && b1&0xc7 == 0x40 && b1 != 0x70 {
			h = &hots[hED+int(b1)]
			op.kind, op.a = skINrC, (b1>>3)&7
		} else if b0 == 0xcb && b1&0xc0 == 0x40 && b1&7 != 6 {
			h = &hots[hCB+int(b1)]
			op.kind, op.a, op.b = skBIT, b1&7, (b1>>3)&7
		}
	}
	if op.kind == 0xff {
		return op, false
	}
	op.len = h.lenF &^ setsF
	op.setsF = h.lenF&setsF != 0
	op.t, op.tAlt, op.m1 = h.t, h.tAlt, h.m1
	op.io = h.start[h.n-1]
	switch op.kind {
	case skJRcc, skDJNZ, skJPcc, skCALLcc, skRETcc:
		op.cond = true
	}
	op.ret = op.kind == skRET || op.kind == skRETcc
	for j := uint8(0); j < op.len; j++ {
		v, ok := c.spinByte(pc + uint16(j))
		if !ok {
			return op, false
		}
		op.code[j] = v
	}
	switch op.len {
	case 2:
		op.n = op.code[1]
		if op.kind == skJR || op.kind == skJRcc || op.kind == skDJNZ {
			op.nn = pc + 2 + uint16(int8(op.n))
		}
	case 3:
		op.nn = uint16(op.code[1]) | uint16(op.code[2])<<8
	}
	return op, true
}

// Outcomes of spinRun.
const (
	spinOK = iota
	// spinBefore: not executed, nothing changed (a store that would
	// change memory, a page that is not plain memory, no recorded value
	// left).
	spinBefore
	// spinAfter: executed, but replay must stop after it: its IN cycle
	// waited or read something new, or the Bus changed what the CPU sees.
	spinAfter
)

// spinSource is where the IN cycles of spinRun take their values: the
// Bus (replaying) or values recorded before (decoding and checking).
type spinSource struct {
	bus  bool
	v, w []uint8 // recorded values and their waits
	used int
}

// spinRun executes ops in st in order, each as z80host would, and
// returns how many it completed and why it stopped before the end. With
// book, each also does what every instruction does to PC, R, Q and the
// T-state, at st.t, and the next op must be at the PC it left
// (decoding, checking, finishing a partial iteration). Without, ops are
// one whole iteration starting at T-state t0, each at its tOff, and
// each conditional must go as in the checked iteration and each return
// come back to where it did; PC, R, Q and the T-state are the caller's
// to add for the whole iteration (replaying). A stop after an executed
// op (spinAfter) counts it as completed.
func (c *CPU) spinRun(st *spinRegs, ops []spinOp, src *spinSource, t0 uint64, book bool) (done int, status uint8) {
	r := &st.r
	for i := range ops {
		op := &ops[i]
		if book && i > 0 && st.pc != op.pc {
			return i, spinBefore
		}
		if op.npre != 0 {
			st.put(op.pre[0])
			if op.npre > 1 {
				st.put(op.pre[1])
			}
		}
		var taken bool
		var waits uint64
		switch op.kind {
		case skNOP:
		case skLDrr:
			r[op.a] = r[op.b]
		case skLDrn:
			r[op.a] = op.n
		case skALU:
			v := op.n
			if op.b != 0xff {
				v = r[op.b]
			}
			a := r[rA]
			switch op.a {
			case 4: // AND
				a &= v
				r[rA], r[rF] = a, sz53p[a]|0x10
			case 5: // XOR
				a ^= v
				r[rA], r[rF] = a, sz53p[a]
			case 6: // OR
				a |= v
				r[rA], r[rF] = a, sz53p[a]
			case 7: // CP: flags 5 and 3 from the operand
				d := a - v
				f := d&0x80 | v&0x28 | (a^v^d)&0x10 | ((a^v)&(a^d)&0x80)>>5 | 0x02
				if d == 0 {
					f |= 0x40
				}
				if a < v {
					f |= 0x01
				}
				r[rF] = f
			}
		case skINC:
			v := r[op.a] + 1
			f := r[rF]&0x01 | sz53p[v]&^0x04
			if v&0x0f == 0 {
				f |= 0x10
			}
			if v == 0x80 {
				f |= 0x04
			}
			r[op.a], r[rF] = v, f
		case skDEC:
			o := r[op.a]
			v := o - 1
			f := r[rF]&0x01 | sz53p[v]&^0x04 | 0x02
			if o&0x0f == 0 {
				f |= 0x10
			}
			if o == 0x80 {
				f |= 0x04
			}
			r[op.a], r[rF] = v, f
		case skINC16, skDEC16:
			d := uint16(1)
			if op.kind == skDEC16 {
				d = 0xffff
			}
			if op.a == 3 {
				st.sp += d
			} else {
				v := (uint16(r[op.a*2])<<8 | uint16(r[op.a*2+1])) + d
				r[op.a*2], r[op.a*2+1] = uint8(v>>8), uint8(v)
			}
		case skRot:
			a, f := r[rA], r[rF]
			var cy uint8
			switch op.a {
			case 0: // RLCA
				cy = a >> 7
				a = a<<1 | cy
			case 1: // RRCA
				cy = a & 1
				a = a>>1 | cy<<7
			case 2: // RLA
				cy = a >> 7
				a = a<<1 | f&1
			case 3: // RRA
				cy = a & 1
				a = a>>1 | f<<7
			}
			r[rA], r[rF] = a, f&0xc4|a&0x28|cy
		case skEXX:
			r[0], r[1], r[2], r[3], r[4], r[5], st.alt[0], st.alt[1], st.alt[2], st.alt[3], st.alt[4], st.alt[5] =
				st.alt[0], st.alt[1], st.alt[2], st.alt[3], st.alt[4], st.alt[5], r[0], r[1], r[2], r[3], r[4], r[5]
		case skEXAF:
			r[rF], r[rA], st.alt[rF], st.alt[rA] = st.alt[rF], st.alt[rA], r[rF], r[rA]
		case skEXDEHL:
			r[rD], r[rE], r[rH], r[rL] = r[rH], r[rL], r[rD], r[rE]
		case skCheck:
			taken = condition(r[rF], op.a)
		case skJR, skJP:
			taken = true
			st.memptr = op.nn
		case skJRcc:
			if taken = condition(r[rF], op.a); taken {
				st.memptr = op.nn
			}
		case skDJNZ:
			r[rB]--
			if taken = r[rB] != 0; taken {
				st.memptr = op.nn
			}
		case skJPcc:
			taken = condition(r[rF], op.a)
			st.memptr = op.nn
		case skCALL, skCALLcc:
			taken = op.kind == skCALL || condition(r[rF], op.a)
			if taken && !c.spinSame16(st.sp-2, op.pc+uint16(op.len)) {
				return i, spinBefore
			}
			if taken {
				st.sp -= 2
			}
			st.memptr = op.nn
		case skRET, skRETcc:
			if taken = op.kind == skRET || condition(r[rF], op.a); !taken {
				break
			}
			lo, ok1 := c.spinByte(st.sp)
			hi, ok2 := c.spinByte(st.sp + 1)
			if !ok1 || !ok2 {
				return i, spinBefore
			}
			st.sp += 2
			st.memptr = uint16(hi)<<8 | uint16(lo)
		case skINn, skINrC:
			var port uint16
			if op.kind == skINn {
				port = uint16(r[rA])<<8 | uint16(op.n)
			} else {
				port = uint16(r[rB])<<8 | uint16(r[rC])
			}
			var v uint8
			if src.bus {
				var w int
				t := t0 + uint64(op.tOff)
				if book {
					t = st.t
				}
				v, w = c.bus.In(port, t+uint64(op.io))
				s := c.spin
				if w > 0 {
					waits = uint64(w)
				}
				s.inV[src.used], s.inW[src.used] = v, uint8(waits)
				src.used++
				if waits != 0 || v != op.inV || c.sig != 0 || c.limit != s.limit || c.pagesGen != s.gen {
					status = spinAfter
				}
			} else {
				if src.used >= len(src.v) {
					return i, spinBefore
				}
				v, waits = src.v[src.used], uint64(src.w[src.used])
				src.used++
			}
			if op.kind == skINn {
				r[rA] = v
			} else {
				r[op.a], r[rF] = v, r[rF]&0x01|sz53p[v]
			}
			st.memptr = port + 1
		case skBIT:
			v := r[op.a]
			m := v & (1 << op.b)
			f := r[rF]&0x01 | 0x10 | v&0x28 | m&0x80
			if m == 0 {
				f |= 0x44
			}
			r[rF] = f
		}
		if book {
			st.pc = op.pc + uint16(op.len)
			T := op.t
			if op.cond && !taken {
				T = op.tAlt
			}
			if taken {
				switch op.kind {
				case skRET, skRETcc:
					st.pc = st.memptr
				default:
					st.pc = op.nn
				}
			}
			st.t += uint64(T) + waits
			st.rr = st.rr&0x80 | (st.rr+op.m1)&0x7f
			st.q = 0
			if op.setsF {
				st.q = r[rF]
			}
		} else if taken != op.taken || (op.ret && taken && st.memptr != op.want) {
			// A return's address comes from the stack: it must be the
			// one the checked iteration returned to.
			return i + 1, spinAfter
		}
		if status != spinOK {
			return i + 1, status
		}
	}
	return len(ops), spinOK
}

// spinSame16 reports whether the word at a (low byte first) is v on pages
// read and written alike: a push there changes nothing.
func (c *CPU) spinSame16(a, v uint16) bool {
	for i := uint16(0); i < 2; i++ {
		rp, wp := c.rpage[(a+i)>>8], c.wpage[(a+i)>>8]
		if rp == nil || wp == nil || wp[uint8(a+i)] != uint8(v>>(8*i)) || rp[uint8(a+i)] != uint8(v>>(8*i)) {
			return false
		}
	}
	return true
}

// spinReplay replays the checked loop from the CPU's state (at its head)
// while a whole iteration fits before horizon, and reports whether it
// executed anything. A whole iteration goes as the checked one went (its
// conditionals, its IN values, no waits), so spinRun keeps only the
// registers, and the iteration's T-states and R are added at its end;
// where an instruction does not go on as checked, the iteration is
// executed again from its start with book-keeping, on the port values it
// read, up to that instruction (or up to and including it, if it was
// executed), and Run goes on from there.
func (c *CPU) spinReplay(horizon uint64) bool {
	s := c.spin
	path := s.path
	var st spinRegs
	c.spinLoad(&st)
	t0 := st.t
	s.limit = c.limit // and s.gen is pagesGen: decoded or checked just now
	lastSetsF := path[len(path)-1].setsF
	var n uint64
	ops, ends := path, []spinStore(nil)
	if s.planned {
		ops, ends = s.fast, s.ends
	}
	start := st
	head := st.pc
	for st.t+s.period <= horizon {
		src := spinSource{bus: true}
		if done, status := c.spinRun(&st, ops, &src, st.t, false); status != spinOK {
			// The instructions of the loop up to the one it stopped
			// at, and that one too if it was executed. Stops are rare
			// (a counter running out, the Bus's hint proving wrong), so
			// rather than keep every iteration's start, the completed
			// iterations are executed again from the replay's start,
			// each on the checked iteration's port values (each read
			// them), with book-keeping.
			var upto int
			if status == spinBefore {
				upto = int(ops[done].idx)
			} else {
				upto = int(ops[done-1].idx) + 1
			}
			used := src.used
			st = start
			for range n {
				src = spinSource{v: s.pathIns, w: s.pathInW}
				c.spinRun(&st, path, &src, 0, true)
			}
			src = spinSource{v: s.inV[:used], w: s.inW[:used]}
			c.spinRun(&st, path[:upto], &src, 0, true)
			c.spinStore(&st)
			c.replay.Iterations += n
			return st.t != t0
		}
		for _, e := range ends {
			st.put(e)
		}
		st.pc = head
		st.t += s.period
		st.rr = st.rr&0x80 | (st.rr+s.m1)&0x7f
		st.q = 0
		if lastSetsF {
			st.q = st.r[rF]
		}
		n++
	}
	c.spinStore(&st)
	c.replay.Iterations += n
	return st.t != t0
}

// Locations of spinRegs as a plan sees them: bits 0-7 the registers of r
// (B C D E H L F A), 8-15 their alternates, 16 SP, 17 MEMPTR.
const (
	locSP     = 16
	locMEMPTR = 17
)

// get returns location l.
func (st *spinRegs) get(l uint8) uint16 {
	switch {
	case l < 8:
		return uint16(st.r[l])
	case l < 16:
		return uint16(st.alt[l-8])
	case l == locSP:
		return st.sp
	}
	return st.memptr
}

// put stores p.
func (st *spinRegs) put(p spinStore) {
	switch l := p.loc; {
	case l < 8:
		st.r[l] = uint8(p.v)
	case l < 16:
		st.alt[l-8] = uint8(p.v)
	case l == locSP:
		st.sp = p.v
	default:
		st.memptr = p.v
	}
}

// spinUses returns the locations op reads and writes when it goes as in
// the checked iteration (taken), as bit sets; swap reports the exchanges,
// which move values rather than compute them.
func spinUses(op *spinOp) (reads, writes uint32, swap bool) {
	const f, a, sp, mp = 1 << rF, 1 << rA, 1 << locSP, 1 << locMEMPTR
	bit := func(r uint8) uint32 { return 1 << r }
	switch op.kind {
	case skLDrr:
		return bit(op.b), bit(op.a), false
	case skLDrn:
		return 0, bit(op.a), false
	case skALU:
		reads = a
		if op.b != 0xff {
			reads |= bit(op.b)
		}
		if op.a == 7 { // CP
			return reads, f, false
		}
		return reads, a | f, false
	case skINC, skDEC:
		return bit(op.a) | f, bit(op.a) | f, false
	case skINC16, skDEC16:
		if op.a == 3 {
			return sp, sp, false
		}
		pair := bit(op.a*2) | bit(op.a*2+1)
		return pair, pair, false
	case skRot:
		return a | f, a | f, false
	case skEXX, skEXAF, skEXDEHL:
		return 0, 0, true
	case skJR, skJP:
		return 0, mp, false
	case skJRcc:
		if op.taken {
			return f, mp, false
		}
		return f, 0, false
	case skDJNZ:
		if op.taken {
			return bit(rB), bit(rB) | mp, false
		}
		return bit(rB), bit(rB), false
	case skJPcc:
		return f, mp, false
	case skCALL:
		return sp, sp | mp, false
	case skCALLcc:
		if op.taken {
			return f | sp, sp | mp, false
		}
		return f, mp, false
	case skRET:
		return sp, sp | mp, false
	case skRETcc:
		if op.taken {
			return f | sp, sp | mp, false
		}
		return f, 0, false
	case skINn:
		return a, a | mp, false
	case skINrC:
		return bit(rB) | bit(rC) | f, bit(op.a) | f | mp, false
	case skBIT:
		return bit(op.a) | f, f, false
	}
	return 0, 0, false // NOP
}

// spinCondReads is the part of what a conditional reads that only
// decides whether it is taken (F; DJNZ's B is also its data). Replay
// makes every iteration take the way the checked one took, so a tainted
// condition does not taint what the instruction writes.
func spinCondReads(op *spinOp) uint32 {
	switch op.kind {
	case skJRcc, skJPcc, skCALLcc, skRETcc:
		return 1 << rF
	}
	return 0
}

// spinSwapped is the set of locations an exchange moves.
func spinSwapped(op *spinOp) uint32 {
	switch op.kind {
	case skEXX:
		return 0x3f | 0x3f<<8
	case skEXAF:
		return 1<<rF | 1<<rA | 1<<(rF+8) | 1<<(rA+8)
	case skEXDEHL:
		return 1<<rD | 1<<rE | 1<<rH | 1<<rL
	}
	return 0
}

// spinSwap applies an exchange to a set of locations: its bits move with
// the values.
func spinSwap(op *spinOp, set uint32) uint32 {
	swapBits := func(set uint32, i, j uint8) uint32 {
		bi, bj := set>>i&1, set>>j&1
		set &^= 1<<i | 1<<j
		return set | bi<<j | bj<<i
	}
	switch op.kind {
	case skEXX:
		for i := uint8(0); i < 6; i++ {
			set = swapBits(set, i, i+8)
		}
	case skEXAF:
		set = swapBits(set, rF, rF+8)
		set = swapBits(set, rA, rA+8)
	case skEXDEHL:
		set = swapBits(set, rD, rH)
		set = swapBits(set, rE, rL)
	}
	return set
}

// spinTaint carries the set of tainted locations t through op.
func spinTaint(op *spinOp, t uint32) uint32 {
	reads, writes, swap := spinUses(op)
	switch {
	case swap:
		return spinSwap(op, t)
	case op.kind == skINn:
		return t &^ (1 << rA) // F is not written
	case op.kind == skINrC:
		return t &^ (1 << op.a) // F keeps its taint (C passes through)
	case reads&^spinCondReads(op)&t != 0:
		return t | writes
	}
	return t &^ writes
}

// spinPlan plans the replay of whole iterations from the checked one
// (snaps) and reports whether it made one; without a plan, replay runs
// every instruction of the loop.
//
// A location is tainted when its value may differ from one iteration to
// the next at the same point: at the head, those whose value after the
// checked iteration differs from before it, and whatever an iteration
// computes from tainted values, until nothing more is tainted at its end
// than at its head. An IN's value is not tainted (replay stops when it
// changes), nor is what a conditional writes because its condition is
// (replay stops when it goes the other way). An instruction that reads
// nothing tainted computes in every iteration what it computed in the
// checked one, so replay need not execute it: only the INs (their Bus
// calls), the exchanges of tainted values and the instructions that read
// a tainted value are executed (fast). Where one of those reads a
// location whose last writer in the iteration was skipped, the value the
// checked iteration had there is stored first (pre); where the last
// writer of a location is skipped but an executed instruction or a
// pre-store changed it during the iteration, its value after the checked
// iteration is stored at the end (ends). So every iteration ends in the
// state it would have reached instruction by instruction, to the bit
// (by induction: an untainted location has the same value at the head
// of every iteration, so every skipped instruction has the inputs it
// had in the checked iteration).
func (c *CPU) spinPlan() bool {
	s := c.spin
	path, snaps := s.path, s.snaps
	first, last := &snaps[0], &snaps[len(path)]
	var taint uint32
	for l := uint8(0); l < locMEMPTR; l++ {
		if first.get(l) != last.get(l) {
			taint |= 1 << l
		}
	}
	for {
		t := taint
		for i := range path {
			t = spinTaint(&path[i], t)
		}
		t &^= 1 << locMEMPTR // written, never read
		if t&^taint == 0 {
			break
		}
		taint |= t
	}
	s.fast, s.ends = s.fast[:0], s.ends[:0]
	// skipped: locations whose last writer so far was skipped; touched:
	// locations an executed instruction or a pre-store changed.
	var skipped, touched uint32
	t := taint
	for i := range path {
		op := path[i]
		reads, writes, swap := spinUses(&op)
		run := op.kind == skINn || op.kind == skINrC || reads&t != 0
		if swap {
			reads, writes = spinSwapped(&op), spinSwapped(&op)
			run = t&reads != 0
		}
		check := run && !swap && spinCondReads(&op) != 0 && reads&^spinCondReads(&op)&t == 0
		t = spinTaint(&op, t)
		if !run {
			skipped |= writes
			continue
		}
		if check {
			// Only the condition varies: what it writes is as in the
			// checked iteration whenever it goes the same way.
			skipped |= writes
			reads, writes = spinCondReads(&op), 0
			op.kind, op.ret = skCheck, false
		}
		op.npre = 0
		for l := uint8(0); l < locMEMPTR; l++ {
			if reads&skipped&(1<<l) == 0 {
				continue
			}
			if int(op.npre) == len(op.pre) {
				return false
			}
			op.pre[op.npre] = spinStore{l, snaps[i].get(l)}
			op.npre++
			touched |= 1 << l
			skipped &^= 1 << l
		}
		skipped &^= writes
		touched |= writes
		s.fast = append(s.fast, op)
	}
	for l := uint8(0); l <= locMEMPTR; l++ {
		if skipped&touched&(1<<l) != 0 {
			s.ends = append(s.ends, spinStore{l, last.get(l)})
		}
	}
	return true
}
