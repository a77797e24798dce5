package asm

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hexOf(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }

func TestFeatures(t *testing.T) {
	tests := []struct {
		name, src, want string
		org             uint16
	}{
		{"numbers", " db 255, 0FFh, $FF, #FF, 0xFF, &HFF, %1010, 1010b, 17o, 17q, 12d, 'c', \"c\", 1$0h\n", "FFFFFFFFFFFF0A0A0F0F0C636310", 0},
		{"pasmo precedence", " db -1+2, 2+3*4, 1 shl 2+1, not 0+1, high 1234h+1, 7 and 3 or 8, 1=1, 2<3\n", "FD0E05FE120BFFFF", 0},
		{"operators", " db 7 mod 3, 7 % 3, 1 << 3, 16 >> 2, 3 & 5, 3 | 5, 3 xor 5, ~1, !0, !5, 1 && 2, 0 || 0, 1 ? 2 : 3, 0 ? 2 : 3\n", "010108040107 06FEFF00FF000203", 0},
		{"unary after binary", " db 2*-3, 1+high 300h\n", "FA04", 0},
		{"dollar", " org 10h\n dw $, $+2\n jr $\n", "1000120018FE", 0x10},
		{"forward ref", " jp fwd\n ds fwd2-fwd\nfwd: nop\nfwd2:\n", "C304000000", 0},
		{"equ defl =", "a1 equ 5\nv defl 1\nv defl v+1\nw = v*2\n db a1, v, w\n", "050204", 0},
		{"strings", " db \"a\\tb\\x41\\101\\n\", 'it''s', \"\", 0\n", "6109624141 0A6974277300", 0},
		{"ds fill", " ds 3, 0AAh\n ds 2\n", "AAAAAA0000", 0},
		{"org gap", " org 100h\n db 1\n org 102h\n db 2\n", "010002", 0x100},
		{"org backwards", " org 100h\n db 1\n org 0FEh\n db 2\n", "020001", 0xFE},
		{"if else", " if 1\n db 1\n else\n db 2\n endif\n if 0\n db 3\n if 1\n db 4\n endif\n else\n db 5\n endif\n", "0105", 0},
		{"ifdef", "x equ 1\n ifdef x\n db 1\n endif\n ifndef y\n db 2\n endif\n", "0102", 0},
		{"if forward", " if later > 2\n db 1\n endif\nlater equ 3\n", "01", 0},
		{"macro", "mc macro r, v\n ld r,v\n endm\n mc a, 5\n mc b, 6\n", "3E050606", 0},
		{"macro prefix form", " macro twice, x\n db x, x\n endm\n twice 7\n", "0707", 0},
		{"macro local", "mc macro\n local l1\nl1: djnz l1\n endm\n mc\n mc\n", "10FE10FE", 0},
		{"macro nul", "mc macro x\n if nul x\n db 0\n else\n db x\n endif\n endm\n mc\n mc 4\n", "0004", 0},
		{"macro exitm", "mc macro\n db 1\n exitm\n db 2\n endm\n mc\n", "01", 0},
		{"macro shift", "mc macro a1\n db a1\n .shift\n db a1\n endm\n mc 1, 2\n", "0102", 0},
		{"macro paste", "mc macro n\nl##n: db n\n endm\n mc 3\n dw l3\n", "030000", 0},
		{"exitm in rept", "mc macro\n rept 3\n db 1\n exitm\n endm\n db 2\n endm\n mc\n", "0102", 0},
		{"rept", "cn defl 0\n rept 3\n db cn\ncn defl cn+1\n endm\n", "000102", 0},
		{"rept var", " rept 3, k, 10, 5\n db k\n endm\n", "0A0F14", 0},
		{"irp", " irp rg, bc, de\n push rg\n endm\n", "C5D5", 0},
		{"proc local", " proc\n local lp\nlp: djnz lp\n endp\n proc\n local lp\nlp: djnz lp\n endp\n", "10FE10FE", 0},
		{"phase", " org 100h\n phase 8000h\nx: jp x\n dephase\ny: jp y\n", "C30080C30301", 0x100},
		{"end", " db 1\n end\n db 2\n", "01", 0},
		{"labels", "start ld a,1\nnext: ld b,2\n  lbl3:\nlbl4\n jp start\n jp next\n jp lbl3\n", "3E010602C30000C30200C30400", 0},
		{"line numbers", "10 ld a,1\n20 ret\n", "3E01C9", 0},
		{"case", " LD A,B\n Ld (Ix+1),C\n", "78DD7101", 0},
		{"defined", "x equ 1\n db defined x, defined y\n", "FF00", 0},
		{"af'", " ex af,af'\n", "08", 0},
		{"brackets", " ld a,[hl]\n ld hl,[1234h]\n ld a,(2+3)*2\n", "7E2A34123E0A", 0},
		{"empty", "; nothing\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := AssembleString(tc.src, Options{})
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(tc.want, " ", ""), hexOf(r.Bytes))
			assert.Equal(t, tc.org, r.Org)
		})
	}
}

func TestDefinesAndSymbols(t *testing.T) {
	r, err := AssembleString(" db W, N\nlab: nop\nk equ lab+1\n", Options{Defines: map[string]int64{"W": 2, "N": -1}})
	require.NoError(t, err)
	assert.Equal(t, "02FF00", hexOf(r.Bytes))
	assert.Equal(t, int64(2), r.Symbols["lab"])
	assert.Equal(t, int64(3), r.Symbols["k"])
	var b bytes.Buffer
	require.NoError(t, r.WriteSymbols(&b))
	assert.Equal(t, "N\t\tEQU 0FFFFH\nW\t\tEQU 00002H\nk\t\tEQU 00003H\nlab\t\tEQU 00002H\n", b.String())
}

func TestIncludeAndIncbin(t *testing.T) {
	lib := fstest.MapFS{
		"lib/util.inc": {Data: []byte("util: ret\n")},
	}
	rom := fstest.MapFS{
		"rom/main.asm":     {Data: []byte(" include \"inc/defs.inc\"\n call util\n incbin data.bin\n include util.inc\n db K\n")},
		"rom/inc/defs.inc": {Data: []byte("K equ 42\n")},
		"rom/data.bin":     {Data: []byte{1, 2, 3}},
	}
	r, err := Assemble(UnionFS(rom, lib), "rom/main.asm", Options{IncludeDirs: []string{"lib"}})
	require.NoError(t, err)
	assert.Equal(t, "CD0600010203C92A", hexOf(r.Bytes))
	var files []string
	for _, l := range r.Listing {
		if len(l.Bytes) > 0 {
			files = append(files, l.File)
		}
	}
	assert.Contains(t, files, "lib/util.inc")
}

// TestBadInput tries mistakes a user makes: each gives exactly one clear
// error line naming file, line and column.
func TestBadInput(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown mnemonic", " lod a,b\n", "input.asm:1:2: unknown instruction 'lod'"},
		{"unknown mnemonic at col 1 with operands", "foo a,b\n", "input.asm:1:1: unknown instruction 'foo'"},
		{"unknown mnemonic alone", " nop\n halr\n", "input.asm:2:2: unknown instruction 'halr'"},
		{"bad operand", " ld q,1\n", "input.asm:1:5: invalid operand"},
		{"bad register pair", " push sp\n", "input.asm:1:7: invalid operand"},
		{"indirect register", " ld a,(de+1)\n", "input.asm:1:8: register de cannot be used indirectly"},
		{"undefined label", " jp nowhere\n", "input.asm:1:5: undefined symbol 'nowhere'"},
		{"duplicate label", "x: nop\nx: nop\n", "input.asm:2:1: duplicate symbol 'x' (first defined at line 1)"},
		{"jr too far", " jr far\n ds 200\nfar: nop\n", "input.asm:1:5: relative jump out of range (200 bytes, limit -128..127)"},
		{"jr too far back", "back: ds 130\n djnz back\n", "input.asm:2:7: relative jump out of range (-132 bytes, limit -128..127)"},
		{"byte > 255", " ld a,300\n", "input.asm:1:7: value 012Ch out of range for a byte"},
		{"db > 255", " db 1, 256\n", "input.asm:1:8: value 0100h out of range for a byte"},
		{"index offset", " ld (ix+128),a\n", "input.asm:1:5: index offset 128 out of range -128..127"},
		{"unterminated string", " db \"abc\n", "input.asm:1:5: unterminated string"},
		{"unterminated quote", " db 'abc\n", "input.asm:1:5: unterminated string"},
		{"missing include", " include \"nothere.asm\"\n", "input.asm:1:10: INCLUDE file 'nothere.asm' not found"},
		{"missing incbin", " incbin nothere.bin\n", "input.asm:1:9: INCBIN file 'nothere.bin' not found"},
		{"bad number", " ld hl,12g\n", "input.asm:1:8: bad number '12g'"},
		{"unbalanced", " ld a,(ix+1\n", "input.asm:1:7: unbalanced '('"},
		{"if without endif", " if 1\n nop\n", "input.asm:1:1: IF without ENDIF"},
		{"endif without if", " endif\n", "input.asm:1:1: ENDIF without IF"},
		{"else without if", " else\n", "input.asm:1:1: ELSE without IF"},
		{"macro without endm", "m1 macro\n nop\n", "input.asm:1:1: MACRO without ENDM"},
		{"recursive macro", "m1 macro\n m1\n endm\n m1\n", "input.asm:2:2: nesting deeper than 64 levels (recursive MACRO or INCLUDE?) (in macro m1 called at input.asm:2)"},
		{"endless rept", " rept 60000\n rept 60000\nx defl 1\n endm\n endm\n", "input.asm:3:1: more than 500000 lines or repetitions expanded: endless REPT or MACRO?"},
		{"division by zero", " db 1/0\n", "input.asm:1:6: division by zero"},
		{"rst", " rst 7\n", "input.asm:1:6: RST address must be 0, 8, 10h, ... 38h"},
		{"reserved label", "hl: nop\n", "input.asm:1:1: 'hl' is a reserved word and cannot be a label"},
		{"past FFFF", " org 0FFFFh\n dw 1\n", "input.asm:2:1: code runs past address FFFFh"},
		{"self reference", "x equ x+1\n", "input.asm:1:7: undefined symbol 'x'"},
		{"equ needs label", " equ 5\n", "input.asm:1:2: equ needs a label"},
		{"error directive", " .error stop here\n", "input.asm:1:2: stop here"},
		{"string as number", " ld a,\"AB\"\n", "input.asm:1:7: string used as a number must be one character long"},
		{"too many operands", " nop 1\n", "input.asm:1:6: NOP takes no operand"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := AssembleString(tc.src, Options{})
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, "input.asm", e.File)
		})
	}
}

func TestRecursiveInclude(t *testing.T) {
	fsys := fstest.MapFS{
		"a.asm": {Data: []byte(" nop\n include b.asm\n")},
		"b.asm": {Data: []byte(" include a.asm\n")},
	}
	_, err := Assemble(fsys, "a.asm", Options{})
	require.Error(t, err)
	assert.Equal(t, "b.asm:1:2: recursive INCLUDE of 'a.asm'", err.Error())
}

func TestMissingMainFile(t *testing.T) {
	_, err := Assemble(fstest.MapFS{}, "none.asm", Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "none.asm:0:0: cannot read source")
}

func TestUnsettledSymbols(t *testing.T) {
	// The size of the DS depends on its own end address: no fixed point.
	_, err := AssembleString(" ds 1-(en and 1)\nen: nop\n", Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did not settle")
}

func TestHexAndListing(t *testing.T) {
	r, err := AssembleString(" org 100h\nstart: ld a,5\n db 1,2,3,4,5,6\n org 200h\n ret\n end start\n", Options{})
	require.NoError(t, err)
	var h bytes.Buffer
	require.NoError(t, r.WriteHex(&h))
	assert.Equal(t, ":080100003E050102030405069F\n:01020000C934\n:00000001FF\n", h.String())
	var l bytes.Buffer
	require.NoError(t, r.WriteListing(&l))
	assert.Contains(t, l.String(), "    2 0100  3E 05       7     start: ld a,5\n")
	assert.Contains(t, l.String(), "      0106  05 06\n")
}

// TestAutoLocal matches pasmo --alocal on two routines that reuse _lp/_out.
func TestAutoLocal(t *testing.T) {
	src := " org 100h\nfirst: ld b,3\n_lp: djnz _lp\n jr _out\n_out: nop\nsecond: ld b,4\n_lp: djnz _lp\n jr nz,_out\n nop\n_out: ret\n dw _lp, _out\n"
	r, err := AssembleString(src, Options{AutoLocal: true})
	require.NoError(t, err)
	assert.Equal(t, "060310FE180000060410FE200100C909010E01", hexOf(r.Bytes))
	_, err = AssembleString(src, Options{})
	require.Error(t, err, "without AutoLocal _lp is a duplicate")
}

func TestSymbolAndLineAt(t *testing.T) {
	r, err := AssembleString(" org 100h\nstart: ld a,1\n ret\n", Options{})
	require.NoError(t, err)
	v, err := r.Symbol("start")
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), v)
	_, err = r.Symbol("nope")
	assert.EqualError(t, err, `asm: symbol "nope" is not defined by the program`)
	l, ok := r.LineAt(0x101)
	require.True(t, ok)
	assert.Equal(t, 2, l.Line)
	l, ok = r.LineAt(0x102)
	require.True(t, ok)
	assert.Equal(t, " ret", l.Text)
	_, ok = r.LineAt(0x103)
	assert.False(t, ok)
}

func TestWarningForParenthesisedImmediate(t *testing.T) {
	r, err := AssembleString(" ld b,(5)\n ld a,(5)\n jp (10h)\n", Options{})
	require.NoError(t, err)
	assert.Equal(t, "0605 3A0500 C31000", hexOf(r.Bytes)[:4]+" "+hexOf(r.Bytes)[4:10]+" "+hexOf(r.Bytes)[10:])
	assert.Equal(t, []string{
		"input.asm:1: parentheses taken as an expression: this instruction has no (address) form",
		"input.asm:3: parentheses taken as an expression: this instruction has no (address) form",
	}, r.Warnings)
}
