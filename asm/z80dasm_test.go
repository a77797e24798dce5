package asm

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// opcodeImage lays out every opcode of every prefix group, each followed by
// operand bytes that are themselves one-byte instructions (80h ADD A,B, 7Fh
// LD A,A, 05h DEC B), so the disassembler is back in step after each group
// whatever length it decodes. 80h/7Fh are the displacement and immediate
// edges.
func opcodeImage() []byte {
	var b []byte
	tail := []byte{0x80, 0x7F, 0x05}
	isPrefix := func(op int) bool { return op == 0xCB || op == 0xDD || op == 0xED || op == 0xFD }
	for op := 0; op < 256; op++ {
		if !isPrefix(op) {
			b = append(b, byte(op))
			b = append(b, tail...)
		}
		b = append(b, 0xCB, byte(op))
		b = append(b, 0xED, byte(op))
		b = append(b, tail...)
		for _, p := range []byte{0xDD, 0xFD} {
			if !isPrefix(op) {
				b = append(b, p, byte(op))
				b = append(b, tail...)
			}
			b = append(b, p, 0xCB, 0x80, byte(op), p, 0xCB, 0x7F, byte(op), p, 0xCB, 0x00, byte(op))
		}
	}
	return b
}

// z80dasm writes DD/FD CB register copies as "rlc (ix+003h) & ld b,(ix+003h)";
// lbplus (like sjasmplus) spells them "rlc (ix+003h),b".
var dasmCopy = regexp.MustCompile(`^(\s*\w+ (?:\d,)?\((?:ix|iy)[^)]*\)) & ld (\w),.*$`)

func TestZ80dasmRoundTrip(t *testing.T) {
	needTool(t, "z80dasm")
	img := opcodeImage()
	dir := t.TempDir()
	bin := filepath.Join(dir, "ops.bin")
	require.NoError(t, os.WriteFile(bin, img, 0o644))
	for _, undoc := range []bool{false, true} {
		name := "documented"
		args := []string{"-g", "0x8000", bin}
		if undoc {
			name = "undocumented"
			args = append([]string{"-u"}, args...)
		}
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command("z80dasm", args...).Output()
			require.NoError(t, err)
			lines := strings.Split(string(out), "\n")
			instr := 0
			for i, l := range lines {
				lines[i] = dasmCopy.ReplaceAllString(l, "$1,$2")
				if f := strings.Fields(lines[i]); len(f) > 0 && f[0] != "defb" && f[0] != "org" && !strings.HasPrefix(f[0], ";") {
					instr++
				}
			}
			t.Logf("%d bytes, %d instructions reassembled (the rest are defb)", len(img), instr)
			assert.Greater(t, instr, 3000)
			r, err := AssembleString(strings.Join(lines, "\n"), Options{})
			require.NoError(t, err)
			assert.Equal(t, uint16(0x8000), r.Org)
			if !assert.Equal(t, img, r.Bytes) {
				t.Log(firstDiff(r, img))
			}
		})
	}
}
