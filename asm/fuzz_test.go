package asm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fuzzSeeds(f *testing.F) {
	f.Add(" ld a,(ix+5)\n jr $\n db \"x\", 'y''z'\n")
	f.Add("mc macro p\n rept p\n db p\n endm\n endm\n mc 3\n")
	f.Add(" if 1 ? 2 : 3\n dw -1+2 shl 3, high $ mod 7\n endif\n")
	f.Add(" proc\n local x\nx: djnz x\n endp\n phase 8000h\n dephase\n")
	f.Add(" include \"x\"\n incbin y\n end\n")
	srcs, _ := filepath.Glob("testdata/corpus/*.asm")
	for _, s := range srcs {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(string(data))
		}
	}
}

// fuzzMaxLines bounds each fuzz input's work (lines plus repetitions a
// pass) so that no input costs more than a few milliseconds and the fuzzer
// keeps its rate; the bound itself is the same code path at any size.
const fuzzMaxLines = 5000

// FuzzAssemble feeds arbitrary text to the whole assembler: it must return
// a result or an error, never panic or hang, and a result must be coherent.
func FuzzAssemble(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		r, err := AssembleString(src, Options{MaxLines: fuzzMaxLines})
		if err != nil {
			if _, ok := err.(ErrorList); !ok || strings.Contains(err.Error(), internalError) {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		if len(r.Bytes) != len(r.Written) || int(r.Org)+len(r.Bytes) > 0x10000 {
			t.Fatalf("incoherent result: org %04X, %d bytes, %d flags", r.Org, len(r.Bytes), len(r.Written))
		}
	})
}

// FuzzExpr drives the expression parser and evaluator through DW.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"1+2*3", "-1 shr 8", "high(1234h)+low 5", "'a' xor %1010", "$ ? 1 : 2", "defined x && !0", "(((1)))", "7 mod 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				return
			}
		}
		r, err := AssembleString("x equ 5\n dw "+s+"\n", Options{})
		if err != nil && strings.Contains(err.Error(), internalError) {
			t.Fatal(err)
		}
		if err == nil && len(r.Bytes)%2 != 0 {
			t.Fatalf("odd DW output %d bytes", len(r.Bytes))
		}
	})
}
