package z80host

import (
	"fmt"
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

// pagedLogBus is logBus with a page table over its memory for the pages
// not listed in bus: those are served directly, the others by Bus calls
// (logged).
type pagedLogBus struct {
	logBus
	rp [256]*[256]byte
}

func (b *pagedLogBus) MemoryPages() (r, w *[256]*[256]byte) { return &b.rp, &b.rp }

// The page fast path must not change when or in which order the Bus sees
// the accesses that do reach it: every opcode, run with a random half of
// the pages served directly, shows exactly the all-Bus run's events on the
// other half, and ends in the same state. Stack, index and HL addresses
// are put next to page boundaries so that one byte of a 16-bit access can
// land on each side.
func TestPagesKeepBusTiming(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	tables := []struct {
		prefix []byte
		skip   bool // base and DD/FD: the prefixes are not opcodes
	}{{nil, true}, {[]byte{0xcb}, false}, {[]byte{0xed}, false}, {[]byte{0xdd}, true}, {[]byte{0xfd}, true}, {[]byte{0xdd, 0xcb, 0x01}, false}}
	edge := func() uint16 { return uint16(rng.Intn(256))<<8 + uint16(rng.Intn(3)) - 1 }
	for _, tb := range tables {
		for op := 0; op < 256; op++ {
			if tb.skip && (op == 0xcb || op == 0xdd || op == 0xed || op == 0xfd) {
				continue
			}
			code := append(append([]byte{}, tb.prefix...), byte(op), byte(rng.Intn(256)), byte(rng.Intn(256)))
			for trial := 0; trial < 6; trial++ {
				var mem [65536]uint8
				rng.Read(mem[:])
				copy(mem[0x4000:], code)
				regs := Regs{AF: uint16(rng.Intn(65536)), BC: uint16(rng.Intn(65536)), DE: edge(),
					HL: edge(), IX: edge(), IY: edge(), SP: edge(), PC: 0x4000, I: uint8(rng.Intn(256)), IM: 1}
				all := &logBus{mem: mem}
				ca := New(all)
				ca.SetRegs(regs)
				ca.Step()

				part := &pagedLogBus{logBus: logBus{mem: mem}}
				onBus := map[uint16]bool{}
				for p := range part.rp {
					if rng.Intn(2) == 0 {
						part.rp[p] = (*[256]byte)(part.mem[p*256 : p*256+256])
					} else {
						onBus[uint16(p)] = true
					}
				}
				cp := New(part)
				cp.SetRegs(regs)
				cp.Run(1) // one instruction, through Run's page fast paths

				var want []string
				for _, e := range all.events {
					var tt int
					var kind string
					var a uint16
					_, _ = fmt.Sscanf(e, "%d %s %x", &tt, &kind, &a)
					if kind == "IN" || kind == "OUT" || onBus[a>>8] {
						want = append(want, e)
					}
				}
				name := fmt.Sprintf("% x", code)
				assert.Equal(t, want, part.events, name)
				assert.Equal(t, ca.State(), cp.State(), name)
				assert.True(t, all.mem == part.mem, "%s: memory", name)
				assert.Zero(t, ca.Mismatches+cp.Mismatches, name)
			}
		}
	}
}
