package z80host

import "github.com/koron-go/z80"

// Bus is the board as the CPU sees it. See docs/ARCHITECTURE.md.
type Bus interface {
	// Memory cycles. t is the absolute T-state at which the machine cycle
	// starts. Fetch is an M1 opcode fetch.
	Fetch(addr uint16, t uint64) uint8
	Read(addr uint16, t uint64) uint8
	Write(addr uint16, v uint8, t uint64)
	// I/O cycles with the full 16-bit address. t is the start of the I/O
	// cycle; waits is the number of extra wait states beyond the automatic
	// one.
	In(port uint16, t uint64) (v uint8, waits int)
	Out(port uint16, v uint8, t uint64) (waits int)
}

// Pages is an optional interface of a Bus: plain RAM/ROM that the CPU may
// access directly without calling the Bus. Each entry covers 256 bytes
// (index = address >> 8); a nil entry means "call the Bus". The Bus owns the
// arrays and may change entries at any time (e.g. when the ROM overlay is
// switched); the CPU reads them on every access. Devices that must see
// memory cycles must leave their pages nil.
type Pages interface {
	MemoryPages() (read, write *[256]*[256]byte)
}

// FlatMemory is an optional interface of a Pages Bus whose pages, when
// every one of them is plain RAM read and written alike, are the 256
// slices of one 64 KB array in order. While the page tables say so, Run
// reads and writes that array without looking the pages up. A Bus that
// implements it must call the CPU's PagesChanged after it changes its page
// tables: while none of its pages is nil, Run serves koron from a copy of
// them (the no-Bus loop, also when FlatMemory returns nil).
type FlatMemory interface {
	Pages
	FlatMemory() *[65536]byte
}

// InterruptAck is the daisy chain as the CPU sees it.
type InterruptAck interface {
	Acknowledge(t uint64) uint8 // vector/opcode byte on the bus in the INTA cycle
	RETI(t uint64)              // ED 4D was fetched (peripherals watch M1)
}

// Hook lets a debugger watch and stop Run.
type Hook interface {
	// BeforeInstruction is called by Run before each instruction (or
	// interrupt acknowledge). Returning true stops Run before it executes.
	BeforeInstruction(pc uint16, t uint64) (stop bool)
}

// Regs is the CPU's register file and internal latches: everything that
// decides what the next instruction does, apart from the inputs (INT, NMI)
// and the clock, which State adds.
type Regs struct {
	AF, BC, DE, HL             uint16
	AltAF, AltBC, AltDE, AltHL uint16
	IX, IY, SP, PC             uint16
	I, R                       uint8 // R with its bit 7
	IFF1, IFF2                 bool
	IM                         int
	Halted                     bool
	MEMPTR                     uint16 // the internal WZ register
	// Q: the flags the last instruction computed, 0 if it computed none
	// (SCF and CCF take flags 3 and 5 from A OR (F AND NOT Q)).
	Q uint8
	// EIShadow: the last instruction was EI, so /INT is not accepted
	// before the next instruction.
	EIShadow bool
	// LDAIR: the last instruction was LD A,I or LD A,R, so an interrupt
	// accepted now clears P/V (the NMOS quirk).
	LDAIR bool
}

// State is the whole state of the CPU between instructions: Regs, the
// inputs it has latched or sampled (a pending NMI edge, the /INT level)
// and the T-state counter. SetState(State()) on a fresh CPU on an equal
// Bus continues exactly as the original would.
type State struct {
	Regs
	NMIPending bool
	INT        bool
	T          uint64
}

// CPU is a timed Z80.
type CPU struct {
	k     z80.CPU
	bus   Bus
	ack   InterruptAck
	rpage *[256]*[256]byte
	wpage *[256]*[256]byte
	flat  *[65536]byte // every read page is this array's, or nil (isFlat)
	// runMem is koron's Memory while Run's fast paths run: pagedMem when
	// no page is nil, readFlatMem when the read pages are flat's and a
	// write page is the Bus's, plainMem otherwise; inRun says they are
	// running.
	runMem z80.Memory
	inRun  bool
	// noBus: every read and write page is plain memory (pagedMem), so
	// Run may take runNoBus.
	noBus bool
	// paged is the copy of the page tables pagedMem serves, allocated
	// the first time no page is nil.
	paged *pagedMem
	// pagesGen counts PagesChanged calls (replay notices new tables).
	pagesGen uint64
	// spin is loop replay's state, nil unless the Bus is a SteadyBus
	// (spin.go); replay counts its work.
	spin   *spinner
	replay ReplayStats

	// Hook is nil when unused. Run reads it when it starts: a Hook set
	// during a Run (from a Bus access) takes effect at the next Run.
	Hook Hook

	t     uint64
	limit uint64
	// sig holds the inputs and the state that take Run off its fast
	// path, one bit each, so that path tests a single byte.
	sig    uint8
	nmi    bool
	memptr uint16

	// Per-instruction state for mapping koron's accesses onto cycles.
	t0      uint64
	waits   uint64
	hi      int // current instruction's entry in hots
	idx     int // next cycle (and buffer slot)
	npre    int // buffer slots served without a bus access
	buf     [8]uint8
	heldA   uint16 // first write of a HiFirst pair, issued after the second
	heldV   uint8
	holding bool
	lastW   uint8
	plain   bool  // koron's Memory is plainMem (Run's plain path), not mem
	xyop    uint8 // the 4th byte of DDCB/FDCB before substitution
	f0      uint8 // F before the instruction
	q       uint8 // Q: the flags the last instruction computed, 0 if none
	// Mismatches counts koron accesses that did not fit the cycle table (a
	// bug in z80host or optable; tests assert it stays 0).
	Mismatches int
}

// mem is the CPU seen as koron's Memory (a distinct type keeps Get/Set out of
// the CPU's method set without an extra pointer hop).
type mem CPU

// New returns a CPU in the reset state (PC = 0, IM 0, interrupts disabled)
// at T-state 0 on bus.
func New(bus Bus) *CPU {
	c := &CPU{bus: bus, rpage: &noPages, wpage: &noPages}
	c.k.Memory = (*mem)(c)
	if p, ok := bus.(Pages); ok {
		if r, w := p.MemoryPages(); r != nil && w != nil {
			c.rpage, c.wpage = r, w
		}
	}
	if sb, ok := bus.(SteadyBus); ok {
		c.spin = &spinner{bus: sb, head: 0xffff}
	}
	c.PagesChanged()
	c.Reset()
	return c
}

// PagesChanged tells the CPU that the Bus changed its page tables. Only a
// Bus that implements FlatMemory needs to call it; the CPU reads the other
// tables on every access anyway.
func (c *CPU) PagesChanged() {
	c.pagesGen++
	c.flat, c.runMem, c.noBus = nil, (*plainMem)(c), false
	if f, ok := c.bus.(FlatMemory); ok {
		if m := f.FlatMemory(); m != nil {
			switch r, w := c.isFlat(m); {
			case r && w:
				c.flat = m
			case r:
				c.flat, c.runMem = m, (*readFlatMem)(c)
			}
		}
		// Also on one flat array: pagedMem (two loads an access) ran W2
		// some 5 % faster than indexing the array (one load) in
		// alternating runs of bench speed's z80host lines, 2026-12-02; why
		// is not known.
		if c.allPaged() {
			// The Bus calls PagesChanged whenever the tables change, so
			// a copy of them stays right until the next call.
			if c.paged == nil {
				c.paged = new(pagedMem)
			}
			c.paged.r, c.paged.w = *c.rpage, *c.wpage
			c.runMem, c.noBus = c.paged, true
		}
	}
	if c.inRun {
		// Between instructions (a Hook) or inside a Bus access of a fast
		// path: both Memory kinds serve the rest of it alike.
		c.k.Memory = c.runMem
	}
}

// allPaged reports whether every read page and every write page is
// plain memory (none nil): no memory access reaches the Bus.
func (c *CPU) allPaged() bool {
	for i := range c.rpage {
		if c.rpage[i] == nil || c.wpage[i] == nil {
			return false
		}
	}
	return true
}

// isFlat reports whether every read page and every write page is m's in
// order; a write page may also be nil (served by the Bus) for w false.
func (c *CPU) isFlat(m *[65536]byte) (r, w bool) {
	r, w = true, true
	for i := range c.rpage {
		p := (*[256]byte)(m[i*256 : i*256+256])
		if c.rpage[i] != p {
			return false, false
		}
		if c.wpage[i] != p {
			if c.wpage[i] != nil {
				return false, false
			}
			w = false
		}
	}
	return r, w
}

// Reset puts the CPU in the reset state: PC, I, R = 0, IM 0, IFF1 = IFF2 =
// 0, not halted; AF and SP = FFFFh (what NMOS parts show after /RESET
// [F Young]); T is not changed.
func (c *CPU) Reset() {
	c.k.States = z80.States{}
	c.k.AF.SetU16(0xffff)
	c.k.SP = 0xffff
	c.sig &^= sigHalted | sigNMI | sigEI | sigLDAIR
	c.memptr, c.q = 0, 0
}

// SetInterruptAck connects the daisy chain.
func (c *CPU) SetInterruptAck(a InterruptAck) { c.ack = a }

// SetINT drives the level-sensitive /INT input (true = asserted).
func (c *CPU) SetINT(level bool) { c.setSig(sigINT, level) }

// NMI signals a falling edge on /NMI; it is accepted at the end of the
// current instruction.
func (c *CPU) NMI() { c.sig |= sigNMI }

// T is the absolute T-state count since reset.
func (c *CPU) T() uint64 { return c.t }

// SetT sets the T-state counter (tests, snapshots).
func (c *CPU) SetT(t uint64) { c.t = t }

// SetLimit changes the limit of the current Run; it may be called from
// inside a bus access to stop early (Run ends after the current instruction).
func (c *CPU) SetLimit(limit uint64) { c.limit = limit }

// Limit is the current Run limit.
func (c *CPU) Limit() uint64 { return c.limit }

// PC is the program counter (the address after HALT while halted).
func (c *CPU) PC() uint16 { return c.k.PC }

// SetPC sets the program counter.
func (c *CPU) SetPC(pc uint16) { c.k.PC = pc }

// Halted reports whether the CPU is in the HALT state.
func (c *CPU) Halted() bool { return c.sig&sigHalted != 0 }

// Regs returns all registers and internal latches.
func (c *CPU) Regs() Regs {
	k := &c.k
	return Regs{
		AF: k.AF.U16(), BC: k.BC.U16(), DE: k.DE.U16(), HL: k.HL.U16(),
		AltAF: k.Alternate.AF.U16(), AltBC: k.Alternate.BC.U16(),
		AltDE: k.Alternate.DE.U16(), AltHL: k.Alternate.HL.U16(),
		IX: k.IX, IY: k.IY, SP: k.SP, PC: k.PC,
		I: k.IR.Hi, R: k.IR.Lo, IFF1: k.IFF1, IFF2: k.IFF2, IM: k.IM,
		Halted: c.Halted(), MEMPTR: c.memptr,
		Q: c.q, EIShadow: c.sig&sigEI != 0, LDAIR: c.sig&sigLDAIR != 0,
	}
}

// SetRegs sets all registers and internal latches, exactly as Regs
// returns them (a zero Q, EIShadow or LDAIR clears that latch).
func (c *CPU) SetRegs(r Regs) {
	k := &c.k
	k.AF.SetU16(r.AF)
	k.BC.SetU16(r.BC)
	k.DE.SetU16(r.DE)
	k.HL.SetU16(r.HL)
	k.Alternate.AF.SetU16(r.AltAF)
	k.Alternate.BC.SetU16(r.AltBC)
	k.Alternate.DE.SetU16(r.AltDE)
	k.Alternate.HL.SetU16(r.AltHL)
	k.IX, k.IY, k.SP, k.PC = r.IX, r.IY, r.SP, r.PC
	k.IR.Hi, k.IR.Lo = r.I, r.R
	k.IFF1, k.IFF2, k.IM = r.IFF1, r.IFF2, r.IM
	c.setSig(sigHalted, r.Halted)
	c.memptr = r.MEMPTR
	c.q = r.Q
	c.setSig(sigEI, r.EIShadow)
	c.setSig(sigLDAIR, r.LDAIR)
}

// State returns the whole state (see State). Call it between
// instructions, not from inside a Bus access.
func (c *CPU) State() State {
	return State{Regs: c.Regs(), NMIPending: c.sig&sigNMI != 0, INT: c.sig&sigINT != 0, T: c.t}
}

// SetState restores a state that State returned.
func (c *CPU) SetState(s State) {
	c.SetRegs(s.Regs)
	c.setSig(sigNMI, s.NMIPending)
	c.setSig(sigINT, s.INT)
	c.t = s.T
}

// Bits of CPU.sig.
const (
	sigHalted = 1 << iota // in the HALT state
	sigNMI                // an NMI edge is pending
	sigINT                // /INT is asserted
	sigEI                 // the last instruction was EI: no INT before the next ends
	sigLDAIR              // the last instruction was LD A,I or LD A,R (the P/V quirk)
)

func (c *CPU) setSig(bit uint8, on bool) {
	if on {
		c.sig |= bit
	} else {
		c.sig &^= bit
	}
}
