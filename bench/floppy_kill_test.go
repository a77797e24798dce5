//go:build unix

package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// TestHelperFloppyWriter is the child of TestKillKeepsFloppyWrites: a board
// whose Z80 writes two sectors through the WD1772; once the chip has
// reported both done it says so and waits to be killed.
func TestHelperFloppyWriter(t *testing.T) {
	p := os.Getenv("LBPLUS_FLOPPY_CHILD")
	if p == "" {
		t.Skip("helper process only")
	}
	fail := func(err error) {
		fmt.Println("error", err)
		os.Exit(1)
	}
	cfg := emu.DefaultConfig(nil)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi", Image: p, Format: "amp2"}}
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteSector(18, 0x20)
	s.WriteSector(25, 0x22)
	run, err := LoadFloppy(cfg, fdbench.BaseLoop, s, map[byte][]byte{0x20: bytes.Repeat([]byte{0x5A}, 512), 0x22: bytes.Repeat([]byte{0xA5}, 512)})
	if err != nil {
		fail(err)
	}
	res, err := run.Finish(5 * sched.Second)
	if err != nil {
		fail(err)
	}
	fmt.Printf("written %02X %02X\n", res.Status[1], res.Status[2])
	os.Stdin.Read(make([]byte, 1)) // hold the image until killed
	os.Exit(0)
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
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFloppyWriter$")
		cmd.Env = append(os.Environ(), "LBPLUS_FLOPPY_CHILD="+p)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, "written 80 80\n", line, name)
		_, err = fdimage.Open(p, fdimage.Options{Format: "amp2"})
		assert.ErrorContains(t, err, "in use", "the child holds the lock")

		require.NoError(t, cmd.Process.Kill())
		cmd.Wait()
		stdin.Close()

		im, err := fdimage.Open(p, fdimage.Options{Format: "amp2"})
		require.NoError(t, err, "a killed process leaves no stale lock")
		tr := im.Disk().Track(0, 0)
		assert.Equal(t, bytes.Repeat([]byte{0x5A}, 512), tr.Sectors[tr.Find(18)].Data, name)
		assert.Equal(t, bytes.Repeat([]byte{0xA5}, 512), tr.Sectors[tr.Find(25)].Data, name)
		assert.Equal(t, bytes.Repeat([]byte{0xE5}, 512), tr.Sectors[tr.Find(17)].Data, name)
		im.Close()
	}
}
