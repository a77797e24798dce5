//go:build unix

package image

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/killtest"
)

// TestHelperWriter is the child of TestKillKeepsWrites: it writes one block,
// says so, and waits to be killed.
func TestHelperWriter(t *testing.T) {
	p := killtest.Child(t)
	f, err := Open(p, &testMeta{}, false)
	if err != nil {
		killtest.Fail(err)
	}
	f.WriteBlock(5, bytes.Repeat([]byte{0x5a}, 16))
	os.Stdout.WriteString("written\n")
	killtest.Hold()
}

// A write that returned is in the image even when the emulator is killed
// with SIGKILL right after, and the dead process's lock is gone.
func TestKillKeepsWrites(t *testing.T) {
	p := create(t, 0)
	child := killtest.Start(t, "TestHelperWriter", p)
	require.Equal(t, "written\n", child.Line())

	_, err := Open(p, &testMeta{}, false)
	assert.Error(t, err, "the child holds the lock")

	child.Kill()

	f, err := Open(p, &testMeta{}, false)
	require.NoError(t, err, "a killed process leaves no stale lock")
	defer f.Close()
	buf := make([]byte, 16)
	require.NoError(t, f.ReadBlock(5, buf))
	assert.Equal(t, bytes.Repeat([]byte{0x5a}, 16), buf)
}
