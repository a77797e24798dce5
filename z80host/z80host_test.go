package z80host

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logBus is flat RAM that logs every bus cycle with the T-state at which
// it starts, as the Bus contract defines it.
type logBus struct {
	mem    [65536]uint8
	events []string
	waits  int // extra wait states every I/O cycle returns
	in     func(port uint16) uint8
	onIO   func(t uint64)
}

func (b *logBus) Fetch(a uint16, t uint64) uint8 {
	b.events = append(b.events, fmt.Sprintf("%d M1 %04x", t, a))
	return b.mem[a]
}
func (b *logBus) Read(a uint16, t uint64) uint8 {
	b.events = append(b.events, fmt.Sprintf("%d MR %04x", t, a))
	return b.mem[a]
}
func (b *logBus) Write(a uint16, v uint8, t uint64) {
	b.events = append(b.events, fmt.Sprintf("%d MW %04x %02x", t, a, v))
	b.mem[a] = v
}
func (b *logBus) In(p uint16, t uint64) (uint8, int) {
	b.events = append(b.events, fmt.Sprintf("%d IN %04x", t, p))
	if b.onIO != nil {
		b.onIO(t)
	}
	v := uint8(0xff)
	if b.in != nil {
		v = b.in(p)
	}
	return v, b.waits
}
func (b *logBus) Out(p uint16, v uint8, t uint64) int {
	b.events = append(b.events, fmt.Sprintf("%d OUT %04x %02x", t, p, v))
	if b.onIO != nil {
		b.onIO(t)
	}
	return b.waits
}

// only returns the events of the given kinds.
func (b *logBus) only(kinds ...string) []string {
	var out []string
	for _, e := range b.events {
		var t int
		var k string
		fmt.Sscanf(e, "%d %s", &t, &k)
		for _, want := range kinds {
			if k == want {
				out = append(out, e)
			}
		}
	}
	return out
}

type chain struct {
	vector uint8
	acks   []uint64
	retis  []uint64
}

func (c *chain) Acknowledge(t uint64) uint8 { c.acks = append(c.acks, t); return c.vector }
func (c *chain) RETI(t uint64)              { c.retis = append(c.retis, t) }

func newTest(code ...uint8) (*CPU, *logBus, *chain) {
	b := &logBus{}
	copy(b.mem[:], code)
	c := New(b)
	c.SetRegs(Regs{SP: 0xf000})
	ch := &chain{}
	c.SetInterruptAck(ch)
	return c, b, ch
}

// Interrupt acknowledge sequences (docs/HARDWARE.md 2.2).
func TestInterruptModes(t *testing.T) {
	tests := []struct {
		name   string
		im     uint8 // ED 46/56/5E
		vector uint8
		pc     uint16
		ackT   int
		events []string
	}{
		{"IM0 RST 28h", 0x46, 0xef, 0x0028, 13, []string{"23 MW efff 00", "26 MW effe 04"}},
		{"IM1", 0x56, 0x00, 0x0038, 13, []string{"23 MW efff 00", "26 MW effe 04"}},
		{"IM2", 0x5e, 0x11, 0x1234, 19, []string{"23 MW efff 00", "26 MW effe 04", "29 MR 8011", "32 MR 8012"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// IM x; EI; NOP; NOP
			c, b, ch := newTest(0xed, tc.im, 0xfb, 0x00, 0x00)
			b.mem[0x8011], b.mem[0x8012] = 0x34, 0x12
			r := c.Regs()
			r.I = 0x80
			c.SetRegs(r)
			ch.vector = tc.vector
			c.SetINT(true)
			assert.Equal(t, 8, c.Step()) // IM
			assert.Equal(t, 4, c.Step()) // EI
			assert.Equal(t, 4, c.Step()) // NOP: the EI delay
			b.events = nil
			assert.Equal(t, tc.ackT, c.Step())
			assert.Equal(t, []uint64{16}, ch.acks, "INTA cycle starts after NOP")
			assert.Equal(t, tc.events, b.events)
			got := c.Regs()
			assert.Equal(t, tc.pc, got.PC)
			assert.False(t, got.IFF1)
			assert.False(t, got.IFF2, "IFF2 cleared on acknowledge")
			assert.Equal(t, uint16(0xeffe), got.SP)
		})
	}
}

func TestNMIAndRETN(t *testing.T) {
	// EI; NOP; ... and at 0066h RETN
	c, b, _ := newTest(0xfb, 0x00, 0x00)
	b.mem[0x66], b.mem[0x67] = 0xed, 0x45
	c.Step()
	c.Step()
	c.NMI()
	b.events = nil
	assert.Equal(t, 11, c.Step())
	assert.Equal(t, []string{"8 M1 0002", "13 MW efff 00", "16 MW effe 02"}, b.events)
	r := c.Regs()
	assert.Equal(t, uint16(0x66), r.PC)
	assert.False(t, r.IFF1)
	assert.True(t, r.IFF2)
	assert.Equal(t, 14, c.Step())
	r = c.Regs()
	assert.Equal(t, uint16(2), r.PC)
	assert.True(t, r.IFF1, "RETN restores IFF1 from IFF2")
}

func TestHaltWakeAndRETI(t *testing.T) {
	// IM 1; EI; HALT; NOP. Handler at 38h: EI; RETI.
	c, b, ch := newTest(0xed, 0x56, 0xfb, 0x76, 0x00)
	b.mem[0x38], b.mem[0x39], b.mem[0x3a] = 0xfb, 0xed, 0x4d
	c.Step()
	c.Step()
	c.Step()
	require.True(t, c.Halted())
	assert.Equal(t, uint16(4), c.PC(), "PC after HALT")
	t0 := c.T()
	assert.Equal(t, 4, c.Step(), "halted: idle M1 cycles")
	assert.Equal(t, 4, c.Step())
	c.SetINT(true)
	assert.Equal(t, 13, c.Step())
	assert.False(t, c.Halted())
	assert.Equal(t, uint8(0x04), b.mem[0xeffe], "HALT's address + 1 pushed")
	assert.Equal(t, []uint64{t0 + 8}, ch.acks)
	c.SetINT(false)
	c.Step() // EI
	tr := c.T()
	assert.Equal(t, 14, c.Step()) // RETI
	assert.Equal(t, []uint64{tr + 4}, ch.retis, "RETI seen when ED 4D is fetched")
	r := c.Regs()
	assert.Equal(t, uint16(4), r.PC)
	assert.True(t, r.IFF1)
}

func TestRETIRestoresIFF1(t *testing.T) {
	c, b, ch := newTest(0xed, 0x4d)
	b.mem[0xf000], b.mem[0xf001] = 0x00, 0x20
	r := c.Regs()
	r.IFF2 = true
	c.SetRegs(r)
	assert.Equal(t, 14, c.Step())
	r = c.Regs()
	assert.True(t, r.IFF1)
	assert.Equal(t, uint16(0x2000), r.PC)
	assert.Equal(t, []uint64{4}, ch.retis)
}

func TestEIDelayBlocksOneInstruction(t *testing.T) {
	// EI; EI; NOP: INT is not accepted after either EI.
	c, _, ch := newTest(0xfb, 0xfb, 0x00, 0x00)
	ch.vector = 0xff // RST 38h in IM 0
	c.SetINT(true)
	c.Step()
	c.Step()
	c.Step()
	assert.Empty(t, ch.acks)
	assert.Equal(t, 13, c.Step())
	assert.Len(t, ch.acks, 1)
	assert.Equal(t, uint16(0x38), c.PC())
}

func TestIM0OneByteOpcode(t *testing.T) {
	// IM 0 with a non-RST opcode on the bus (here INC A): the INTA cycle is
	// its fetch, 2 T longer than a normal M1.
	c, _, ch := newTest(0xfb, 0x00, 0x00)
	ch.vector = 0x3c
	c.SetRegs(Regs{AF: 0x0f00, SP: 0xf000})
	c.SetINT(true)
	c.Step()
	c.Step()
	assert.Equal(t, 6, c.Step())
	r := c.Regs()
	assert.Equal(t, uint16(0x1010), r.AF, "INC A executed: 10h, H")
	assert.Equal(t, uint8(0x10), r.Q, "Q is the F that INC A computed")
	assert.Equal(t, uint16(2), r.PC)
	assert.False(t, r.IFF1)
}

// Block I/O: B/C on the port address, cycle positions and 21/16 T
// (docs/HARDWARE.md 2.1).
func TestBlockIOTiming(t *testing.T) {
	tests := []struct {
		name   string
		op     uint8
		events []string
		t      uint64
	}{
		{"INIR", 0xb2, []string{
			"9 IN 0340", "13 MW 9000 aa", "30 IN 0240", "34 MW 9001 aa", "51 IN 0140", "55 MW 9002 aa"}, 58},
		{"INDR", 0xba, []string{
			"9 IN 0340", "13 MW 9000 aa", "30 IN 0240", "34 MW 8fff aa", "51 IN 0140", "55 MW 8ffe aa"}, 58},
		{"OTIR", 0xb3, []string{
			"9 MR 9000", "12 OUT 0240 01", "30 MR 9001", "33 OUT 0140 02", "51 MR 9002", "54 OUT 0040 03"}, 58},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, b, _ := newTest(0xed, tc.op)
			copy(b.mem[0x9000:], []uint8{1, 2, 3})
			b.in = func(uint16) uint8 { return 0xaa }
			c.SetRegs(Regs{BC: 0x0340, HL: 0x9000, SP: 0xf000})
			for c.PC() == 0 {
				c.Step()
			}
			assert.Equal(t, tc.events, b.only("IN", "OUT", "MR", "MW"))
			assert.Equal(t, tc.t, c.T())
			assert.Equal(t, uint8(0), uint8(c.Regs().BC>>8))
		})
	}
}

func TestIOPortAddressAndWaits(t *testing.T) {
	// LD A,12h; IN A,(34h); OUT (C),B; IN E,(C); NOP
	c, b, _ := newTest(0x3e, 0x12, 0xdb, 0x34, 0xed, 0x41, 0xed, 0x58, 0x00)
	c.SetRegs(Regs{BC: 0x5678, SP: 0xf000})
	b.waits = 2
	b.in = func(p uint16) uint8 { return uint8(p) }
	assert.Equal(t, 7, c.Step())
	assert.Equal(t, 13, c.Step(), "11 T + 2 waits")
	assert.Equal(t, 14, c.Step())
	assert.Equal(t, 14, c.Step())
	c.Step()
	assert.Equal(t, []string{
		"0 M1 0000", "4 MR 0001",
		"7 M1 0002", "11 MR 0003", "14 IN 1234",
		"20 M1 0004", "24 M1 0005", "28 OUT 5678 56",
		"34 M1 0006", "38 M1 0007", "42 IN 5678",
		"48 M1 0008",
	}, b.events)
	r := c.Regs()
	assert.Equal(t, uint16(0x3400), r.AF&0xff00)
	assert.Equal(t, uint8(0x78), uint8(r.DE))
}

type stopAt struct{ pc uint16 }

func (s stopAt) BeforeInstruction(pc uint16, t uint64) bool { return pc == s.pc }

func TestRunLimitHookAndHaltSkip(t *testing.T) {
	// NOP x3; OUT (0),A; NOP; HALT
	c, b, _ := newTest(0x00, 0x00, 0x00, 0xd3, 0x00, 0x00, 0x76)
	assert.False(t, c.Run(6))
	assert.Equal(t, uint64(8), c.T(), "whole instructions while T < limit")
	// A bus access may lower the limit: Run ends after that instruction.
	b.onIO = func(t uint64) { c.SetLimit(t) }
	c.Run(1000)
	assert.Equal(t, uint64(23), c.T())
	b.onIO = nil
	c.Hook = stopAt{0x0006}
	assert.True(t, c.Run(1000))
	assert.Equal(t, uint16(6), c.PC())
	c.Hook = nil
	c.Run(1000)
	assert.True(t, c.Halted())
	assert.GreaterOrEqual(t, c.T(), uint64(1000))
	assert.Less(t, c.T(), uint64(1004))
	assert.Equal(t, uint64(0), (c.T()-31)%4, "idle M1 cycles are 4 T")
}

func TestRegsRoundTrip(t *testing.T) {
	c, _, _ := newTest()
	r := Regs{AF: 1, BC: 2, DE: 3, HL: 4, AltAF: 5, AltBC: 6, AltDE: 7, AltHL: 8, IX: 9, IY: 10,
		SP: 11, PC: 12, I: 13, R: 14, IFF1: true, IFF2: true, IM: 2, Halted: true, MEMPTR: 15}
	c.SetRegs(r)
	assert.Equal(t, r, c.Regs())
}

func sscan(e string, t *int) (int, error) { return fmt.Sscanf(e, "%d", t) }

func TestPrefixChainIsOneStep(t *testing.T) {
	// DD FD 21 34 12: the DD is a 4 T no-op, then LD IY,1234h (14 T), all
	// in one Step, so nothing can come between a prefix and its opcode.
	c, b, ch := newTest(0xfb, 0x00, 0xdd, 0xfd, 0x21, 0x34, 0x12)
	ch.vector = 0xff
	c.Step()
	c.Step()
	r := c.Regs()
	r.IFF1, r.IFF2 = false, false
	c.SetRegs(r)
	b.events = nil
	assert.Equal(t, 18, c.Step())
	assert.Equal(t, []string{"8 M1 0002", "12 M1 0003", "16 M1 0004", "20 MR 0005", "23 MR 0006"}, b.events)
	r = c.Regs()
	assert.Equal(t, uint16(0x1234), r.IY)
	assert.Equal(t, uint16(7), r.PC)
	assert.Equal(t, uint8(5), r.R, "R counts EI, NOP and three M1 cycles")
}

func TestLDAIParityQuirk(t *testing.T) {
	// EI; NOP; LD A,I with INT pending: P/V read IFF2 = 1, but the
	// interrupt accepted right after clears it (NMOS).
	c, _, ch := newTest(0xfb, 0x00, 0xed, 0x57, 0x00)
	ch.vector = 0xff
	c.Step()
	c.Step()
	c.Step()
	assert.NotZero(t, c.Regs().AF&0x04, "P/V = IFF2")
	c.SetINT(true)
	assert.Equal(t, 13, c.Step())
	assert.Zero(t, c.Regs().AF&0x04)
}

// SCF/CCF flags 3/5 = A | (F &^ Q): Q is the flags the previous
// instruction computed (CP here), 0 after one that computed none (NOP).
func TestSCFUsesQ(t *testing.T) {
	tests := []struct {
		name string
		code []byte
		want uint16
	}{
		{"CP then SCF", []byte{0x3e, 0x00, 0xfe, 0x28, 0x37}, 0x00},
		{"CP, NOP, SCF", []byte{0x3e, 0x00, 0xfe, 0x28, 0x00, 0x37}, 0x28},
		{"CP then CCF", []byte{0x3e, 0x00, 0xfe, 0x28, 0x3f}, 0x00},
		{"CP, LD B,A, CCF", []byte{0x3e, 0x00, 0xfe, 0x28, 0x47, 0x3f}, 0x28},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := newTest(tc.code...)
			for int(c.PC()) < len(tc.code) {
				c.Step()
			}
			assert.Equal(t, tc.want, c.Regs().AF&0x28)
		})
	}
}

// Extra wait states from an I/O cycle delay the rest of the instruction:
// INI with 3 waits writes 3 T later and takes 19 T.
func TestWaitsStretchLaterCycles(t *testing.T) {
	c, b, _ := newTest(0xed, 0xa2, 0x00)
	c.SetRegs(Regs{BC: 0x0240, HL: 0x9000, SP: 0xf000})
	b.waits = 3
	assert.Equal(t, 19, c.Step())
	c.Step()
	assert.Equal(t, []string{"0 M1 0000", "4 M1 0001", "9 IN 0240", "16 MW 9000 ff", "19 M1 0002"}, b.events)
}

func TestNMIWakesHalt(t *testing.T) {
	// DI; HALT: INT cannot wake it, NMI does and returns past the HALT.
	c, b, _ := newTest(0xf3, 0x76, 0x00)
	c.SetINT(true)
	c.Step()
	c.Step()
	c.Run(100)
	require.True(t, c.Halted())
	c.NMI()
	assert.Equal(t, 11, c.Step())
	assert.False(t, c.Halted())
	assert.Equal(t, uint16(0x66), c.PC())
	assert.Equal(t, []uint8{0x02, 0x00}, b.mem[0xeffe:0xf000])
}

// countBus is ramBus counting the reads that reach the Bus.
type countBus struct {
	ramBus
	reads int
}

func (b *countBus) Read(a uint16, t uint64) uint8 { b.reads++; return b.ramBus.Read(a, t) }

type hookFunc func(pc uint16, t uint64) bool

func (f hookFunc) BeforeInstruction(pc uint16, t uint64) bool { return f(pc, t) }

// Flat memory is used only while the page tables are one array, and a
// change the Bus reports (PagesChanged) takes effect at the next access,
// also when a Hook makes it between two instructions of one Run.
func TestFlatMemoryFollowsPageChanges(t *testing.T) {
	b := &countBus{ramBus: *newRAMBus()}
	for i := range b.rpage { // the copy's pages must point into the copy
		p := (*[256]byte)(b.mem[i*256 : i*256+256])
		b.rpage[i], b.wpage[i] = p, p
	}
	// LD HL,0; LD A,(HL); LD B,A; LD H,80h; LD A,(HL); LD C,A; LD A,(HL);
	// HALT (plain instructions: the fast path)
	b.load(0x100, []byte{0x21, 0x00, 0x00, 0x7e, 0x47, 0x26, 0x80, 0x7e, 0x4f, 0x7e, 0x76})
	b.mem[0x0000], b.mem[0x8000] = 0x55, 0x66
	c := New(b)
	require.True(t, c.flat != nil, "one array: flat")
	run := func() Regs {
		r := c.Regs()
		r.PC, r.Halted = 0x100, false
		c.SetRegs(r)
		c.Run(c.T() + 100)
		return c.Regs()
	}
	r := run()
	assert.Equal(t, uint16(0x5566), r.BC, "RAM at 0000h and 8000h")
	assert.Zero(t, b.reads)

	var rom [256]byte
	rom[0] = 0xaa
	b.rpage[0] = &rom // a ROM over page 0 for reads
	c.PagesChanged()
	assert.True(t, c.flat == nil, "page 0 reads another array: not flat")
	r = run()
	assert.Equal(t, uint16(0xaa66), r.BC, "the ROM's byte at 0000h")

	b.rpage[0] = b.wpage[0]
	c.PagesChanged()
	require.True(t, c.flat != nil)
	// Between the two reads of 8000h a Hook hands page 80h to the Bus.
	c.Hook = hookFunc(func(pc uint16, _ uint64) bool {
		if pc == 0x109 {
			b.rpage[0x80], b.wpage[0x80] = nil, nil
			c.PagesChanged()
		}
		return false
	})
	b.mem[0x8000] = 0x77
	r = run()
	assert.Equal(t, uint16(0x5577), r.BC)
	assert.Equal(t, uint8(0x77), uint8(r.AF>>8))
	assert.Equal(t, 1, b.reads, "the second LD A,(HL) at 8000h went to the Bus")
	assert.True(t, c.flat == nil)
	assert.Zero(t, c.Mismatches)
}

// logWrites is countBus that keeps each write the Bus serves, with its
// T-state.
type logWrites struct {
	countBus
	writes []uint64
}

func (b *logWrites) Write(a uint16, v uint8, t uint64) {
	b.writes = append(b.writes, uint64(a)<<32|t)
	b.countBus.Write(a, v, t)
}

// A watched write page (nil: the Bus serves it) under flat read pages:
// reads are still served from the array without the Bus, and the writes
// to the watched page reach the Bus at the T-states Step gives them.
func TestReadFlatMemoryWatchedWrites(t *testing.T) {
	// LD HL,9000h; LD (HL),A; INC (HL); LD SP,9010h; PUSH BC; LD A,(HL);
	// HALT (plain and quick instructions)
	code := []byte{0x21, 0x00, 0x90, 0x77, 0x34, 0x31, 0x10, 0x90, 0xc5, 0x7e, 0x76}
	setup := func() (*CPU, *logWrites) {
		b := &logWrites{countBus: countBus{ramBus: *newRAMBus()}}
		for i := range b.rpage {
			p := (*[256]byte)(b.mem[i*256 : i*256+256])
			b.rpage[i], b.wpage[i] = p, p
		}
		b.wpage[0x90] = nil
		b.load(0x100, code)
		c := New(b)
		r := c.Regs()
		r.PC, r.AF, r.BC = 0x100, 0x4200, 0x1234
		c.SetRegs(r)
		return c, b
	}
	run, rb := setup()
	require.True(t, run.flat != nil, "reads are flat")
	_, isReadFlat := run.runMem.(*readFlatMem)
	require.True(t, isReadFlat, "a write page is the Bus's")
	run.Run(run.T() + 200)

	step, sb := setup()
	for !step.Regs().Halted {
		step.Step()
	}
	assert.Equal(t, sb.writes, rb.writes, "the Bus's writes and their T-states")
	assert.Len(t, rb.writes, 4, "LD, INC, the two bytes of PUSH")
	assert.Equal(t, uint8(0x43), rb.mem[0x9000])
	assert.Equal(t, []byte{0x34, 0x12}, rb.mem[0x900e:0x9010])
	assert.Equal(t, uint8(0x43), uint8(run.Regs().AF>>8))
	assert.Zero(t, rb.reads, "no read went to the Bus")
	assert.Zero(t, run.Mismatches)
}
