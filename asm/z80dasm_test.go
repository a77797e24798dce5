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

	"github.com/lbplus/lbplus/internal/opimage"
)

// z80dasm writes DD/FD CB register copies as "rlc (ix+003h) & ld b,(ix+003h)";
// lbplus (like sjasmplus) spells them "rlc (ix+003h),b".
var dasmCopy = regexp.MustCompile(`^(\s*\w+ (?:\d,)?\((?:ix|iy)[^)]*\)) & ld (\w),.*$`)

func TestZ80dasmRoundTrip(t *testing.T) {
	needTool(t, "z80dasm")
	img := opimage.Image()
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
