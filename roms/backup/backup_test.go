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
	assert.LessOrEqual(t, r.Symbols["stack"], r.Symbols["BUF"])
	assert.Equal(t, int64(0), r.Symbols["tm_vtab"]&7, "CTC vector table 8-byte aligned")
}

// Every field names a label of the program, and the defaults assembled
// into the program equal Defaults().Fields() label by label, so a program
// run without a harness does what the Go side documents.
func TestFieldsMatchSource(t *testing.T) {
	r, err := Build()
	require.NoError(t, err)
	d := Defaults()
	d.DiskBurst = 256
	f := d.Fields()
	assert.Len(t, f, 16, "every parameter")
	for sym, want := range f {
		a, ok := r.Symbols[sym]
		require.True(t, ok, sym)
		off := a - int64(r.Org)
		assert.Equal(t, want, r.Bytes[off:off+int64(len(want))], sym)
	}
}

// pasmo is the reference assembler: the same source must give the
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
