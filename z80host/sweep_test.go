package z80host

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/z80host/optable"
)

// Every opcode of every table, from random register states: koron's
// accesses must fit the cycle table exactly, and the instruction must take
// T or TAlt T-states with its bus cycles starting where optable says.
func TestSweepAllOpcodes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	type table struct {
		name   string
		prefix []byte
		tab    *[256]optable.Info
	}
	for _, tb := range []table{
		{"base", nil, &optable.Base},
		{"CB", []byte{0xcb}, &optable.CB},
		{"ED", []byte{0xed}, &optable.ED},
		{"DD", []byte{0xdd}, &optable.XY},
		{"FD", []byte{0xfd}, &optable.XY},
		{"DDCB", []byte{0xdd, 0xcb, 0x05}, &optable.XYCB},
		{"FDCB", []byte{0xfd, 0xcb, 0xfb}, &optable.XYCB},
	} {
		for op := 0; op < 256; op++ {
			switch {
			case tb.tab == &optable.Base && (op == 0xcb || op == 0xdd || op == 0xed || op == 0xfd):
				continue
			case tb.tab == &optable.XY && (op == 0xcb || op == 0xdd || op == 0xed || op == 0xfd):
				continue
			}
			code := append(append([]byte{}, tb.prefix...), byte(op), byte(rng.Intn(256)), byte(rng.Intn(256)))
			in := optable.Lookup(code)
			for trial := 0; trial < 8; trial++ {
				b := &logBus{}
				rng.Read(b.mem[:])
				copy(b.mem[0x4000:], code)
				c := New(b)
				c.SetRegs(Regs{
					AF: uint16(rng.Intn(65536)), BC: uint16(rng.Intn(65536)), DE: uint16(rng.Intn(65536)),
					HL: uint16(rng.Intn(65536)), IX: uint16(rng.Intn(65536)), IY: uint16(rng.Intn(65536)),
					SP: uint16(rng.Intn(65536)), PC: 0x4000, I: uint8(rng.Intn(256)), IM: 1,
				})
				n := c.Step()
				assert.Zero(t, c.Mismatches, "%s %02x", tb.name, op)
				if n != in.T && n != in.TAlt {
					t.Errorf("%s %02x: %d T, table %d/%d", tb.name, op, n, in.T, in.TAlt)
				}
				// Cycle starts: the logged bus cycles must be the table's,
				// in order (the TAlt path runs the first NAlt of them).
				want := in.Cycles
				if n != in.T {
					want = in.Cycles[:in.NAlt]
				}
				var got []int
				for _, e := range b.events {
					var tt int
					_, _ = sscan(e, &tt)
					got = append(got, tt)
				}
				var starts []int
				for _, cy := range want {
					starts = append(starts, int(cy.Start))
				}
				assert.Equal(t, starts, got, "%s %02x", tb.name, op)
			}
		}
	}
}
