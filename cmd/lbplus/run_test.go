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
			_, _, err := execute("run", "--rom", tt.rom, "--speed", tt.speed, "--console", tt.console)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// The shorthands, --scsi and a machine file combine into one machine
// configuration; flags given override the file.
func TestRunConfig(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.toml")
	require.NoError(t, os.WriteFile(m, []byte("scsi_id = 5\nconsole = \"tcp:2323\"\nwait_on_drq = true\n[[scsi]]\nid = 4\ntype = \"acb4000\"\nimages = [\"x.img\"]\n"), 0o644))

	cfg, err := runConfigFor(t, "--hd0", "a.img", "--hd0-lun1", "b.img", "--tape", "t.tape", "--scsi", "3=mcd403:u.tape")
	require.NoError(t, err)
	assert.Equal(t, "built-in monitor", cfg.ROMName)
	assert.Equal(t, []scsidev.Spec{
		{ID: 3, Type: "mcd403", Images: []string{"u.tape"}},
		{ID: 0, Type: "acb4000", Images: []string{"a.img", "b.img"}},
		{ID: 1, Type: "mcd403", Images: []string{"t.tape"}},
	}, cfg.SCSI)
	assert.Equal(t, 7, cfg.SCSIID, "the flag's default without a machine file")
	assert.Equal(t, "stdio", cfg.Console)
	assert.False(t, cfg.WaitOnDRQ)

	cfg, err = runConfigFor(t, "--machine", m)
	require.NoError(t, err)
	assert.Equal(t, 5, cfg.SCSIID, "from the file: --scsi-id was not given")
	assert.Equal(t, "tcp:2323", cfg.Console)
	assert.True(t, cfg.WaitOnDRQ)
	_, err = runConfigFor(t, "--machine", m, "--scsi-id", "6", "--scsi", "4=mcd403:t.tape")
	assert.ErrorContains(t, err, "SCSI ID 4 is given twice")
	cfg, err = runConfigFor(t, "--machine", m, "--scsi-id", "6")
	require.NoError(t, err)
	assert.Equal(t, 6, cfg.SCSIID, "the flag given overrides the file")

	_, err = runConfigFor(t, "--hd0-lun1", "b.img")
	assert.ErrorContains(t, err, "--hd0-lun1 b.img needs --hd0 too")
}

// A bad --scsi or --hd0 is one line naming the flag and what was given
// (the grammar itself is scsidev's, tested there).
func TestRunConfigBadSCSIFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--scsi", "9=acb4000:x"}, `--scsi "9=acb4000:x": the ID is a number 0-7 (want ID=TYPE:FILE, e.g. 0=acb4000:hd0.img)`},
		{[]string{"--scsi", "0=acb4000,fast:x"}, `--scsi "0=acb4000,fast:x": unknown option "fast" (ro, geometry=NAME, interleave=N) (want ID=TYPE:FILE, e.g. 0=acb4000:hd0.img)`},
		{[]string{"--hd0", "d.hda,interleave=-2"}, `--hd0 "d.hda,interleave=-2": interleave "-2": want a number from 1 (1:1) to the sectors per track - 1`},
	} {
		_, err := runConfigFor(t, tt.args...)
		assert.EqualError(t, err, tt.want, tt.args)
	}
}

// flagBoard is the machine `lbplus run ARGS` builds, its console on a
// transcript and a typist; the board is closed when t ends.
func flagBoard(t *testing.T, args ...string) (*emu.Board, *console.Typist, *console.Transcript) {
	t.Helper()
	_, b, ty, tr := sessionBoard(t, args...)
	return b, ty, tr
}

// sessionBoard is flagBoard with the run's session, which the escape
// prompt's commands use.
func sessionBoard(t *testing.T, args ...string) (*runSession, *emu.Board, *console.Typist, *console.Transcript) {
	t.Helper()
	cmd, s := runSessionFor(t, args...)
	cfg, err := s.config(cmd)
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg.ConsoleOut = tr.Out
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return s, b, &console.Typist{B: b, T: tr}, tr
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
	dir := t.TempDir()
	for _, n := range []string{"a.img", "b.img"} {
		bootDemoDisk(t, filepath.Join(dir, n))
	}
	require.NoError(t, mcd403.Create(filepath.Join(dir, "t.img"), 3))
	b, ty, _ := flagBoard(t, "--scsi", "0=acb4000:"+filepath.Join(dir, "a.img"), "--scsi", "1=acb4000:"+filepath.Join(dir, "b.img"),
		"--scsi", "3=mcd403:"+filepath.Join(dir, "t.img"))
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
	b, ty, _ := flagBoard(t, "--scsi", "0=acb4000:"+hda)
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
		cfg, err := runConfigFor(t, "--scsi", tt.arg)
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
	cfg, err := runConfigFor(t, "--hd0", "a.img", "--hd0-lun1", "b.img,ro", "--tape", "t.tape,ro")
	require.NoError(t, err)
	assert.Equal(t, []scsidev.Spec{
		{ID: 0, Type: "acb4000", Images: []string{"a.img", "b.img"}, ReadOnly: true},
		{ID: 1, Type: "mcd403", Images: []string{"t.tape"}, ReadOnly: true},
	}, cfg.SCSI)
}
