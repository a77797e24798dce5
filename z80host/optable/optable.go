// Package optable holds the timing of every Z80 instruction: its length in
// bytes, its T-states (both counts for conditional and repeating forms) and
// its machine-cycle breakdown, i.e. at which T-state, relative to the start
// of the instruction, each memory or I/O cycle begins.
//
// Sources: Zilog Z80 CPU User Manual UM0080 instruction tables [F Z80UM] for
// the counts; the cycle positions follow the FUSE emulator's core tests
// (where internal T-states are attached to the end of the preceding machine
// cycle), which agree with [F SST] for the I/O instructions (docs/HARDWARE.md
// 2.1). Undocumented instructions (IXH/IXL, SLL, DDCB register copies, ED
// duplicates, DD/FD before an opcode that does not use HL) are included.
//
// The machine cycles of an instruction are listed in bus order. Internal
// T-states (no bus cycle) are folded into the Len of the cycle before them,
// so the start of each cycle is the sum of the lengths before it.
//
// Known inaccuracies / assumptions:
//   - Where an extra internal T-state sits inside a cycle rather than after
//     it (e.g. the 4th cycle of LD (IX+d),n), only the start times of bus
//     cycles are modelled; the T-state inside the cycle at which the data is
//     sampled is not.
//   - A DD or FD prefix followed by another prefix (DD, ED, FD) is reported
//     as a one-byte, 4 T "instruction": the CPU ignores the first prefix.
package optable

// Kind is the type of a machine cycle.
type Kind uint8

// Machine cycle kinds.
const (
	Fetch Kind = iota // M1 opcode fetch (with refresh)
	Read              // memory read
	Write             // memory write
	In                // I/O read (one automatic wait state included)
	Out               // I/O write (one automatic wait state included)
)

func (k Kind) String() string {
	return [...]string{"M1", "MR", "MW", "IOR", "IOW"}[k]
}

// Cycle is one machine cycle with a bus access.
type Cycle struct {
	Kind  Kind
	Start uint8 // T-state offset from the start of the instruction
	Len   uint8 // T-states including internal ones that follow before the next cycle
	// HiFirst marks the first of two write cycles that store a 16-bit
	// value high byte first (PUSH, CALL, RST, EX (SP),HL): this cycle writes
	// the higher address, the next one the lower.
	HiFirst bool
}

// Cond says how an instruction chooses between T and TAlt.
type Cond uint8

// Conditions.
const (
	Always Cond = iota // T == TAlt
	Flag               // cc in opcode bits 5-3 (JR cc uses bits 4-3): T if true
	DJNZ               // T if B != 0 after decrement
	Repeat             // block instruction: T if it repeats (PC -= 2)
)

// Info is the timing of one instruction.
type Info struct {
	Len  int  // bytes, prefixes and operands included
	T    int  // T-states; the taken/repeating count for conditional forms
	TAlt int  // T-states when the condition fails / the block ends (== T if Always)
	Cond Cond // which count applies
	M1   int  // M1 cycles (each increments R)
	// Cycles lists the bus cycles of the T path in order. The TAlt path
	// performs Cycles[:NAlt].
	Cycles []Cycle
	NAlt   int
	// Valid is false for a slice too short to hold the instruction.
	Valid bool
}

// Tables per prefix, indexed by the opcode byte (for DDCB/FDCB the 4th
// byte). XY serves both DD and FD.
var (
	Base [256]Info
	CB   [256]Info
	ED   [256]Info
	XY   [256]Info
	XYCB [256]Info
	// XYIndexed is true for the opcodes a DD/FD prefix changes (HL becomes
	// IX/IY, H/L become IXH/IXL, (HL) becomes (IX+d)). In front of any other
	// opcode the prefix is a 4 T no-op and the opcode runs unchanged.
	XYIndexed [256]bool
	// Prefix is the 4 T "instruction" a DD/FD prefix makes when another
	// prefix follows it.
	Prefix Info
)

// Lookup returns the timing of the instruction whose encoded bytes start
// code. Extra bytes after the instruction are ignored. If code is too short
// the result has Valid false (Len still tells how many bytes are needed when
// the prefix bytes were present).
func Lookup(code []byte) Info {
	p := Get(code)
	if p == nil {
		return Info{}
	}
	in := *p
	if len(code) < in.Len {
		in.Valid = false
	}
	return in
}

// Get is Lookup without the copy; nil when code is empty or a prefix has no
// following opcode byte. The result is shared: do not modify it.
func Get(code []byte) *Info {
	if len(code) == 0 {
		return nil
	}
	switch code[0] {
	case 0xcb:
		if len(code) < 2 {
			return nil
		}
		return &CB[code[1]]
	case 0xed:
		if len(code) < 2 {
			return nil
		}
		return &ED[code[1]]
	case 0xdd, 0xfd:
		if len(code) < 2 {
			return nil
		}
		switch code[1] {
		case 0xdd, 0xfd, 0xed:
			return &Prefix
		case 0xcb:
			if len(code) < 4 {
				return nil
			}
			return &XYCB[code[3]]
		}
		return &XY[code[1]]
	}
	return &Base[code[0]]
}
