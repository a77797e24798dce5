package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// `lbplus disk info` on a raw image shows the geometry an ACB-4000 takes
// from its size, then what scsihd makes of it.
func TestDiskInfoRaw(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.hda")
	require.NoError(t, os.WriteFile(p, nil, 0o644))
	require.NoError(t, os.Truncate(p, 20<<20))
	var out bytes.Buffer
	require.NoError(t, diskInfo(&out, p))
	assert.Equal(t, p+": raw, 603 cylinders x 4 heads x 17 sectors (the last cylinder partial: 24 of its 68 blocks) of 512 bytes, 40960 blocks (20971520 bytes), raw image without a sidecar, taken as formatted at interleave 3:1\n"+
		p+": raw image, 40960 blocks (20971520 bytes), for --scsi ID=scsihd:FILE: 603 cylinders x 4 heads x 17 sectors (the last cylinder partial: 24 of its 68 blocks)\n", out.String())
}

// --size takes bytes or K, M, G (powers of 1024), upper or lower case.
func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{
		{"512", 512}, {"64M", 64 << 20}, {"64m", 64 << 20}, {"41820K", 41820 << 10}, {"1G", 1 << 30}, {"2048G", 2 << 40},
		{"", 0}, {"0", 0}, {"-5M", 0}, {"64X", 0}, {"M", 0}, {"2049G", 0}, {"1.5G", 0},
	} {
		n, err := parseSize(tt.in)
		if tt.want == 0 {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, n, tt.in)
	}
}

func TestCHSLayoutSaysWhenTheLastCylinderIsPartial(t *testing.T) {
	for _, c := range []struct {
		cyls   int64
		blocks int64
		want   string
	}{
		{615, 41820, "615 cylinders x 4 heads x 17 sectors"},
		{302, 20480, "302 cylinders x 4 heads x 17 sectors (the last cylinder partial: 12 of its 68 blocks)"},
		{1, 1, "1 cylinders x 4 heads x 17 sectors (the last cylinder partial: 1 of its 68 blocks)"},
	} {
		assert.Equal(t, c.want, chsLayout(c.cyls, 4, 17, c.blocks))
	}
}
