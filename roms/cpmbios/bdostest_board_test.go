package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Our BDOS on this BIOS on the emulated board: BDOSTEST's portable part
// (sequential and random access across extents with 16-bit block numbers,
// function 40's zero fill, attributes, user areas, the FCB drive byte)
// passes on hard disk partitions A: and B:.
func TestBDOSTestOnTheBoard(t *testing.T) {
	needCpmtools(t)
	img := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
	com, err := cpmutil.Program("BDOSTEST")
	require.NoError(t, err)
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bdostest.com"), com, 0o644))
	cmd := exec.Command("cpmcp", "-f", "lbplus-hd0", img, "bdostest.com", "0:BDOSTEST.COM")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	r := bootDisk(t, img)
	r.ty.Limit = 600 * sched.Second
	require.NoError(t, r.ty.WaitFor("A>"))
	require.NoError(t, r.ty.Type("BDOSTEST P\r"))
	require.NoError(t, r.ty.WaitFor("errors\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	tr := r.tr.String()
	t.Log(tr)
	assert.Contains(t, tr, "BDOSTEST: 0 errors")
	assert.NotContains(t, tr, "FAIL")
}

// The whole BDOSTEST but its console part (BDOSTEST F) on the board, on
// the disks it was written for: booted from an amp2 floppy (A:), an empty
// amp1 floppy in drive 1 (B:: the DPB checks, the drive byte, filling the
// disk and its directory), and two hard disk partitions (C:, D:) for the
// 16-bit block numbers; every function 13-40 through the real BIOS's
// floppy deblocking and SCSI.
func TestBDOSTestFullOnTheBoard(t *testing.T) {
	com, err := cpmutil.Program("BDOSTEST")
	require.NoError(t, err)
	boot := systemFloppy(t, "amp2", ourSystem(t))
	im, err := fdimage.Open(boot, fdimage.Options{Format: "amp2"})
	require.NoError(t, err)
	fs, err := cpmbios.FloppyFS(im)
	require.NoError(t, err)
	require.NoError(t, fs.Write(0, "BDOSTEST.COM", com))
	require.NoError(t, im.Close())
	f, err := fdimage.ParseFormat("amp1")
	require.NoError(t, err)
	empty := filepath.Join(t.TempDir(), "amp1.img")
	require.NoError(t, fdimage.Create(empty, f, f.NewDisk(0xE5), ""))
	hd := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})

	r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: boot, Format: "amp2"}, {Drive: 1, Image: empty, Format: "amp1"}},
		[]scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}})
	r.ty.Limit = 900 * sched.Second
	require.NoError(t, r.ty.WaitFor("2 hard disk partition(s), 2 floppy drive(s)\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	start := r.b.Now()
	require.NoError(t, r.ty.Type("BDOSTEST F\r"))
	require.NoError(t, r.ty.WaitFor("errors\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	tr := r.tr.String()
	t.Logf("%s\n%.0f s of emulated time", tr, float64(r.b.Now()-start)/float64(sched.Second))
	assert.Contains(t, tr, "disks\r\nfiles on A:\r\nfiles on C:\r\nfiles on D:\r\nattributes\r\nusers\r\ndrive byte\r\nfull disk\r\nBDOSTEST: 0 errors")
	assert.NotContains(t, tr, "FAIL")
}

// BDOSTEST's error paths on the board (hard disk A:): the BDOS's messages
// reach the console through the BIOS, and a key warm boots to A>
// (BAD SECTOR on the board: TestBadInputs).
func TestBDOSErrorsOnTheBoard(t *testing.T) {
	com, err := cpmutil.Program("BDOSTEST")
	require.NoError(t, err)
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	putFile(t, path, "BDOSTEST.COM", com)
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	for _, c := range []struct{ arg, want string }{
		{"S", "BDOS ERR ON P: SELECT"},
		{"D", "BDOS ERR ON A: R/O"},
		{"R", "BDOS ERR ON A: FILE R/O"},
	} {
		r.cmd(t, "BDOSTEST "+c.arg, c.want)
		require.NoError(t, r.ty.Type("x"))
		require.NoError(t, r.ty.WaitFor("A>"))
	}
	r.cmd(t, "SAVE 1 AFTER.COM", "A>") // the drive R/O by function 28 is writable after the warm boot
	r.cmd(t, "DIR", "A: BDOSTEST COM : ATTR     DAT : AFTER    COM\r\nA>")
	assert.NotContains(t, r.tr.String(), "NOT REACHED")
}
