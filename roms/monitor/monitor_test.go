package monitor

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImageAssembles(t *testing.T) {
	img, err := Image()
	require.NoError(t, err)
	assert.Len(t, img, Size)
	assert.Equal(t, []byte{0xF3, 0x31, 0x00, 0x00}, img[:4], "DI; LD SP,0")
	syms, err := Symbols()
	require.NoError(t, err)
	assert.Contains(t, syms, "scsiboot")
}

// The ROM is byte-identical with pasmo's assembly of the same source.
func TestMatchesPasmo(t *testing.T) {
	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		t.Skip("pasmo not installed (make debs)")
	}
	out := filepath.Join(t.TempDir(), "mon.bin")
	cmd := exec.Command(pasmo, "--bin", "monitor.asm", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	img, err := Image()
	require.NoError(t, err)
	assert.Equal(t, want, img)
}
