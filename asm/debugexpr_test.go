package asm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testEnv struct {
	syms map[string]int64
	mem  map[uint16]uint8
}

func (e testEnv) Symbol(n string) (int64, bool) { v, ok := e.syms[n]; return v, ok }
func (e testEnv) Peek(a uint16) uint8           { return e.mem[a] }

func TestParseExprDebug(t *testing.T) {
	env := testEnv{
		syms: map[string]int64{"A": 0x0D, "HL": 0x8200, "F": 0x40, "buffer": 0x8000, "PC": 0x0123},
		mem:  map[uint16]uint8{0x8200: 0x34, 0x8201: 0x12},
	}
	for _, tc := range []struct {
		src  string
		want uint16
	}{
		{"HL == buffer+200h", 0xFFFF},
		{"HL == buffer+201h", 0},
		{"A = 0DH && HL > buffer", 0xFFFF},
		{"F AND 40H", 0x40},
		{"PEEK(HL)", 0x34},
		{"PEEKW HL", 0x1234},
		{"PEEK(HL+1) = 12h", 0xFFFF},
		{"PC", 0x0123},
		{"hl", 0}, // symbols stay case-sensitive; lower-case hl is a register word
	} {
		x, err := ParseExpr(tc.src)
		require.NoError(t, err, tc.src)
		if tc.src == "hl" {
			v, err := x.Eval(env)
			require.NoError(t, err)
			assert.Equal(t, uint16(0x8200), v, "register words are case-insensitive")
			continue
		}
		v, err := x.Eval(env)
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.want, v, tc.src)
	}
	for _, bad := range []string{"", "HL ==", "(A", "nosuch + 1"} {
		x, err := ParseExpr(bad)
		if err == nil {
			_, err = x.Eval(env)
		}
		assert.Error(t, err, bad)
	}
	// The assembler itself still rejects registers and PEEK in expressions.
	_, err := AssembleString(" DB PEEK(1)\n", Options{})
	assert.Error(t, err)
	_, err = AssembleString(" LD A,HL+1\n", Options{})
	assert.Error(t, err)
}

func TestIsLabel(t *testing.T) {
	r, err := AssembleString("K EQU 5\nV DEFL 1\nstart: nop\nloop jr loop\n", Options{Defines: map[string]int64{"D": 1}})
	require.NoError(t, err)
	for name, want := range map[string]bool{"start": true, "loop": true, "K": false, "V": false, "D": false, "none": false} {
		assert.Equal(t, want, r.IsLabel(name), name)
	}
}
