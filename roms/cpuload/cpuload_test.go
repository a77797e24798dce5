package cpuload_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpuload"
	"github.com/lbplus/lbplus/sched"
)

// Each workload's pass count is written at the T-states its cycle counts
// (Z80 manual) give, from the ROM overlay and from RAM alike, and the
// program touches no port: the devices stay idle.
func TestPassTiming(t *testing.T) {
	for w := 1; w <= 2; w++ {
		for _, inRAM := range []bool{false, true} {
			rom, err := cpuload.ROM(w)
			require.NoError(t, err)
			assert.Len(t, rom, 4096, "a 4 KB boot ROM")
			b, err := emu.New(emu.DefaultConfig(rom))
			require.NoError(t, err)
			start := uint64(0)
			if inRAM {
				b.LoadRAM(0, rom)
				start = b.CPU().T()
				b.Out(0x00, emu.LatchRAM, start)
			}
			var at []uint64
			var counts []uint8
			b.ObserveMemoryRange(cpuload.Count, cpuload.Count, func(tt uint64, _ uint16, v uint8, kind emu.MemAccess) {
				if kind == emu.MemWrite {
					at, counts = append(at, tt), append(counts, v)
				}
			})
			ports := 0
			b.ObserveIO(func(uint64, uint16, uint8, bool) { ports++ })
			require.NoError(t, b.RunFor(sched.Time(5*cpuload.Pass[w])*sched.TState))
			require.GreaterOrEqual(t, len(at), 5, "W%d ram=%v", w, inRAM)
			assert.Equal(t, []uint8{0, 1, 2, 3, 4}, counts[:5], "W%d ram=%v", w, inRAM)
			assert.Equal(t, start+34, at[0], "the count cleared (W%d ram=%v)", w, inRAM)
			for i := 1; i < 5; i++ {
				assert.Equal(t, start+cpuload.First[w]+uint64(i-1)*cpuload.Pass[w], at[i], "pass %d (W%d ram=%v)", i, w, inRAM)
			}
			assert.Zero(t, ports, "no I/O")
			require.NoError(t, b.Close())
		}
	}
	_, err := cpuload.ROM(3)
	assert.Error(t, err)
}
