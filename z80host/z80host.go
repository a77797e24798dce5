// Package z80host is a cycle-exact Z80A: koron-go/z80 supplies the
// instruction semantics, z80host owns time and the bus.
//
// Every memory and I/O access reaches the Bus at the absolute T-state at
// which its machine cycle starts (the FUSE test-vector convention; the
// cycle positions come from package optable). I/O cycles carry the full
// 16-bit port address (A or B on A15-A8) and include the automatic wait
// state; extra wait states a device returns stretch the instruction and
// every later access in it. Interrupts (IM 0/1/2 through the daisy chain,
// NMI) are acknowledged with the T-states of the Z80 CPU User Manual
// (REFERENCE.md 2.2), after the EI delay, and ED 4D (RETI) is reported to the
// daisy chain as it is fetched.
//
// How it wraps koron: z80host fetches the opcode (and prefix) bytes itself,
// looks up the instruction's machine cycles, then lets koron execute it from
// a buffer of the prefetched bytes. koron's later Memory.Get/Set calls are
// mapped in order onto the remaining cycles of the instruction. Instructions
// koron gets wrong or lacks are executed here instead: all I/O instructions
// (port address, block-I/O flags, INI/IND reading port C), HALT (PC left
// after HALT), EI (one-instruction delay), undocumented ED opcodes, DD/FD
// prefixes in front of opcodes that do not use HL, DDCB/FDCB register-copy
// forms. After koron runs, z80host fixes R (koron does not count prefixes
// right), IFF1 after RETI, the MEMPTR register and the BIT flags that show
// MEMPTR. koron's IO interface is never used.
//
// Known inaccuracies / assumptions:
//   - While halted the CPU performs 4 T M1 cycles at PC (the address after
//     HALT); Step presents them to the Bus, Run skips them in one go without
//     Bus calls when no interrupt is pending [A]. FUSE keeps PC on the HALT
//     opcode instead; the visible return address (HALT+1) is the same.
//   - IM 0 executes only one-byte opcodes from the data bus (RST n is what
//     Z80 peripherals supply); a multi-byte opcode reads its operands from
//     memory at PC instead of from the bus [A].
//   - Memory cycles cannot be stretched by WAIT (the Bus memory methods
//     return no wait count); only I/O cycles can.
//   - INT is sampled when Step begins, i.e. at the end of the previous
//     instruction, not at the rising edge of its last T-state; BUSREQ is not
//     modelled.
//   - LD A,I / LD A,R do not show the NMOS quirk of P/V = 0 when an
//     interrupt is accepted right after them.
//   - The repeat-time flag quirks of LDIR/CPIR/INIR/OTIR found in 2018
//     (flags 3/5 from PC, extra H/P changes) are not modelled; FUSE and
//     ZEXALL do not test them.
//   - The NMI's M1 cycle is presented to the Bus as an opcode fetch whose
//     byte is ignored.
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

// Regs is the programmer-visible state, for debuggers and tests.
type Regs struct {
	AF, BC, DE, HL             uint16
	AltAF, AltBC, AltDE, AltHL uint16
	IX, IY, SP, PC             uint16
	I, R                       uint8
	IFF1, IFF2                 bool
	IM                         int
	Halted                     bool
	MEMPTR                     uint16 // the internal WZ register
}

// CPU is a timed Z80.
type CPU struct {
	k     z80.CPU
	bus   Bus
	ack   InterruptAck
	rpage *[256]*[256]byte
	wpage *[256]*[256]byte

	// Hook is nil when unused.
	Hook Hook

	t       uint64
	limit   uint64
	intLine bool
	nmi     bool
	eiBlock bool // EI executed: no INT before the next instruction ends
	halted  bool
	memptr  uint16

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
	xyop    uint8 // the 4th byte of DDCB/FDCB before substitution
	f0      uint8 // F before the instruction
	// Mismatches counts koron accesses that did not fit the cycle table (a
	// bug in z80host or optable; tests assert it stays 0).
	Mismatches int
}

type mem struct{ c *CPU }

// New returns a CPU in the reset state (PC = 0, IM 0, interrupts disabled)
// at T-state 0 on bus.
func New(bus Bus) *CPU {
	c := &CPU{bus: bus, rpage: &noPages, wpage: &noPages}
	c.k.Memory = &mem{c}
	if p, ok := bus.(Pages); ok {
		if r, w := p.MemoryPages(); r != nil && w != nil {
			c.rpage, c.wpage = r, w
		}
	}
	c.Reset()
	return c
}

// Reset puts the CPU in the reset state; T is not changed.
func (c *CPU) Reset() {
	c.k.States = z80.States{}
	c.k.AF.SetU16(0xffff)
	c.k.SP = 0xffff
	c.halted, c.eiBlock, c.nmi = false, false, false
	c.memptr = 0
}

// SetInterruptAck connects the daisy chain.
func (c *CPU) SetInterruptAck(a InterruptAck) { c.ack = a }

// SetINT drives the level-sensitive /INT input (true = asserted).
func (c *CPU) SetINT(level bool) { c.intLine = level }

// NMI signals a falling edge on /NMI; it is accepted at the end of the
// current instruction.
func (c *CPU) NMI() { c.nmi = true }

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
func (c *CPU) Halted() bool { return c.halted }

// Regs returns all registers.
func (c *CPU) Regs() Regs {
	k := &c.k
	return Regs{
		AF: k.AF.U16(), BC: k.BC.U16(), DE: k.DE.U16(), HL: k.HL.U16(),
		AltAF: k.Alternate.AF.U16(), AltBC: k.Alternate.BC.U16(),
		AltDE: k.Alternate.DE.U16(), AltHL: k.Alternate.HL.U16(),
		IX: k.IX, IY: k.IY, SP: k.SP, PC: k.PC,
		I: k.IR.Hi, R: k.IR.Lo, IFF1: k.IFF1, IFF2: k.IFF2, IM: k.IM,
		Halted: c.halted, MEMPTR: c.memptr,
	}
}

// SetRegs sets all registers.
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
	c.halted, c.memptr = r.Halted, r.MEMPTR
}
