package z80host

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
