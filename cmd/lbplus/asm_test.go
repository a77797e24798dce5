package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAsmCLI(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	require.NoError(t, os.Mkdir(inc, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(inc, "defs.inc"), []byte("PORT equ 80h\n"), 0o644))
	src := filepath.Join(dir, "prog.asm")
	require.NoError(t, os.WriteFile(src, []byte(" include defs.inc\n org 100h\nstart: ld a,VAL\n out (PORT),a\n jr start\n"), 0o644))

	var stderr bytes.Buffer
	out := filepath.Join(dir, "prog.bin")
	lst := filepath.Join(dir, "prog.lst")
	sym := filepath.Join(dir, "prog.sym")
	code := runAsm(&stderr, src, out, false, lst, sym, []string{inc}, []string{"VAL=0x41"}, false)
	require.Equal(t, 0, code, stderr.String())
	bin, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, []byte{0x3E, 0x41, 0xD3, 0x80, 0x18, 0xFA}, bin)
	l, err := os.ReadFile(lst)
	require.NoError(t, err)
	assert.Contains(t, string(l), "0100  3E 41       7     start: ld a,VAL")
	s, err := os.ReadFile(sym)
	require.NoError(t, err)
	assert.Contains(t, string(s), "start\t\tEQU 00100H\n")

	hexOut := filepath.Join(dir, "prog.hex")
	code = runAsm(&stderr, src, hexOut, true, "", "", []string{inc}, []string{"VAL=1"}, false)
	require.Equal(t, 0, code, stderr.String())
	h, err := os.ReadFile(hexOut)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(h), ":00000001FF\n"))
}

func TestAsmCLIErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, src, want string }{
		{"unknown mnemonic", " lod a,1\n", "bad.asm:1:2: unknown instruction 'lod'"},
		{"missing include", " include nothere.inc\n", "bad.asm:1:10: INCLUDE file 'nothere.inc' not found"},
		{"jr too far", " jr x\n ds 300\nx: nop\n", "bad.asm:1:5: relative jump out of range (300 bytes, limit -128..127)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := filepath.Join(dir, "bad.asm")
			require.NoError(t, os.WriteFile(src, []byte(tc.src), 0o644))
			var stderr bytes.Buffer
			code := runAsm(&stderr, src, filepath.Join(dir, "bad.bin"), false, "", "", nil, nil, false)
			assert.Equal(t, 1, code)
			line := strings.TrimSuffix(stderr.String(), "\n")
			assert.NotContains(t, line, "\n", "one error line")
			assert.True(t, strings.HasSuffix(line, tc.want), line)
		})
	}
	var stderr bytes.Buffer
	assert.Equal(t, 1, runAsm(&stderr, filepath.Join(dir, "none.asm"), "", false, "", "", nil, nil, false))
	assert.Contains(t, stderr.String(), "none.asm:0:0: cannot read source")
}
