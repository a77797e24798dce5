package bench

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// A board with floppies saved at any instant of a script (stepping, in
// the middle of a sector, between sectors) and loaded into a new board
// built from the same configuration finishes exactly as the uninterrupted
// run: same memory, same end time.
func TestSaveStateMidFloppyRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.imd")
	f, _ := fdimage.ParseFormat("amp2")
	d := f.NewDisk(0)
	for ti := range d.Tracks {
		for si := range d.Tracks[ti].Sectors {
			for k := range d.Tracks[ti].Sectors[si].Data {
				d.Tracks[ti].Sectors[si].Data[k] = byte(k*5 + si + ti)
			}
		}
	}
	require.NoError(t, fdimage.Create(path, f, d, "IMD 1.18: test"))
	cfg := emu.DefaultConfig(nil)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi", Image: path}, {Drive: 1}}
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.TypeI(0x18, 3) // Seek to 3
	for r := 0; r < 10; r++ {
		s.ReadSector(byte(17+r), byte(0x20+2*r), 0)
	}
	s.ReadAddress()

	ref, err := LoadFloppy(cfg, fdbench.BaseLoop, s, nil)
	require.NoError(t, err)
	res, err := ref.Finish(10 * sched.Second)
	require.NoError(t, err)
	want := ref.Page(0x20, 10*512)
	end := res.End
	require.NoError(t, ref.Close())

	for _, cut := range []sched.Time{5 * sched.Millisecond, end / 5, end / 2, end - 3*sched.Millisecond} {
		a, err := LoadFloppy(cfg, fdbench.BaseLoop, s, nil)
		require.NoError(t, err)
		require.NoError(t, a.Board.RunFor(cut))
		var st bytes.Buffer
		require.NoError(t, a.Board.SaveState(&st), "at %v", cut)
		require.NoError(t, a.Close())

		b, err := LoadFloppy(cfg, fdbench.BaseLoop, nil, nil)
		require.NoError(t, err)
		require.NoError(t, b.Board.LoadState(&st, "state"))
		got, err := b.Finish(10 * sched.Second)
		require.NoError(t, err, "at %v", cut)
		assert.Equal(t, end, got.End, "at %v", cut)
		assert.Equal(t, res.RA, got.RA, "at %v", cut)
		assert.Equal(t, want, b.Page(0x20, 10*512), "at %v", cut)
		require.NoError(t, b.Close())
	}
	// A disk kept only in memory cannot be saved; another disk refuses.
	m := loadFloppy(t, f.NewDisk(0), fdbench.BaseLoop, nil, nil)
	assert.ErrorContains(t, m.Board.SaveState(&bytes.Buffer{}), "not an image file")
}
