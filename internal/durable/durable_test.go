package durable

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
	require.NoError(t, WriteFile(p, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	// A failed write leaves the file as it was and no temporary behind.
	boom := errors.New("boom")
	err = WriteFile(p, func(w io.Writer) error { w.Write([]byte("half")); return boom })
	assert.ErrorIs(t, err, boom)
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))
	left, err := filepath.Glob(filepath.Join(dir, ".*tmp"))
	require.NoError(t, err)
	assert.Empty(t, left)
}
