package scsilib

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

// A program that includes the whole library at a few origins: the vector
// table stays aligned and lbplus/asm agrees with pasmo byte for byte.
func TestAssembles(t *testing.T) {
	for _, org := range []int{0x100, 0x8001, 0x4003} {
		src := fmt.Sprintf("        ORG 0%04Xh\n", org) + "        INCLUDE \"scsilib.inc\"\n        END\n"
		fsys := asm.UnionFS(fstest.MapFS{"t.asm": {Data: []byte(src)}}, FS)
		r, err := asm.Assemble(fsys, "t.asm", asm.Options{})
		require.NoError(t, err)
		assert.Zero(t, r.Symbols["tm_vtab"]&7, "tm_vtab aligned at org %x", org)
		for _, s := range []string{"sl_init", "sl_exec", "sl_select", "sl_cdb", "sl_data", "sl_finish",
			"sl_abort", "tm_init", "tm_read", "tm_stop", "con_init", "con_putc", "con_dec32"} {
			assert.Contains(t, r.Symbols, s)
		}
		assert.Equal(t, int64(16), r.Symbols["RQ_SIZE"])

		pasmo, err := exec.LookPath("pasmo")
		if err != nil {
			continue
		}
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "t.asm"), []byte(src), 0o644))
		out := filepath.Join(dir, "t.bin")
		msg, err := exec.Command(pasmo, "-I", ".", filepath.Join(dir, "t.asm"), out).CombinedOutput()
		require.NoError(t, err, string(msg))
		want, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, want, r.Bytes, "pasmo and lbplus/asm differ at org %x", org)
	}
}

// A RAM program assembles only when its stack ends at or below its buffer
// and both symbols exist; every error names the source file.
func TestAssembleRAMProgram(t *testing.T) {
	for _, tc := range []struct {
		name, src, err string
	}{
		{"fits", "BUF EQU 0200h\n ORG 0100h\n ld sp,stack\n DS 20h\nstack:\n END\n", ""},
		{"stack at the buffer", "BUF EQU 0123h\n ORG 0100h\n ld sp,stack\n DS 20h\nstack:\n END\n", ""},
		{"stack in the buffer", "BUF EQU 0110h\n ORG 0100h\n ld sp,stack\n DS 20h\nstack:\n END\n",
			"p.asm: program ends at 0123h, inside its buffer at 0110h"},
		{"no buffer", " ORG 0100h\n ld sp,stack\nstack:\n END\n", `p.asm: asm: symbol "BUF" is not defined`},
		{"no stack", "BUF EQU 0200h\n ORG 0100h\n ret\n END\n", `p.asm: asm: symbol "stack" is not defined`},
		{"bad source", " ORG 0100h\n ld q,1\n END\n", "p.asm:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := asm.UnionFS(fstest.MapFS{"p.asm": {Data: []byte(tc.src)}}, FS)
			r, err := AssembleRAMProgram(fsys, "p.asm")
			if tc.err == "" {
				require.NoError(t, err)
				assert.LessOrEqual(t, r.Symbols["stack"], r.Symbols["BUF"])
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.Nil(t, r)
		})
	}
}
