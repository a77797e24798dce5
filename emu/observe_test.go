package emu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// TestObserversAndPausesLeaveTheRunUnchanged boots the monitor twice for
// the same simulated time: once plainly, once with memory, I/O and
// instruction observers attached and a pause every 997 instructions
// (resumed at once). Time, trace hash and RAM are the same; the
// observers saw what the CPU did.
func TestObserversAndPausesLeaveTheRunUnchanged(t *testing.T) {
	const end = 300 * sched.Millisecond
	plain, _ := newMonitorBoard(t)
	require.NoError(t, plain.RunFor(end))

	b, _ := newMonitorBoard(t)
	var instr, fetches, writes, dartIO, pauses int
	b.ObserveInstructions(func(pc uint16, _ uint64) {
		instr++
		if instr%997 == 0 {
			b.Stop()
		}
	})
	removeMem := b.ObserveMemory(func(_ uint64, addr uint16, v uint8, kind emu.MemAccess) {
		switch kind {
		case emu.MemFetch:
			fetches++
			assert.Equal(t, b.Peek(addr), v)
		case emu.MemWrite:
			writes++
		}
	})
	b.ObservePorts(0x80, 0x8F, func(uint64, uint16, uint8, bool) { dartIO++ })
	for b.Now() < end {
		require.NoError(t, b.RunFor(end-b.Now()))
		pauses++
	}
	removeMem()
	assert.Equal(t, plain.Now(), b.Now())
	assert.Equal(t, plain.TraceHash(), b.TraceHash())
	for a := 0; a < 0x10000; a++ {
		if plain.RAM(uint16(a)) != b.RAM(uint16(a)) {
			t.Fatalf("RAM differs at %04X", a)
		}
	}
	assert.Greater(t, pauses, 100)
	assert.GreaterOrEqual(t, fetches, instr, "an M1 fetch at least per instruction")
	assert.Greater(t, writes, 0)
	assert.Greater(t, dartIO, 0, "the monitor talks to the DART")
}

// TestStateRefusedInsideARun: an observer cannot save the machine in the
// middle of an instruction.
func TestStateRefusedInsideARun(t *testing.T) {
	b, _ := newMonitorBoard(t)
	var err error
	b.ObservePorts(0x80, 0x8F, func(uint64, uint16, uint8, bool) {
		if err == nil {
			_, err = b.State()
			b.Stop()
		}
	})
	require.NoError(t, b.RunFor(100*sched.Millisecond))
	assert.ErrorIs(t, err, emu.ErrRunning)
	st, err := b.State()
	require.NoError(t, err, "between runs")
	assert.Equal(t, emu.StateVersion, st.Version)
}

// A write observer sees exactly the writes a full observer of the same
// range sees, at the same T-states, and nothing else; the run with it is
// the run without it.
func TestObserveMemoryWrites(t *testing.T) {
	const end = 300 * sched.Millisecond
	plain, _ := newMonitorBoard(t)
	require.NoError(t, plain.RunFor(end))

	type write struct {
		t    uint64
		addr uint16
		v    uint8
	}
	var all, only []write
	full, _ := newMonitorBoard(t)
	full.ObserveMemoryRange(0x0000, 0xFFFF, func(tt uint64, addr uint16, v uint8, kind emu.MemAccess) {
		if kind == emu.MemWrite {
			all = append(all, write{tt, addr, v})
		}
	})
	require.NoError(t, full.RunFor(end))

	b, _ := newMonitorBoard(t)
	kinds := map[emu.MemAccess]int{}
	remove := b.ObserveMemoryWrites(0x0000, 0xFFFF, func(tt uint64, addr uint16, v uint8, kind emu.MemAccess) {
		kinds[kind]++
		only = append(only, write{tt, addr, v})
	})
	require.NoError(t, b.RunFor(end))
	require.NotEmpty(t, all, "the monitor writes its stack and variables")
	assert.Equal(t, all, only)
	assert.Equal(t, map[emu.MemAccess]int{emu.MemWrite: len(all)}, kinds)
	assert.Equal(t, plain.TraceHash(), b.TraceHash())
	assert.Equal(t, plain.CPU().T(), b.CPU().T())
	remove()
	n := len(only)
	require.NoError(t, b.RunFor(end))
	assert.Len(t, only, n, "removed: no more calls")
	assert.Equal(t, plain.RAM(0xFF00), b.RAM(0xFF00))
}
