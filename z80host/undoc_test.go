package z80host

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Q is the F an instruction leaves after every correction z80host makes
// (docs/HARDWARE.md 2.4): SCF/CCF take flags 5 and 3 from A | (F &^ Q).
// Expected values worked out by hand from that rule.
func TestQAfterCorrections(t *testing.T) {
	tests := []struct {
		name  string
		regs  Regs
		mem   map[uint16]uint8
		code  []byte
		wantF uint8
	}{
		// SCF: F 28 -> 29 (Q = 0 before), Q = 29; SCF: 5/3 = 00 | (29 &^ 29).
		{"SCF; SCF", Regs{AF: 0x0028}, nil, []byte{0x37, 0x37}, 0x01},
		// SCF -> 29, Q = 29; CCF: C 1 -> 0, H = old C, 5/3 = 0.
		{"SCF; CCF", Regs{AF: 0x0028}, nil, []byte{0x37, 0x3f}, 0x10},
		// CCF: C 0 -> 1, H 0, 5/3 = 28 -> F 29, Q 29; CCF -> H 1, C 0, 5/3 0.
		{"CCF; CCF", Regs{AF: 0x0028}, nil, []byte{0x3f, 0x3f}, 0x10},
		// BIT 0,(HL) with (HL) = 0 and MEMPTR 28FFh: Z P H and 5/3 = 28h
		// from MEMPTR, F = 7C = Q; SCF keeps S Z P, sets C, 5/3 = 0.
		{"BIT 0,(HL); SCF", Regs{HL: 0x9000, MEMPTR: 0x28ff}, map[uint16]uint8{0x9000: 0}, []byte{0xcb, 0x46, 0x37}, 0x45},
		// BIT 2,(IX+5) at 2800h = 04h: H, 5/3 from 28h -> F 38 = Q; SCF -> 01.
		{"BIT 2,(IX+d); SCF", Regs{IX: 0x27fb}, map[uint16]uint8{0x2800: 0x04}, []byte{0xdd, 0xcb, 0x05, 0x56, 0x37}, 0x01},
		// CP 28h from A = 0: F = BB, Q = BB; a DD prefix alone computes no
		// flags and clears Q, so SCF takes 5/3 from F: A9.
		{"CP; DD; SCF", Regs{}, nil, []byte{0xfe, 0x28, 0xdd, 0x37}, 0xa9},
		// Without the prefix, Q = F and 5/3 = A = 0: 81.
		{"CP; SCF", Regs{}, nil, []byte{0xfe, 0x28, 0x37}, 0x81},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, b, _ := newTest(tc.code...)
			for a, v := range tc.mem {
				b.mem[a] = v
			}
			tc.regs.SP = 0xf000
			c.SetRegs(tc.regs)
			for int(c.PC()) < len(tc.code) {
				c.Step()
			}
			assert.Equal(t, tc.wantF, uint8(c.Regs().AF), "F = %02x", uint8(c.Regs().AF))
			assert.Equal(t, tc.wantF, c.Regs().Q, "Q is the F the SCF/CCF left")
		})
	}
}

// One iteration of each repeating block instruction (docs/HARDWARE.md 2.4):
// flags and MEMPTR after an iteration that repeats, and after one that
// does not. Expected values worked out by hand from the published rules.
func TestRepeatingBlockFlags(t *testing.T) {
	tests := []struct {
		name       string
		pc         uint16
		op         uint8
		regs       Regs
		data       uint8 // at HL, and what the port returns
		wantF      uint8
		wantMEMPTR uint16
		wantPC     uint16
	}{
		// LDI part: A+n = 0 -> 5/3 = 0, P/V = 1; repeating: 5/3 = PCh 28h.
		{"LDIR repeats", 0x2800, 0xb0, Regs{BC: 2, HL: 0x9000, DE: 0xa000}, 0x00, 0x2c, 0x2801, 0x2800},
		// Last iteration: per-byte flags, P/V 0, MEMPTR untouched.
		{"LDIR ends", 0x2800, 0xb0, Regs{BC: 1, HL: 0x9000, DE: 0xa000, MEMPTR: 0x1234}, 0x00, 0x00, 0x1234, 0x2802},
		// A+n = 0Ah would give 5/3 = 28h; PCh = 08h gives only 3.
		{"LDDR repeats", 0x0800, 0xb8, Regs{AF: 0x0800, BC: 2, HL: 0x9000, DE: 0xa000}, 0x02, 0x0c, 0x0801, 0x0800},
		// CPI part: 00-01: S H N, P/V 1, n = FE -> 5/3 = 28h (F BE);
		// repeating: 5/3 = PCh 20h.
		{"CPIR repeats", 0x2000, 0xb1, Regs{BC: 2, HL: 0x9000}, 0x01, 0xb6, 0x2001, 0x2000},
		{"CPDR repeats", 0x0800, 0xb9, Regs{BC: 2, HL: 0x9000}, 0x01, 0x9e, 0x0801, 0x0800},
		// INI part (B 2 -> 1, k = 80h + 11h = 91h): N, P = par(1^1) = 1 (F 06).
		// Repeating: 5/3 = 28h; no carry, so P ^= !par(B&7 = 1): P = 0.
		{"INIR repeats, no carry", 0x2800, 0xb2, Regs{BC: 0x0210, HL: 0x9000}, 0x80, 0x2a, 0x2801, 0x2800},
		// B 11h -> 10h, k = FFh + 11h = 110h: N H C, P = par(0^10h) = 0 (F 13).
		// Repeating: 5/3 = 08h; carry and bit 7: H = (B&0F = 0) = 1,
		// P ^= !par((B-1)&7 = 7): P = 1.
		{"INIR repeats, carry, bit 7", 0x0800, 0xb2, Regs{BC: 0x1110, HL: 0x9000}, 0xff, 0x1f, 0x0801, 0x0800},
		// IND part (B 10h -> 0Fh, k = 7Fh + 8Fh = 10Eh): 3 from B, H C,
		// P = par(6^0Fh) = 1 (F 1D). Repeating: 5/3 = 28h; carry, bit 7
		// clear: H = (B&0F = 0F) = 1, P ^= !par((B+1)&7 = 0): stays 1.
		{"INDR repeats, carry", 0x2800, 0xba, Regs{BC: 0x1090, HL: 0x9000}, 0x7f, 0x3d, 0x2801, 0x2800},
		// Last iteration: B 1 -> 0: Z N, P = par(1^0) = 0; MEMPTR = BC+1.
		{"INIR ends", 0x2800, 0xb2, Regs{BC: 0x0110, HL: 0x9000}, 0x80, 0x42, 0x0111, 0x2802},
		// OUTI part (B 2 -> 1, L after = 00h, k = 7Fh): P = par(7^1) = 1 (F 04).
		// Repeating: 5/3 = 20h; no carry: P ^= !par(1): P = 0.
		{"OTIR repeats", 0x2000, 0xb3, Regs{BC: 0x0210, HL: 0x90ff}, 0x7f, 0x20, 0x2001, 0x2000},
		// OUTD part (B 10h -> 0Fh, L after = 9Fh, k = 70h + 9Fh = 10Fh):
		// 3 from B, H C, P = par(7^0Fh) = 0 (F 19). Repeating: 5/3 = 00h;
		// carry, bit 7 clear: H = 1, P ^= !par((B+1)&7 = 0): stays 0.
		{"OTDR repeats", 0x0000, 0xbb, Regs{BC: 0x1010, HL: 0x90a0}, 0x70, 0x11, 0x0001, 0x0000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, b, _ := newTest()
			b.mem[tc.pc], b.mem[tc.pc+1] = 0xed, tc.op
			b.mem[tc.regs.HL] = tc.data
			b.in = func(uint16) uint8 { return tc.data }
			tc.regs.PC, tc.regs.SP = tc.pc, 0xf000
			c.SetRegs(tc.regs)
			c.Step()
			r := c.Regs()
			assert.Equal(t, tc.wantPC, r.PC, "PC")
			assert.Equal(t, tc.wantF, uint8(r.AF), "F = %02x", uint8(r.AF))
			assert.Equal(t, tc.wantMEMPTR, r.MEMPTR, "MEMPTR = %04x", r.MEMPTR)
			assert.Zero(t, c.Mismatches)
		})
	}
}

// An interrupt between two iterations sees the repeat-time flags: the
// handler's PUSH AF stores them.
func TestInterruptedLDIRFlags(t *testing.T) {
	c, b, _ := newTest()
	copy(b.mem[0x2800:], []uint8{0xed, 0xb0})
	copy(b.mem[0x0038:], []uint8{0xf5}) // PUSH AF
	c.SetRegs(Regs{PC: 0x2800, SP: 0xf000, BC: 3, HL: 0x9000, DE: 0xa000, IFF1: true, IFF2: true, IM: 1})
	c.Step() // first iteration, repeats
	c.SetINT(true)
	assert.Equal(t, 13, c.Step(), "IM 1 acknowledge")
	c.Step() // PUSH AF
	assert.Equal(t, uint8(0x2c), b.mem[0xeffc], "F pushed by the handler")
	assert.Equal(t, []uint8{0x00, 0x28}, b.mem[0xeffe:0xf000], "return address is the LDIR")
}

// flatLogBus is pagedLogBus whose pages are its own memory in order
// (FlatMemory), so Run takes its flat-memory paths.
type flatLogBus struct{ pagedLogBus }

func (b *flatLogBus) FlatMemory() *[65536]byte { return &b.mem }

// SCF and CCF behind DD/FD prefixes (docs/HARDWARE.md 2.4): the prefix is
// an instruction of its own that computes no flags, so it clears Q and
// flags 5/3 come from A OR F whatever Q was before it; Q afterwards is the
// F the SCF/CCF left, so a plain SCF after it takes 5/3 from A alone.
// Each case runs through Step with every access on the Bus and through
// Run with all memory on pages and with the pages one flat array.
// Expected values worked out by hand from the rule; the "Q kept" values
// are what F would be if the prefix left Q alone.
func TestPrefixedSCFCCFClearQ(t *testing.T) {
	tests := []struct {
		name     string
		code     []byte // prefixes, then 37h (SCF) or 3Fh (CCF)
		a, f, q  uint8  // before the prefix
		wantF    uint8  // F and Q after the prefixed SCF/CCF
		wantNext uint8  // F and Q after a plain SCF that follows
	}{
		// SCF keeps S Z P/V (F AND C4h), sets C; 5/3 = (00 | 28) = 28.
		// The next SCF: 5/3 = A AND 28h = 00 (Q = 29 hides F's).
		{"DD SCF, Q 0", []byte{0xdd, 0x37}, 0x00, 0x28, 0x00, 0x29, 0x01},
		// Same with Q = 28h before the prefix (Q kept: 01).
		{"DD SCF, Q set", []byte{0xdd, 0x37}, 0x00, 0x28, 0x28, 0x29, 0x01},
		// 92h AND C4h = 80h, C; 5/3 = (AE | 92) AND 28h = 28h: A9h.
		{"FD SCF, Q set", []byte{0xfd, 0x37}, 0xae, 0x92, 0x92, 0xa9, 0xa9},
		// 75h AND C4h = 44h, C; 5/3 = (50 | 75) AND 28h = 20h: 65h (Q
		// kept: 45h). Next: 44h, C, 5/3 = 50h AND 28h = 0: 45h.
		{"FD SCF, Q set, A bits", []byte{0xfd, 0x37}, 0x50, 0x75, 0x75, 0x65, 0x45},
		// 08h | 20h gives both 5 and 3: 29h (Q kept: 09h); next 09h.
		{"FD SCF, 3 from A, 5 from F", []byte{0xfd, 0x37}, 0x08, 0x20, 0x20, 0x29, 0x09},
		// All ones: ~C4h | C, 5/3 set either way: EDh.
		{"DD SCF, all ones", []byte{0xdd, 0x37}, 0xff, 0xff, 0xff, 0xed, 0xed},
		// CCF with C = 1: H = 1, C = 0; 5/3 = 28h: 38h (Q kept: 10h).
		{"DD CCF, Q set", []byte{0xdd, 0x3f}, 0x00, 0x29, 0x29, 0x38, 0x01},
		// 4Fh: S Z P/V 44h, H 10h, C 0; 5/3 = (F3 | 4F) AND 28h = 28h:
		// 7Ch (Q kept: 74h). Next: 44h, C, F3h AND 28h = 20h: 65h.
		{"DD CCF, Q set, A bits", []byte{0xdd, 0x3f}, 0xf3, 0x4f, 0x4f, 0x7c, 0x65},
		// EDh: C4h, H, 5/3 = (06 | ED) AND 28h = 28h: FCh (Q kept: D4h).
		{"FD CCF, Q set", []byte{0xfd, 0x3f}, 0x06, 0xed, 0xed, 0xfc, 0xc5},
		// C = 0: C = 1, H = 0; 5/3 from A: 29h.
		{"FD CCF, Q 0", []byte{0xfd, 0x3f}, 0x28, 0x00, 0x00, 0x29, 0x29},
		// C6h: C4h, C; 5/3 = (20 | C6) AND 28h = 20h: E5h.
		{"DD CCF, Q 0, S Z P/V", []byte{0xdd, 0x3f}, 0x20, 0xc6, 0x00, 0xe5, 0xe5},
		// Two prefixes, one instruction: still A OR F (Q kept: 10h).
		{"DD FD CCF, Q set", []byte{0xdd, 0xfd, 0x3f}, 0x00, 0x29, 0x29, 0x38, 0x01},
	}
	for _, tc := range tests {
		code := append(append([]byte{}, tc.code...), 0x37)
		regs := Regs{AF: uint16(tc.a)<<8 | uint16(tc.f), Q: tc.q, SP: 0xf000}
		wantT := uint64(4 * len(tc.code))
		check := func(t *testing.T, c *CPU, wantF uint8, what string) {
			r := c.Regs()
			assert.Equal(t, wantF, uint8(r.AF), "F after %s = %02x", what, uint8(r.AF))
			assert.Equal(t, wantF, r.Q, "Q after %s = %02x", what, r.Q)
		}
		t.Run(tc.name+"/Step", func(t *testing.T) {
			c, _, _ := newTest(code...)
			c.SetRegs(regs)
			assert.Equal(t, int(wantT), c.Step())
			check(t, c, tc.wantF, "the prefixed instruction")
			c.Step()
			check(t, c, tc.wantNext, "the SCF after it")
			assert.Zero(t, c.Mismatches)
		})
		for _, flat := range []bool{false, true} {
			name := tc.name + "/Run paged"
			if flat {
				name = tc.name + "/Run flat"
			}
			t.Run(name, func(t *testing.T) {
				b := &flatLogBus{}
				copy(b.mem[:], code)
				for p := range b.rp {
					b.rp[p] = (*[256]byte)(b.mem[p*256 : p*256+256])
				}
				var c *CPU
				if flat {
					c = New(b)
				} else {
					c = New(&b.pagedLogBus)
				}
				require.Equal(t, flat, c.flat != nil, "flat memory as asked")
				c.SetRegs(regs)
				c.Run(1)
				assert.Equal(t, wantT, c.T())
				check(t, c, tc.wantF, "the prefixed instruction")
				c.Run(c.T() + 1)
				check(t, c, tc.wantNext, "the SCF after it")
				assert.Empty(t, b.events, "every access from the pages")
				assert.Zero(t, c.Mismatches)
			})
		}
	}
}
