package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
)

func diskPattern(lba, i int) byte { return byte(lba*13+i) ^ byte(i>>8) }

// diskBlocks is the first n blocks of diskPattern.
func diskBlocks(n int) []byte {
	blk := make([]byte, diskbench.BlockSize*n)
	for i := range blk {
		blk[i] = diskPattern(i/diskbench.BlockSize, i%diskbench.BlockSize)
	}
	return blk
}

// openDisk is an ST-125 image at interleave il whose first blocks hold
// diskBlocks(blocks).
func openDisk(t *testing.T, il, blocks int) string {
	path := filepath.Join(t.TempDir(), "hd.img")
	require.NoError(t, acb4000.Create(path, acb4000.ST125, true, il))
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt(diskBlocks(blocks), 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path
}

// The program reads 8 KB on the emulated board: the bytes arrive, the CTC
// and the scope agree, and INIR moves a byte every 5.25 us.
func TestRunReadsOnBoard(t *testing.T) {
	d := openDisk(t, 3, 64)
	res, err := RunDisk(d, acb4000.DefaultParams(), diskbench.Defaults(), false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	assert.Equal(t, 2, res.Program.Reads)
	assert.Len(t, res.Sectors, 16)
	// The program's CTC time also covers its own code around the READs.
	assert.InDelta(t, float64(res.Scope), float64(res.CTC), float64(sched.Millisecond))
	assert.Equal(t, diskBlocks(16), res.Buffer)
	t.Logf("4Kx2 at 3:1: scope %v, CTC %v", res.Scope, res.CTC)
	assert.Greater(t, res.Scope, 16*3*980*sched.Microsecond)
	assert.Equal(t, 21*sched.TState, res.MedianByte, "INIR: 21 T-states a byte")

	p := diskbench.Defaults()
	p.Mode, p.Reads, p.ReadSecs = diskbench.ByteByByte, 1, 2
	res, err = RunDisk(d, acb4000.DefaultParams(), p, false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	t.Logf("byte by byte: %v a byte", res.MedianByte)
	assert.InDelta(t, float64(15*sched.Microsecond), float64(res.MedianByte), float64(sched.Microsecond))
}

// More READs than the buffer holds wrap it: 80 blocks as ten 4 KB READs
// continue block by block, the last 32 KB (blocks 16-79) end up in memory
// in wrapped order, and Steady takes the chunk period from the stamps.
func TestRunWrapsBuffer(t *testing.T) {
	d := openDisk(t, 3, 80)
	blk := diskBlocks(80)
	p := diskbench.Defaults()
	p.Reads = 10
	res, err := RunDisk(d, acb4000.DefaultParams(), p, false)
	require.NoError(t, err)
	require.Empty(t, res.Failed)
	assert.Equal(t, 10, res.Program.Reads)
	require.Len(t, res.Buffer, 32768)
	for slot := range 64 {
		lba := 64 + slot // blocks 64-79 overwrite slots 0-15
		if slot >= 16 {
			lba = slot
		}
		assert.Equal(t, blk[lba*diskbench.BlockSize:(lba+1)*diskbench.BlockSize], res.Buffer[slot*diskbench.BlockSize:(slot+1)*diskbench.BlockSize], "slot %d", slot)
	}
	require.Len(t, res.EndBus, 10)
	bus, ctc, err := res.Steady(2)
	require.NoError(t, err)
	assert.InDelta(t, float64(bus), float64(ctc), float64(200*sched.Microsecond))
	_, _, err = res.Steady(6)
	assert.Error(t, err, "fewer than two chunks")
}
