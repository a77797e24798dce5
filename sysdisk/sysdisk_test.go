package sysdisk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

// filesOnA lists partition 0's files of the hard-disk image at path.
func filesOnA(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := OpenHD(path, true)
	require.NoError(t, err)
	defer f.Close()
	fs, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	got := map[string]int{}
	for _, e := range fs.List() {
		got[e.Name] = int(e.Size)
	}
	return got
}

// The default system disk is complete when its name appears: the system,
// README.TXT and every program on A:, no temporary file left; a leftover
// of an interrupted first run is replaced.
func TestMakeDefault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpm-hd0.img")
	require.NoError(t, os.WriteFile(path+".new", []byte("half made"), 0o644))
	require.NoError(t, MakeDefault(path))
	assert.FileExists(t, path+".toml")
	assert.NoFileExists(t, path+".new")
	assert.NoFileExists(t, path+".new.toml")
	assert.True(t, IsHD(path))
	files := filesOnA(t, path)
	assert.Contains(t, files, "README.TXT")
	for _, name := range append(Programs(), "BACKUP", "RESTORE") {
		assert.Positive(t, files[name+".COM"], name)
	}
	f, err := OpenHD(path, true)
	require.NoError(t, err)
	cfg, ours, err := cpmbios.ReadHDConfig(f)
	require.NoError(t, f.Close())
	require.NoError(t, err)
	assert.True(t, ours)
	assert.False(t, cfg.Burst, "byte by byte, as disk create --system")
	assert.Equal(t, cpmbios.Partitions(int64(acb4000.ST125.Blocks())), cfg.Partitions)
}

// A raw image takes the system too, and is then told from a floppy by its
// configuration block; sysgen keeps the files and changes the mode asked.
func TestRawDiskSystemAndSysgen(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "disk.img")
	require.NoError(t, scsihd.Create(raw, 8<<20))
	assert.False(t, IsHD(raw), "blank: no configuration yet")
	sys, err := cpm.System()
	require.NoError(t, err)
	cfg, err := InstallHD(raw, sys, false)
	require.NoError(t, err)
	assert.Equal(t, 2, cfg.Partitions)
	require.NoError(t, PutHDPrograms(raw))
	assert.True(t, IsHD(raw))

	cfg, err = SysgenHD(raw, sys, true, true)
	require.NoError(t, err)
	assert.True(t, cfg.Burst)
	cfg, err = SysgenHD(raw, sys, false, false)
	require.NoError(t, err)
	assert.True(t, cfg.Burst, "kept without setBurst")
	assert.Contains(t, filesOnA(t, raw), "EDIT.COM", "sysgen keeps the files")

	small := filepath.Join(dir, "small.img")
	require.NoError(t, scsihd.Create(small, 256<<10))
	_, err = InstallHD(small, sys, false)
	assert.ErrorContains(t, err, "too small for a CP/M partition")

	blank := filepath.Join(dir, "blank.img")
	require.NoError(t, acb4000.Create(blank, acb4000.ST125, true, 3))
	_, err = SysgenHD(blank, sys, false, false)
	assert.ErrorContains(t, err, "not an lbplus CP/M disk")

	unformatted := filepath.Join(dir, "unformatted.img")
	require.NoError(t, acb4000.Create(unformatted, acb4000.ST125, false, 3))
	_, err = OpenHD(unformatted, false)
	assert.ErrorContains(t, err, "the drive is not formatted")
	assert.False(t, IsHD(filepath.Join(dir, "none.img")))
}

// A system floppy gets its system tracks and the programs.
func TestFloppySystem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.imd")
	f, err := fdimage.ParseFormat("amp4")
	require.NoError(t, err)
	require.NoError(t, fdimage.Create(path, f, f.NewDisk(0xE5), "IMD 1.18: 01/12/2026 00:00:00"))
	sys, err := cpm.System()
	require.NoError(t, err)
	require.NoError(t, SysgenFloppy(path, "", sys))
	require.NoError(t, PutFloppyPrograms(path, f))
	assert.False(t, IsHD(path), "a floppy is not a hard disk")
	im, err := fdimage.Open(path, fdimage.Options{ReadOnly: true})
	require.NoError(t, err)
	defer im.Close()
	fs, err := cpmbios.FloppyFS(im)
	require.NoError(t, err)
	var names []string
	for _, e := range fs.List() {
		names = append(names, e.Name)
	}
	assert.Contains(t, names, "XFER.COM")
	assert.Contains(t, names, "RESTORE.COM")
}

// imageMedium is a hard-disk image seen as a running disk's medium.
type imageMedium struct{ path string }

func (m imageMedium) PeekBlock(lun int, lba int64, buf []byte) error {
	f, err := OpenHD(m.path, true)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.ReadBlock(lba, buf)
}

// Ours tells our system disk from any other by its configuration block,
// read through the medium without a command.
func TestOurs(t *testing.T) {
	dir := t.TempDir()
	ours := filepath.Join(dir, "ours.img")
	require.NoError(t, MakeDefault(ours))
	assert.True(t, Ours(imageMedium{ours}))
	blank := filepath.Join(dir, "blank.img")
	require.NoError(t, acb4000.Create(blank, acb4000.ST125, true, 3))
	assert.False(t, Ours(imageMedium{blank}))
	assert.False(t, Ours(imageMedium{filepath.Join(dir, "none.img")}), "a medium that cannot be read is not ours")
}
