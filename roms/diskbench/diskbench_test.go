package diskbench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildLayout(t *testing.T) {
	r, err := Build()
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), r.Org)
	assert.LessOrEqual(t, r.Symbols["r_tab"]+4*MaxReads, r.Symbols["stack"], "the table holds MaxReads stamps")
	assert.Less(t, r.Symbols["stack"], r.Symbols["BUF"])
	assert.GreaterOrEqual(t, 0x10000-r.Symbols["BUF"], int64(MaxBlocks*BlockSize), "the buffer holds MaxBlocks")
	assert.Equal(t, int64(0), r.Symbols["tm_vtab"]&7)
	// The defaults assembled in equal Defaults().Fields(), label by label.
	f := Defaults().Fields()
	assert.Len(t, f, 8, "every parameter")
	for sym, want := range f {
		a, ok := r.Symbols[sym]
		require.True(t, ok, sym)
		off := a - int64(r.Org)
		assert.Equal(t, want, r.Bytes[off:off+int64(len(want))], sym)
	}
}

func TestValidate(t *testing.T) {
	require.NoError(t, Defaults().Validate())
	for name, mut := range map[string]func(*Params){
		"mode":   func(p *Params) { p.Mode = 1 },
		"burst":  func(p *Params) { p.Burst = 0 },
		"blocks": func(p *Params) { p.ReadSecs = 65 },
		"reads":  func(p *Params) { p.Reads = 65 },
		"lba":    func(p *Params) { p.LBA = 1<<21 - 1 },
		"target": func(p *Params) { p.Target = 8 },
	} {
		p := Defaults()
		mut(&p)
		assert.Error(t, p.Validate(), name)
	}
}
