package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// A program that adds its two parameters into a 32-bit result, or fails
// when p_b is 0; its states have values of its own.
const ramprogSrc = `
ST_DONE EQU 7
ST_FAIL EQU 9
        ORG 0200h
        jp start
p_a:    DEFW 0
p_b:    DEFW 0
r_state: DEFB 0
r_sum:  DEFB 0,0,0,0
start:  ld hl,(p_b)
        ld a,h
        or l
        jr z,bad
        ld de,(p_a)
        add hl,de
        ld (r_sum),hl
        ld a,0
        adc a,0
        ld (r_sum+2),a
        ld a,ST_DONE
        ld (r_state),a
        halt
bad:    ld a,ST_FAIL
        ld (r_state),a
        halt
`

func assembleRAMProg(t *testing.T, src string) *asm.Result {
	t.Helper()
	r, err := asm.AssembleString(src, asm.Options{})
	require.NoError(t, err)
	return r
}

// The runner meets the program only at its symbols: parameters written at
// p_* labels, results read at r_* labels, the state compared with the
// program's own ST_DONE and ST_FAIL values (not 2 and 3 here).
func TestRAMProgram(t *testing.T) {
	prog := assembleRAMProg(t, ramprogSrc)
	for _, tc := range []struct {
		a, b       uint16
		done, fail bool
		sum        uint32
	}{
		{0xFFFF, 2, true, false, 0x10001},
		{5, 0, false, true, 0},
	} {
		r, err := LoadRAMProgram("p.asm", prog, emu.DefaultConfig(nil), "p_a", "p_b", "r_sum")
		require.NoError(t, err)
		assert.False(t, r.Finished(), "loaded, not started")
		r.Put16("p_a", tc.a)
		r.Put16("p_b", tc.b)
		ok, err := r.Board.RunUntil(r.Finished, sched.Second)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, tc.done, r.Done())
		assert.Equal(t, tc.fail, r.Failed())
		assert.Equal(t, tc.sum, r.U32("r_sum"))
		assert.Equal(t, uint16(tc.sum), r.U16("r_sum"))
		assert.Equal(t, uint8(tc.sum), r.U8("r_sum"))
		assert.Equal(t, uint16(0x200), r.Board.CPU().Regs().PC&0xFF00, "ran from RAM at its origin")
		require.NoError(t, r.Close())
	}
	_, err := LoadRAMProgram("p.asm", prog, emu.DefaultConfig(nil), "r_missing")
	assert.EqualError(t, err, "p.asm: symbol r_missing is not defined")
	noState := assembleRAMProg(t, "        ORG 0100h\nr_state: DEFB 0\n")
	_, err = LoadRAMProgram("q.asm", noState, emu.DefaultConfig(nil))
	assert.EqualError(t, err, "q.asm: symbol ST_DONE is not defined")
}
