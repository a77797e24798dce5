package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
)

func TestDiskCreate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hd0.img")
	var out bytes.Buffer
	require.NoError(t, diskCreate(&out, p, "ST125", 5, false))
	assert.Contains(t, out.String(), "41820 blocks")
	assert.Contains(t, out.String(), "interleave 5:1")
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, int64(21411840), st.Size())
	side, err := os.ReadFile(p + ".toml")
	require.NoError(t, err)
	assert.Contains(t, string(side), "interleave = 5")

	for name, c := range map[string]struct {
		path, geom string
		il         int
		want       string
	}{
		"exists":     {p, "st125", 3, "already exists"},
		"geometry":   {filepath.Join(dir, "x.img"), "st225", 3, "unknown geometry"},
		"interleave": {filepath.Join(dir, "y.img"), "st125", 17, "interleave 17"},
	} {
		err := diskCreate(&out, c.path, c.geom, c.il, false)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
		assert.Contains(t, err.Error(), c.path, name)
	}
	require.NoError(t, diskCreate(&out, filepath.Join(dir, "u.img"), "st125", 0, true))
	assert.Contains(t, out.String(), "unformatted")
}

func TestAttachHD0(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hd0.img")
	require.NoError(t, diskCreate(&bytes.Buffer{}, p, "st125", 3, false))
	rom := make([]byte, 4096)
	b, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	defer func() { hdFlags.lun0, hdFlags.lun1 = "", "" }()

	hdFlags.lun0, hdFlags.lun1 = "", filepath.Join(dir, "x.img")
	assert.ErrorContains(t, attachHD0(b), "needs --hd0")

	hdFlags.lun0, hdFlags.lun1 = filepath.Join(dir, "missing.img"), ""
	assert.ErrorContains(t, attachHD0(b), "missing.img")

	hdFlags.lun0 = p
	require.NoError(t, attachHD0(b))
	assert.Same(t, runSCSIBus(b), runSCSIBus(b), "one bus per board")
	// The image is now locked: a second emulator cannot take it.
	b2, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	assert.ErrorContains(t, attachHD0(b2), "in use")
}
