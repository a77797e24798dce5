package diskbench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/sched"
)

func TestBuildLayout(t *testing.T) {
	p, err := Build()
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), p.Org)
	assert.Equal(t, uint16(0x103), p.Params)
	r, err := asm.Assemble(Sources(), "diskbench.asm", asm.Options{})
	require.NoError(t, err)
	for sym, off := range map[string]int{"p_tgt": 0, "p_mode": 1, "p_burst": 2, "p_rdsec": 3, "p_nread": 4,
		"p_lba": 5, "p_ready": 8, "p_tmo": 9, "results": ParamsSize} {
		assert.Equal(t, int64(p.Params)+int64(off), r.Symbols[sym], sym)
	}
	for sym, off := range map[string]int{"r_state": 0, "r_err": 1, "r_stat": 2, "r_nread": 3, "r_time": 4} {
		assert.Equal(t, int64(p.Results)+int64(off), r.Symbols[sym], sym)
	}
	assert.Equal(t, p.Results+ResultsSize, p.Stamps, "the stamp table follows the results")
	assert.LessOrEqual(t, r.Symbols["r_tab"]+4*MaxReads, r.Symbols["stack"], "the table holds MaxReads stamps")
	assert.Less(t, r.Symbols["stack"], int64(BufferAddr))
	assert.Equal(t, int64(0), r.Symbols["tm_vtab"]&7)
	// The defaults assembled in equal Defaults().Encode().
	off := p.Params - p.Org
	assert.Equal(t, Defaults().Encode(), p.Bytes[off:off+ParamsSize])
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

func pattern(lba, i int) byte { return byte(lba*13+i) ^ byte(i>>8) }

func openDisk(t *testing.T, il int) string {
	path := filepath.Join(t.TempDir(), "hd.img")
	require.NoError(t, acb4000.Create(path, acb4000.ST125, true, il))
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	blk := make([]byte, BlockSize*64)
	for i := range blk {
		blk[i] = pattern(i/BlockSize, i%BlockSize)
	}
	_, err = f.WriteAt(blk, 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path
}

// The program reads 8 KB on the emulated board: the bytes arrive, the CTC
// and the scope agree, and INIR moves a byte every 5.25 us.
func TestRunReadsOnBoard(t *testing.T) {
	prog, err := Build()
	require.NoError(t, err)
	d := openDisk(t, 3)
	res, err := Run(prog, d, acb4000.DefaultParams(), Defaults(), false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	assert.Equal(t, 2, res.Program.Reads)
	assert.Len(t, res.Sectors, 16)
	// The program's CTC time also covers its own code around the READs.
	assert.InDelta(t, float64(res.Scope), float64(res.CTC), float64(sched.Millisecond))
	want := make([]byte, 8192)
	for i := range want {
		want[i] = pattern(i/BlockSize, i%BlockSize)
	}
	assert.Equal(t, want, res.Buffer)
	t.Logf("4Kx2 at 3:1: scope %v, CTC %v", res.Scope, res.CTC)
	assert.Greater(t, res.Scope, 16*3*980*sched.Microsecond)
	assert.Equal(t, 21*sched.TState, res.MedianByte, "INIR: 21 T-states a byte")

	p := Defaults()
	p.Mode, p.Reads, p.ReadSecs = ByteByByte, 1, 2
	res, err = Run(prog, d, acb4000.DefaultParams(), p, false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	t.Logf("byte by byte: %v a byte", res.MedianByte)
	assert.InDelta(t, float64(15*sched.Microsecond), float64(res.MedianByte), float64(sched.Microsecond))
}

// More READs than the buffer holds wrap it: 80 blocks as ten 4 KB READs
// continue block by block, the last 32 KB (blocks 16-79) end up in memory
// in wrapped order, and Steady takes the chunk period from the stamps.
func TestRunWrapsBuffer(t *testing.T) {
	prog, err := Build()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "hd.img")
	require.NoError(t, acb4000.Create(path, acb4000.ST125, true, 3))
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	blk := make([]byte, BlockSize*80)
	for i := range blk {
		blk[i] = pattern(i/BlockSize, i%BlockSize)
	}
	_, err = f.WriteAt(blk, 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	d := path
	p := Defaults()
	p.Reads = 10
	res, err := Run(prog, d, acb4000.DefaultParams(), p, false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	assert.Equal(t, 10, res.Program.Reads)
	require.Len(t, res.Buffer, 32768)
	for slot := range 64 {
		lba := 64 + slot // blocks 64-79 overwrite slots 0-15
		if slot >= 16 {
			lba = slot
		}
		assert.Equal(t, blk[lba*BlockSize:(lba+1)*BlockSize], res.Buffer[slot*BlockSize:(slot+1)*BlockSize], "slot %d", slot)
	}
	require.Len(t, res.EndBus, 10)
	bus, ctc, err := res.Steady(2)
	require.NoError(t, err)
	assert.InDelta(t, float64(bus), float64(ctc), float64(200*sched.Microsecond))
	_, _, err = res.Steady(6)
	assert.Error(t, err, "fewer than two chunks")
}
