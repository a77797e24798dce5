package backup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildLayout(t *testing.T) {
	r, err := Build()
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), r.Org)
	params := r.Symbols["params"]
	assert.Equal(t, int64(0x103), params, "params right after the JP at 0100h")
	// The Go encoding and the Z80 layout must agree field by field.
	fields := []struct {
		sym string
		off int
	}{
		{"p_src", 0}, {"p_dtgt", 1}, {"p_ttgt", 2}, {"p_dmode", 3}, {"p_dburst", 4},
		{"p_tmode", 5}, {"p_tburst", 6}, {"p_rdsec", 7}, {"p_bufsec", 8}, {"p_tmo", 9},
		{"p_lba", 10}, {"p_tblk", 14}, {"p_npass", 18}, {"p_con", 20}, {"p_ready", 21}, {"p_bcache", 22},
		{"results", ParamsSize},
	}
	for _, f := range fields {
		assert.Equal(t, params+int64(f.off), r.Symbols[f.sym], f.sym)
	}
	assert.LessOrEqual(t, r.Symbols["stack"], r.Symbols["BUF"])
	assert.Equal(t, int64(0), r.Symbols["tm_vtab"]&7, "CTC vector table 8-byte aligned")
}

// The defaults assembled into the program equal Defaults().Encode(), so a
// program run without a harness does what the Go side documents.
func TestDefaultsMatchSource(t *testing.T) {
	r, err := Build()
	require.NoError(t, err)
	off := r.Symbols["params"] - int64(r.Org)
	img := r.Bytes[off : off+ParamsSize]
	d := Defaults()
	d.DiskBurst = 256
	assert.Equal(t, d.Encode(), img)
}

// pasmo is the reference assembler (issue 2): the same source must give the
// same bytes.
func TestSameBytesAsPasmo(t *testing.T) {
	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		t.Skip("pasmo not installed (make debs)")
	}
	p, err := Build()
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "backup.bin")
	cmd := exec.Command(pasmo, "-I", "../scsilib", "-I", "../bios", "backup.asm", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, string(msg))
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, p.Bytes), "github.com/lbplus/lbplus/asm and pasmo differ")
}

func TestValidate(t *testing.T) {
	ok := Defaults()
	require.NoError(t, ok.Validate())
	cases := []struct {
		name string
		mod  func(p *Params)
	}{
		{"source", func(p *Params) { p.Source = 2 }},
		{"disk mode", func(p *Params) { p.DiskMode = 1 }},
		{"burst 0", func(p *Params) { p.DiskBurst = 0 }},
		{"burst 257", func(p *Params) { p.TapeBurst = 257 }},
		{"read 0", func(p *Params) { p.ReadSectors = 0 }},
		{"read 65", func(p *Params) { p.ReadSectors = 65; p.BufSectors = 65 }},
		{"buf not multiple", func(p *Params) { p.ReadSectors = 3 }},
		{"buf not tape blocks", func(p *Params) { p.ReadSectors = 4; p.BufSectors = 12 }},
		{"passes", func(p *Params) { p.Passes = 0 }},
		{"lba", func(p *Params) { p.StartLBA = 1 << 21 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Defaults()
			c.mod(&p)
			assert.Error(t, p.Validate())
		})
	}
	disk := Defaults()
	disk.TapeID, disk.ReadSectors, disk.BufSectors = NoTape, 3, 3
	assert.NoError(t, disk.Validate(), "disk-only runs take any READ size")
}
