package bios

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/scsilib"
)

const prog = `        ORG 100h
        INCLUDE "scsilib.inc"
        INCLUDE "bios.inc"
        END
`

// bios.inc assembles after scsilib with both assemblers to the same bytes,
// and its request block is laid out as scsilib's sl_exec expects.
func TestAssembles(t *testing.T) {
	fsys := asm.UnionFS(fstest.MapFS{"t.asm": {Data: []byte(prog)}}, FS, scsilib.FS)
	r, err := asm.Assemble(fsys, "t.asm", asm.Options{})
	require.NoError(t, err)
	for _, s := range []string{"bios_settrk", "bios_setsec", "bios_setdma", "bios_read", "bios_inval"} {
		assert.Contains(t, r.Symbols, s)
	}
	assert.Equal(t, r.Symbols["bs_rq"]+r.Symbols["RQ_SIZE"], r.Symbols["bs_hbuf"], "request block then the host buffer")
	off := r.Symbols["bs_rq"] - int64(r.Org)
	rq := r.Bytes[off : off+10]
	assert.Equal(t, []byte{0, 0, 0, 6}, rq[:4], "target 0, DATA IN byte by byte, CDB of 6")
	assert.Equal(t, []byte{0x00, 0x02}, rq[8:10], "one 512-byte block")

	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		t.Skip("pasmo not installed (make debs)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "t.asm")
	require.NoError(t, os.WriteFile(src, []byte(prog), 0o644))
	out := filepath.Join(dir, "t.bin")
	msg, err := exec.Command(pasmo, "-I", ".", "-I", "../scsilib", src, out).CombinedOutput()
	require.NoError(t, err, string(msg))
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, want, r.Bytes)
}
