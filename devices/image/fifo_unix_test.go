//go:build unix

package image

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNamedPipeRefused: opening a FIFO for reading blocks until a writer
// comes; an image or sidecar that is one must be refused at once.
func TestNamedPipeRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	withFifoSidecar := create(t, 0)
	require.NoError(t, syscall.Unlink(SidecarPath(withFifoSidecar)))
	require.NoError(t, syscall.Mkfifo(SidecarPath(withFifoSidecar), 0o644))
	for _, p := range []string{fifo, withFifoSidecar} {
		for _, ro := range []bool{false, true} {
			err := openWithin(t, p, ro)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "not a regular file")
		}
	}
}
