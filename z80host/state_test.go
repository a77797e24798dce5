package z80host

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapBus is flat RAM without a page table, so every cycle is a Bus call;
// it folds every cycle (kind, address, value, T-state) into a running hash,
// and derives I/O input, wait states and interrupt vectors from the T-state
// so that two CPUs in the same state see the same world.
type snapBus struct {
	mem   [65536]uint8
	h     uint64
	paged bool // serve memory through pages (the fast path) instead
	rp    [256]*[256]byte
}

// MemoryPages offers every page when paged is set; then only I/O and
// interrupt cycles reach the hash.
func (b *snapBus) MemoryPages() (r, w *[256]*[256]byte) {
	if !b.paged {
		return nil, nil
	}
	for p := range b.rp {
		b.rp[p] = (*[256]byte)(b.mem[p*256 : p*256+256])
	}
	return &b.rp, &b.rp
}

func (b *snapBus) ev(kind uint64, a uint16, v uint8, t uint64) {
	b.h = (b.h^kind<<56^uint64(a)<<40^uint64(v)<<32^t)*0x100000001b3 + 1
}

func mix(t uint64) uint64 {
	t ^= t >> 31
	t *= 0x9e3779b97f4a7c15
	return t ^ t>>29
}

func (b *snapBus) Fetch(a uint16, t uint64) uint8 { b.ev(1, a, b.mem[a], t); return b.mem[a] }
func (b *snapBus) Read(a uint16, t uint64) uint8  { b.ev(2, a, b.mem[a], t); return b.mem[a] }
func (b *snapBus) Write(a uint16, v uint8, t uint64) {
	b.ev(3, a, v, t)
	b.mem[a] = v
}
func (b *snapBus) In(p uint16, t uint64) (uint8, int) {
	m := mix(t ^ uint64(p)<<20)
	b.ev(4, p, uint8(m), t)
	return uint8(m), int(m>>8) % 3
}
func (b *snapBus) Out(p uint16, v uint8, t uint64) int {
	b.ev(5, p, v, t)
	return int(mix(t)>>8) % 2
}
func (b *snapBus) Acknowledge(t uint64) uint8 {
	v := uint8(mix(t)) | 0xc7 // an RST for IM 0, a vector for IM 2
	b.ev(6, 0, v, t)
	return v
}
func (b *snapBus) RETI(t uint64) { b.ev(7, 0, 0, t) }

// snapProgram fills memory with a random stream biased towards the
// instructions whose effect lives in the latches State must carry: EI (the
// shadow), SCF/CCF after flag-setting or not (Q), LD A,I and LD A,R (the
// P/V quirk), HALT, IM changes, block instructions (repeats, MEMPTR).
func snapProgram(rng *rand.Rand, mem *[65536]uint8) {
	pieces := [][]uint8{
		{0xfb}, {0xf3}, {0x37}, {0x3f}, {0x37, 0x37}, {0x3f, 0x37}, {0xaf, 0x37},
		{0xed, 0x57}, {0xed, 0x5f}, {0xfb, 0xed, 0x57}, {0x76}, {0xed, 0x46},
		{0xed, 0x56}, {0xed, 0x5e}, {0xed, 0xb0}, {0xed, 0xb1}, {0xed, 0xb2},
		{0xed, 0xb3}, {0xed, 0xb8}, {0xed, 0xba}, {0xcb, 0x46}, {0xdd, 0xcb, 0x05, 0x56},
		{0xed, 0x4d}, {0xed, 0x45}, {0xf5, 0xf1}, {0x08}, {0xd9},
	}
	for a := 0; a < len(mem); {
		if rng.Intn(2) == 0 {
			mem[a] = uint8(rng.Intn(256))
			a++
			continue
		}
		for _, v := range pieces[rng.Intn(len(pieces))] {
			if a < len(mem) {
				mem[a] = v
				a++
			}
		}
	}
}

func newSnapCPU(rng *rand.Rand, b *snapBus) *CPU {
	snapProgram(rng, &b.mem)
	c := New(b)
	c.SetInterruptAck(b)
	c.SetRegs(Regs{SP: uint16(rng.Intn(65536)), I: uint8(rng.Intn(256))})
	return c
}

// stimulate drives /INT and /NMI as a function of the T-state alone.
func stimulate(c *CPU) {
	m := mix(c.T() / 16)
	c.SetINT(m%3 == 0)
	if m%41 == 0 {
		c.NMI()
	}
}

// advance runs step i: mostly single Steps, every fifth a short Run.
func advance(c *CPU, i int) {
	if i%5 == 0 {
		c.Run(c.T() + 40)
		return
	}
	c.Step()
}

// A snapshot taken at any instruction boundary and restored into a fresh
// CPU continues exactly as the uninterrupted run: the same state after
// every step, the same bus cycles at the same T-states, the same memory.
func TestStateSnapshotContinues(t *testing.T) {
	const steps, snaps = 6000, 25
	for seed := int64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewSource(seed))
		paged := seed%2 == 0
		ref := &snapBus{paged: paged}
		c := newSnapCPU(rng, ref)
		at := map[int]bool{}
		for len(at) < snaps {
			at[rng.Intn(steps)] = true
		}
		type snap struct {
			i   int
			s   State
			mem [65536]uint8
			h   uint64
		}
		var taken []*snap
		states := make([]State, steps)
		hashes := make([]uint64, steps)
		for i := 0; i < steps; i++ {
			stimulate(c)
			st := c.State()
			// Every boundary where a latch is set, and random ones.
			if at[i] || st.EIShadow || st.LDAIR || st.NMIPending || (st.Halted && i%16 == 0) {
				taken = append(taken, &snap{i: i, s: st, mem: ref.mem, h: ref.h})
			}
			advance(c, i)
			states[i], hashes[i] = c.State(), ref.h
		}
		require.Zero(t, c.Mismatches)

		// The reference must equal a run that never took a snapshot
		// (State has no side effect).
		plain := &snapBus{paged: paged}
		c2 := newSnapCPU(rand.New(rand.NewSource(seed)), plain)
		for i := 0; i < steps; i++ {
			stimulate(c2)
			advance(c2, i)
		}
		require.Equal(t, states[steps-1], c2.State())
		require.Equal(t, hashes[steps-1], plain.h)

		var kinds struct{ q, ei, ldair, nmi, intl, halted int }
		for _, sn := range taken {
			if sn.s.Q != 0 {
				kinds.q++
			}
			if sn.s.EIShadow {
				kinds.ei++
			}
			if sn.s.LDAIR {
				kinds.ldair++
			}
			if sn.s.NMIPending {
				kinds.nmi++
			}
			if sn.s.INT {
				kinds.intl++
			}
			if sn.s.Halted {
				kinds.halted++
			}
			b := &snapBus{mem: sn.mem, h: sn.h, paged: paged}
			f := New(b)
			f.SetInterruptAck(b)
			f.SetState(sn.s)
			require.Equal(t, sn.s, f.State(), "seed %d step %d: SetState/State round trip", seed, sn.i)
			// Random snapshots run to the end and compare memory; the
			// others compare a window (equal bus hashes imply equal
			// writes, hence equal memory).
			end := steps
			if !at[sn.i] {
				end = min(steps, sn.i+300)
			}
			for i := sn.i; i < end; i++ {
				if i > sn.i {
					stimulate(f)
				}
				advance(f, i)
				if !assert.Equal(t, states[i], f.State(), "seed %d: snapshot at step %d, step %d", seed, sn.i, i) ||
					!assert.Equal(t, hashes[i], b.h, "seed %d: snapshot at step %d, bus cycles differ by step %d", seed, sn.i, i) {
					return
				}
			}
			if end < steps {
				continue
			}
			assert.True(t, b.mem == ref.mem, "seed %d: snapshot at step %d: memory differs", seed, sn.i)
		}
		t.Logf("seed %d (pages %v): %d snapshots (Q set %d, EI shadow %d, LD A,I/R %d, NMI pending %d, INT %d, halted %d), end T %d",
			seed, paged, len(taken), kinds.q, kinds.ei, kinds.ldair, kinds.nmi, kinds.intl, kinds.halted, c.T())
	}
}
