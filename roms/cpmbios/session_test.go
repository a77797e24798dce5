package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// subFile is a $$$.SUB as SUBMIT leaves it: one 128-byte record per
// command line (length byte, text), the first command in the last record.
func subFile(lines ...string) []byte {
	var out []byte
	for i := len(lines) - 1; i >= 0; i-- {
		rec := make([]byte, 128)
		rec[0] = byte(len(lines[i]))
		copy(rec[1:], lines[i])
		out = append(out, rec...)
	}
	return out
}

// A session at A> on the real board at 9600 baud, typed one command after
// each prompt: DIR, SAVE, REN, TYPE, ERA, USER, drive changes and a
// submit file, against a golden transcript.
func TestConsoleSession(t *testing.T) {
	needCpmtools(t)
	img := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
	put := func(name string, data []byte) {
		src := filepath.Join(dir, "file")
		require.NoError(t, os.WriteFile(src, data, 0o644))
		cmd := exec.Command("cpmcp", "-f", "lbplus-hd0", img, src, name)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	put("0:README.TXT", []byte("Hello from a file cpmcp put on A:.\r\nSecond line.\r\n\x1a"))

	r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{img}}})
	require.NoError(t, r.ty.WaitFor("A>"))
	start := r.tr.Len()
	for _, c := range []struct{ line, prompt string }{
		{"DIR", "A>"},
		{"SAVE 3 PROG.COM", "A>"},
		{"REN NEW.COM=PROG.COM", "A>"},
		{"DIR *.COM", "A>"},
		{"TYPE README.TXT", "A>"},
		{"USER 3", "A>"},
		{"DIR", "A>"},
		{"SAVE 1 U3.COM", "A>"},
		{"DIR", "A>"},
		{"USER 0", "A>"},
		{"ERA NEW.COM", "A>"},
		{"DIR", "A>"},
		{"B:", "B>"},
		{"DIR", "B>"},
		{"A:", "A>"},
	} {
		r.cmd(t, c.line, c.prompt)
	}
	golden.Equal(t, "session.golden", r.tr.Bytes()[start:])
}

// A submit file on A: runs its commands, first line first, when CP/M
// starts, and is gone afterwards.
func TestSubmitFileRunsAtBoot(t *testing.T) {
	needCpmtools(t)
	img := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
	src := filepath.Join(dir, "sub")
	require.NoError(t, os.WriteFile(src, subFile("SAVE 1 FROMSUB.COM", "DIR FROMSUB.COM"), 0o644))
	cmd := exec.Command("cpmcp", "-f", "lbplus-hd0", img, src, "0:$$$.SUB")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{img}}})
	require.NoError(t, r.ty.WaitFor("A>SAVE 1 FROMSUB.COM\r\n"))
	require.NoError(t, r.ty.WaitFor("A>DIR FROMSUB.COM\r\n"))
	require.NoError(t, r.ty.WaitFor("A: FROMSUB  COM\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	require.NoError(t, r.b.RunFor(500e9))
	r.cmd(t, "DIR", "A>")
	assert.NotContains(t, r.tr.String()[len(r.tr.String())-60:], "$$$", "the submit file is gone")
}

// A key pressed while a batch runs stops it: the CCP deletes $$$.SUB
// before the next line runs and gives a new prompt.
func TestSubmitStoppedByAKey(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	putFile(t, path, "$$$.SUB", subFile("SAVE 1 ONE.COM", "SAVE 1 TWO.COM", "SAVE 1 THREE.COM"))
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>SAVE 1 ONE.COM"))
	require.NoError(t, r.ty.Type("x"))
	require.NoError(t, r.b.RunFor(2*sched.Second))
	r.cmd(t, "DIR", "DIR\r\r\n")
	require.NoError(t, r.ty.WaitFor("A>"))
	// The key, typed as ONE.COM's line ran, is seen at the next line's
	// echo: that line is dropped with the rest of the batch.
	got := r.tr.String()
	assert.Contains(t, got, "A>SAVE 1 ONE.COM\r\nA>SAVE 1 TWO.COMx\r\nA>DIR\r\r\nA: ONE      COM\r\nA>")
	assert.NotContains(t, got, "THREE", "the batch stopped")
	assert.NotContains(t, got, "$$$", "the batch file is gone")
}

// chatter prints twenty lines through BDOS function 9 and ends with JP 0.
const chatter = `
        org 100h
        ld b,20
loop:   push bc
        ld c,9
        ld de,msg
        call 5
        pop bc
        djnz loop
        jp 0
msg:    db "chatter chatter chatter chatter chatter",13,10,"$"
`

// A command typed ahead while a program prints: the BDOS takes the first
// key off the console to look for ^S (as DR's BDOS does in its console
// break check) and keeps it in the BDOS, which the warm boot at the
// program's end reloads from disk, so that key is gone and the CCP reads
// the rest. DR CP/M 2.2 behaves the same way (docs/CPM.md "BDOS"); this
// pins it.
func TestTypeAheadDuringOutput(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	r0, err := asm.Assemble(fstest.MapFS{"c.asm": {Data: []byte(chatter)}}, "c.asm", asm.Options{})
	require.NoError(t, err)
	putFile(t, path, "CHATTER.COM", r0.Bytes)
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	require.NoError(t, r.ty.Type("CHATTER\rDIR\r"))
	require.NoError(t, r.ty.WaitFor("IR?"))
	got := r.tr.String()
	assert.Equal(t, 20, strings.Count(got, "chatter chatter chatter chatter chatter\r\n"))
	assert.Contains(t, got, "chatter\r\n\r\nA>IR\r\r\nIR?", "D went to the BDOS, lost at warm boot")
}
