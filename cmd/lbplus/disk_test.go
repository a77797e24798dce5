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
