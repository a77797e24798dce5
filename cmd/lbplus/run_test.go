package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/bootdemo"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

func TestRunRejectsBadInput(t *testing.T) {
	resetRunFlags(t)
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.rom")
	if err := os.WriteFile(odd, make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, rom, speed, console, want string
	}{
		{"rom size", odd, "max", "stdio", odd + ": ROM image is 5000 bytes"},
		{"missing rom", filepath.Join(dir, "none.rom"), "max", "stdio", "none.rom"},
		{"speed", "", "warp", "stdio", `--speed "warp": want realtime or max`},
		{"console", "", "max", "serial", `console "serial": want stdio, tcp:PORT or tcp:HOST:PORT`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runFlags.rom, runFlags.speed, runFlags.console, runFlags.scsiID = tt.rom, tt.speed, tt.console, 7
			err := runBoard(runCmd, nil)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// resetRunFlags puts the run flags back to their defaults after a test.
func resetRunFlags(t *testing.T) {
	t.Cleanup(func() {
		runFlags.machine, runFlags.rom, runFlags.scsi = "", "", nil
		runFlags.hd0, runFlags.lun1, runFlags.tape = "", "", ""
		runFlags.saveState, runFlags.loadState = "", ""
		runFlags.speed, runFlags.console, runFlags.scsiID, runFlags.waitOnDRQ = "realtime", "stdio", 7, false
		runCmd.Flags().Set("scsi-id", "7")
		for _, f := range []string{"scsi-id", "console"} {
			runCmd.Flags().Lookup(f).Changed = false
		}
	})
}

// The shorthands, --scsi and a machine file combine into one machine
// configuration; flags given override the file.
func TestRunConfig(t *testing.T) {
	resetRunFlags(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.toml")
	require.NoError(t, os.WriteFile(m, []byte("scsi_id = 5\nconsole = \"tcp:2323\"\nwait_on_drq = true\n[[scsi]]\nid = 4\ntype = \"acb4000\"\nimages = [\"x.img\"]\n"), 0o644))

	runFlags.hd0, runFlags.lun1, runFlags.tape = "a.img", "b.img", "t.tape"
	runFlags.scsi = []string{"3=mcd403:u.tape"}
	cfg, err := runConfig(runCmd)
	require.NoError(t, err)
	assert.Equal(t, "built-in monitor", cfg.ROMName)
	assert.Equal(t, []scsidev.Spec{
		{ID: 3, Type: "mcd403", Images: []string{"u.tape"}},
		{ID: 0, Type: "acb4000", Images: []string{"a.img", "b.img"}},
		{ID: 1, Type: "mcd403", Images: []string{"t.tape"}},
	}, cfg.SCSI)

	runFlags.machine, runFlags.hd0, runFlags.lun1, runFlags.tape, runFlags.scsi = m, "", "", "", nil
	cfg, err = runConfig(runCmd)
	require.NoError(t, err)
	assert.Equal(t, 5, cfg.SCSIID, "from the file: --scsi-id was not given")
	assert.Equal(t, "tcp:2323", cfg.Console)
	assert.True(t, cfg.WaitOnDRQ)
	require.NoError(t, runCmd.Flags().Set("scsi-id", "6"))
	runFlags.scsi = []string{"4=mcd403:t.tape"}
	_, err = runConfig(runCmd)
	assert.ErrorContains(t, err, "SCSI ID 4 is given twice")
	runFlags.scsi = nil
	cfg, err = runConfig(runCmd)
	require.NoError(t, err)
	assert.Equal(t, 6, cfg.SCSIID, "the flag given overrides the file")

	runFlags.machine, runFlags.lun1 = "", "b.img"
	_, err = runConfig(runCmd)
	assert.ErrorContains(t, err, "--hd0-lun1 b.img needs --hd0 too")
}

// flagBoard is the machine lbplus run builds from the flags set, its
// console on a transcript and a typist; the board is closed when t ends.
func flagBoard(t *testing.T) (*emu.Board, *console.Typist, *console.Transcript) {
	t.Helper()
	cfg, err := runConfig(runCmd)
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg.ConsoleOut = tr.Out
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b, &console.Typist{B: b, T: tr}, tr
}

// bootDemoDisk makes a small ACB-4000 image at path with the demo boot
// block (roms/bootdemo) in block 0, written through the image package.
func bootDemoDisk(t *testing.T, path string) {
	t.Helper()
	g := acb4000.Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}
	require.NoError(t, acb4000.Create(path, g, true, 3))
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	var m acb4000.Meta
	f, err := image.Open(path, &m, false)
	require.NoError(t, err)
	require.NoError(t, f.WriteBlock(0, blk))
	require.NoError(t, f.Close())
}

// The acceptance test of the machine: two ACB-4000s and a tape on one bus
// (`lbplus run --scsi 0=acb4000:a.img --scsi 1=acb4000:b.img --scsi
// 3=mcd403:t.img`); the monitor boots, reads block 0 of both disks, and
// each boot block reports its target.
func TestRunTwoDisksAndTape(t *testing.T) {
	resetRunFlags(t)
	dir := t.TempDir()
	for _, n := range []string{"a.img", "b.img"} {
		bootDemoDisk(t, filepath.Join(dir, n))
	}
	require.NoError(t, mcd403.Create(filepath.Join(dir, "t.img"), 3))
	runFlags.scsi = []string{"0=acb4000:" + filepath.Join(dir, "a.img"), "1=acb4000:" + filepath.Join(dir, "b.img"), "3=mcd403:" + filepath.Join(dir, "t.img")}
	b, ty, _ := flagBoard(t)
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" ")) // the monitor, not the automatic boot
	require.NoError(t, ty.WaitFor("> "))
	for _, id := range []string{"0", "1"} {
		require.NoError(t, ty.Type("B"+id+"\r"))
		require.NoError(t, ty.WaitFor(bootdemo.Message+id+"\r\n> "), "target %s boots", id)
	}
	for id, want := range map[int]uint64{0: 1, 1: 1, 3: 0} {
		st := b.SCSIDevice(id)
		require.NotNil(t, st, "ID %d", id)
		if c, ok := st.(*acb4000.Controller); ok {
			assert.Equal(t, want, c.Stats.BlocksRead, "ID %d reads its block 0", id)
		}
	}
}

// A raw 20 MB image without a sidecar (a BlueSCSI .hda, a dd of a drive)
// attaches as it is and boots; a truncated or oversized one is one clear
// error line.
func TestRunRawImage(t *testing.T) {
	resetRunFlags(t)
	dir := t.TempDir()
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	raw := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size))
		_, err = f.WriteAt(blk, 0)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		return p
	}
	hda := raw("disk.hda", 20<<20)
	runFlags.scsi = []string{"0=acb4000:" + hda}
	b, ty, _ := flagBoard(t)
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" "))
	require.NoError(t, ty.Command("> ", "B0"))
	require.NoError(t, ty.WaitFor(bootdemo.Message+"0\r\n> "))
	assert.NoFileExists(t, hda+".toml", "no sidecar appears")
	require.NoError(t, b.Close())

	st125 := int64(acb4000.ST125.Blocks()) * 512
	for _, tt := range []struct{ arg, want string }{
		{"0=acb4000:" + raw("short.img", st125-300), "short.img: truncated: "},
		{"0=acb4000,geometry=st125:" + raw("long.img", st125+512), "long.img: oversized: 41821 blocks, but geometry st125 holds 41820"},
		{"0=acb4000,geometry=st125:" + raw("cut.img", st125-512), "cut.img: truncated: 41819 blocks, but geometry st125 holds 41820"},
	} {
		runFlags.scsi = []string{tt.arg}
		cfg, err := runConfig(runCmd)
		require.NoError(t, err)
		_, err = emu.New(cfg)
		require.Error(t, err, tt.arg)
		assert.Contains(t, err.Error(), tt.want)
		assert.NotContains(t, err.Error(), "\n")
	}
}

// --hd0 FILE,ro and --tape FILE,ro attach the image read-only, as the
// message for an image the user cannot write suggests.
func TestRunConfigReadOnlyShorthands(t *testing.T) {
	resetRunFlags(t)
	runFlags.hd0, runFlags.lun1, runFlags.tape = "a.img", "b.img,ro", "t.tape,ro"
	cfg, err := runConfig(runCmd)
	require.NoError(t, err)
	assert.Equal(t, []scsidev.Spec{
		{ID: 0, Type: "acb4000", Images: []string{"a.img", "b.img"}, ReadOnly: true},
		{ID: 1, Type: "mcd403", Images: []string{"t.tape"}, ReadOnly: true},
	}, cfg.SCSI)
}
