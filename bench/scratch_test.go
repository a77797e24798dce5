package bench

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A bench killed with SIGKILL cannot remove its scratch directory; the
// next bench's ScratchDir removes it, and only it: a directory whose
// process still runs, and one that is not a scratch directory, stay.
func TestScratchOrphansRemoved(t *testing.T) {
	if os.Getenv("LBPLUS_SCRATCH_CHILD") != "" {
		d, err := ScratchDir(os.Getenv("LBPLUS_SCRATCH_CHILD"))
		if err != nil {
			os.Exit(2)
		}
		os.WriteFile(filepath.Join(d, "hd.img"), make([]byte, 4096), 0o644)
		os.Stdout.WriteString(d + "\n")
		select {} // until killed
	}
	scratchDirs.mu.Lock()
	scratchDirs.closed = false // another test may have run RemoveAllScratch
	scratchDirs.mu.Unlock()
	parent := t.TempDir()
	child := func() (*exec.Cmd, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestScratchOrphansRemoved$")
		cmd.Env = append(os.Environ(), "LBPLUS_SCRATCH_CHILD="+parent)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		require.NoError(t, err)
		return cmd, strings.TrimSpace(line)
	}
	killed, orphan := child()
	alive, busy := child()
	defer func() { alive.Process.Kill(); alive.Wait() }()
	require.NoError(t, killed.Process.Kill()) // SIGKILL: no clean-up
	killed.Wait()
	other := filepath.Join(parent, scratchPrefix+"not-ours")
	require.NoError(t, os.Mkdir(other, 0o755))
	require.DirExists(t, orphan)

	d, err := ScratchDir(parent)
	require.NoError(t, err)
	defer RemoveScratch(d)
	assert.NoDirExists(t, orphan, "the killed bench's directory is gone")
	assert.DirExists(t, busy, "a running bench's directory stays")
	assert.DirExists(t, other, "a directory without an owner's lock stays")
	assert.DirExists(t, d)
}
