package asm

import (
	"encoding/hex"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/z80host/optable"
)

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed (Debian package %s; `make debs` installs it)", name, name)
	}
}

// firstDiff reports the listing line holding the first differing byte.
func firstDiff(r *Result, want []byte) string {
	got := r.Bytes
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			addr := int(r.Org) + i
			for _, l := range r.Listing {
				if len(l.Bytes) > 0 && int(l.Addr) <= addr && addr < int(l.Addr)+len(l.Bytes) {
					return fmt.Sprintf("at %04X line %d %q: lbplus % X, pasmo % X", addr, l.Line, l.Text, l.Bytes, want[i-(addr-int(l.Addr)):min(len(want), i-(addr-int(l.Addr))+len(l.Bytes))])
				}
			}
			return fmt.Sprintf("at %04X", addr)
		}
	}
	return fmt.Sprintf("length lbplus %d, pasmo %d", len(got), len(want))
}

func TestExhaustiveAgainstPasmo(t *testing.T) {
	needTool(t, "pasmo")
	src := "\torg 100h\n" + strings.Join(genInstructions(), "\n") + "\n"
	r, err := AssembleString(src, Options{})
	require.NoError(t, err)
	want, err := runPasmo(t.TempDir(), src)
	require.NoError(t, err)
	if !assert.Equal(t, want, r.Bytes, "bytes differ from pasmo") {
		t.Log(firstDiff(r, want))
	}
	t.Logf("%d instruction lines, %d bytes", strings.Count(src, "\n")-1, len(want))
}

func TestUndocumentedForms(t *testing.T) {
	for _, tc := range undocTable {
		t.Run(tc.src, func(t *testing.T) {
			r, err := AssembleString("\t"+tc.src+"\n", Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.hex, strings.ToUpper(hex.EncodeToString(r.Bytes)))
		})
	}
}

// TestLengthsAgreeWithOptable checks every generated instruction against the
// CPU's opcode table: same length, and a T-state figure exists.
func TestLengthsAgreeWithOptable(t *testing.T) {
	lines := append(genInstructions(), func() []string {
		var s []string
		for _, u := range undocTable {
			s = append(s, "\t"+u.src)
		}
		return s
	}()...)
	r, err := AssembleString("\torg 100h\n"+strings.Join(lines, "\n")+"\n", Options{})
	require.NoError(t, err)
	n := 0
	for _, l := range r.Listing {
		if len(l.Bytes) == 0 {
			continue
		}
		n++
		in := optable.Lookup(l.Bytes)
		if assert.True(t, in.Valid, "line %q % X not in optable", l.Text, l.Bytes) {
			assert.Equal(t, len(l.Bytes), in.Len, "length of %q", l.Text)
			assert.NotEmpty(t, l.TStates, l.Text)
		}
	}
	assert.Greater(t, n, 2000)
}

func TestListingTStates(t *testing.T) {
	r, err := AssembleString("lp: ld a,5\n jr nz,lp\n ldir\n djnz lp\n ret z\n db 1\n", Options{})
	require.NoError(t, err)
	var got []string
	for _, l := range r.Listing {
		got = append(got, l.TStates)
	}
	assert.Equal(t, []string{"7", "12/7", "21/16", "13/8", "11/5", ""}, got)
}
