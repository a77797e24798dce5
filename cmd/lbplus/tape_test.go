package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/mcd403"
)

func TestTapeCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tape")
	var out bytes.Buffer
	require.NoError(t, tapeCreate(&out, path, 4, false, false))
	assert.Equal(t, path+": MCD-403 cartridge, 4848 blocks of 8192 bytes, interleave 4:1, 0 blocks written\n", out.String())
	tp, err := mcd403.Open(path, false)
	require.NoError(t, err)
	assert.Equal(t, 4, tp.Interleave())
	require.NoError(t, tp.Close())

	err = tapeCreate(&out, path, 4, false, false)
	assert.ErrorContains(t, err, "already exists")
	err = tapeCreate(&out, filepath.Join(dir, "b.tape"), 0, false, false)
	assert.ErrorContains(t, err, "b.tape: interleave 0")
	require.NoError(t, tapeCreate(&out, filepath.Join(dir, "c.tape"), 3, true, true))
	assert.Contains(t, out.String(), "write-protected")
	assert.ErrorContains(t, tapeInfo(&out, filepath.Join(dir, "missing.tape")), "missing.tape")
}
