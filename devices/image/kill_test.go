//go:build unix

package image

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelperWriter is the child of TestKillKeepsWrites: it writes one block,
// says so, and waits to be killed.
func TestHelperWriter(t *testing.T) {
	p := os.Getenv("LBPLUS_IMAGE_CHILD")
	if p == "" {
		t.Skip("helper process only")
	}
	f, err := Open(p, &testMeta{}, false)
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	f.WriteBlock(5, bytes.Repeat([]byte{0x5a}, 16))
	os.Stdout.WriteString("written\n")
	os.Stdin.Read(make([]byte, 1)) // hold the lock until killed
	os.Exit(0)
}

// A write that returned is in the image even when the emulator is killed
// with SIGKILL right after, and the dead process's lock is gone.
func TestKillKeepsWrites(t *testing.T) {
	p := create(t, 0)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(os.Environ(), "LBPLUS_IMAGE_CHILD="+p)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "written\n", line)

	_, err = Open(p, &testMeta{}, false)
	assert.Error(t, err, "the child holds the lock")

	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()

	f, err := Open(p, &testMeta{}, false)
	require.NoError(t, err, "a killed process leaves no stale lock")
	defer f.Close()
	buf := make([]byte, 16)
	require.NoError(t, f.ReadBlock(5, buf))
	assert.Equal(t, bytes.Repeat([]byte{0x5a}, 16), buf)
}
