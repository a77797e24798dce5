package fdbench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

func TestPad(t *testing.T) {
	for _, n := range []int{0, 4, 6, 7, 8, 83, 150 - 67, 13, 100} {
		a, b, c, ok := pad(n)
		require.True(t, ok, n)
		assert.Equal(t, n, 4*a+6*b+7*c, n)
	}
	_, err := Build(68)
	assert.Error(t, err)
}

// The read loop's cost per byte is what its name says: the T-states of the
// instructions on the byte path (conditional jumps not taken), from the
// assembler's listing, which uses the CPU's own timing table.
func TestLoopTStates(t *testing.T) {
	for _, loop := range []int{67, 100, 120, 150} {
		a, b, c, _ := pad(loop - BaseLoop)
		res, err := asm.AssembleString(source, asm.Options{Defines: map[string]int64{"PAD4": int64(a), "PAD6": int64(b), "PAD7": int64(c)}})
		require.NoError(t, err)
		from, to := uint16(res.Symbols["rsl"]), uint16(res.Symbols["rsend"])
		sum := 0
		for _, l := range res.Listing {
			if l.Addr >= from && l.Addr < to && l.TStates != "" {
				ts := l.TStates
				if i := strings.IndexByte(ts, '/'); i >= 0 {
					ts = ts[i+1:] // not taken
				}
				n, err := strconv.Atoi(ts)
				require.NoError(t, err)
				sum += n
			}
		}
		assert.Equal(t, loop, sum)
	}
}
