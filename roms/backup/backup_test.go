package backup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

func TestBuildLayout(t *testing.T) {
	p, err := Build()
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), p.Org)
	assert.Equal(t, uint16(0x103), p.Params, "params right after the JP at 0100h")
	r, err := asm.Assemble(Sources(), "backup.asm", asm.Options{})
	require.NoError(t, err)
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
		assert.Equal(t, int64(p.Params)+int64(f.off), r.Symbols[f.sym], f.sym)
	}
	res := []struct {
		sym string
		off int
	}{
		{"r_state", 0}, {"r_err", 1}, {"r_dev", 2}, {"r_stage", 3}, {"r_csb", 4},
		{"r_stat", 5}, {"r_bytes", 6}, {"r_time", 10}, {"r_pass", 14}, {"r_sense", 16}, {"r_first", 20},
	}
	for _, f := range res {
		assert.Equal(t, int64(p.Results)+int64(f.off), r.Symbols[f.sym], f.sym)
	}
	assert.Equal(t, int64(p.Results)+ResultsSize, r.Symbols["r_first"]+4, "ResultsSize")
	assert.LessOrEqual(t, p.Stack, p.Buffer)
	assert.Equal(t, int64(0), r.Symbols["tm_vtab"]&7, "CTC vector table 8-byte aligned")
}

// The defaults assembled into the program equal Defaults().Encode(), so a
// program run without a harness does what the Go side documents.
func TestDefaultsMatchSource(t *testing.T) {
	p, err := Build()
	require.NoError(t, err)
	off := p.Params - p.Org
	img := p.Bytes[off : off+ParamsSize]
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

func TestDecodeResults(t *testing.T) {
	b := []byte{3, 4, 2, 3, 0x21, 0xFF, 0x00, 0x20, 0, 0, 0x10, 0x27, 0, 0, 5, 0, 1, 2, 3, 4, 0xD0, 7, 0, 0}
	r := DecodeResults(b)
	assert.Equal(t, Results{State: StateFailed, Err: 4, Device: 2, Stage: 3, CSB: 0x21, Status: 0xFF,
		Bytes: 8192, Ticks: 10000, Passes: 5, Sense: [4]byte{1, 2, 3, 4}, First: 2000}, r)
	assert.True(t, r.Hung())
	assert.InDelta(t, 0.64, r.Seconds(), 1e-9)
}
