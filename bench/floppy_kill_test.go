//go:build unix

package bench

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/killtest"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// TestHelperFloppyWriter is the child of TestKillKeepsFloppyWrites: a board
// whose Z80 writes two sectors through the WD1772; once the chip has
// reported both done it says so and waits to be killed.
func TestHelperFloppyWriter(t *testing.T) {
	p := killtest.Child(t)
	cfg := emu.DefaultConfig(nil)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi", Image: p, Format: "amp2"}}
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteSector(18, 0x20)
	s.WriteSector(25, 0x22)
	run, err := LoadFloppy(cfg, fdbench.BaseLoop, s, map[byte][]byte{0x20: bytes.Repeat([]byte{0x5A}, 512), 0x22: bytes.Repeat([]byte{0xA5}, 512)})
	if err != nil {
		killtest.Fail(err)
	}
	res, err := run.Finish(5 * sched.Second)
	if err != nil {
		killtest.Fail(err)
	}
	fmt.Printf("written %02X %02X\n", res.Status[1], res.Status[2])
	killtest.Hold()
}

// Sectors the WD1772 reported written are in the image (raw or IMD) even
// when the emulator is killed with SIGKILL right after, and the dead
// process's lock is gone.
func TestKillKeepsFloppyWrites(t *testing.T) {
	for _, name := range []string{"k.img", "k.imd"} {
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		f, _ := fdimage.ParseFormat("amp2")
		require.NoError(t, fdimage.Create(p, f, f.NewDisk(0xE5), "IMD 1.18: test"))
		child := killtest.Start(t, "TestHelperFloppyWriter", p)
		require.Equal(t, "written 80 80\n", child.Line(), name)
		_, err := fdimage.Open(p, fdimage.Options{Format: "amp2"})
		assert.ErrorContains(t, err, "in use", "the child holds the lock")

		child.Kill()

		im, err := fdimage.Open(p, fdimage.Options{Format: "amp2"})
		require.NoError(t, err, "a killed process leaves no stale lock")
		tr := im.Disk().Track(0, 0)
		assert.Equal(t, bytes.Repeat([]byte{0x5A}, 512), tr.Sectors[tr.Find(18)].Data, name)
		assert.Equal(t, bytes.Repeat([]byte{0xA5}, 512), tr.Sectors[tr.Find(25)].Data, name)
		assert.Equal(t, bytes.Repeat([]byte{0xE5}, 512), tr.Sectors[tr.Find(17)].Data, name)
		im.Close()
	}
}
