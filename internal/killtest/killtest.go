// Package killtest runs the child process of a kill test: the test binary
// started again with one test selected, which writes to an image, reports
// on its standard output a line at a time what the model acknowledged, and
// is killed with SIGKILL mid-run. The parent then opens the image and checks
// that nothing acknowledged was lost and that the dead child's lock is gone;
// those checks are each test's own.
//
// The child side: a test that calls Child first, which skips it unless the
// parent started it; it prints its lines and either runs until killed or
// calls Hold. The parent side: Start, Line, Kill.
package killtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// env carries the parent's argument to the child; its presence is what
// makes a child test run.
const env = "LBPLUS_KILLTEST_CHILD"

// Child is the argument Start passed when this process is the child (an
// image's path); otherwise it skips t, so that the child test does nothing
// in an ordinary test run.
func Child(t testing.TB) string {
	t.Helper()
	arg := os.Getenv(env)
	if arg == "" {
		t.Skip("helper process only")
	}
	return arg
}

// Fail ends the child on err: the line "error " and err's text, which is
// what the parent reads instead of the line it waits for, and exit status 1.
func Fail(err error) {
	fmt.Println("error", err)
	os.Exit(1)
}

// Hold keeps the child and what it holds open (its images and their locks)
// until the parent kills it.
func Hold() {
	os.Stdin.Read(make([]byte, 1)) // the parent keeps stdin open until the kill
	os.Exit(0)
}

// Proc is a running child.
type Proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.Closer
	out    *bufio.Reader
	killed bool
}

// Start runs the test named test of this test binary as a child, with arg
// for its Child. A child still running when t ends is killed then.
func Start(t testing.TB, test, arg string) *Proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+arg)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &Proc{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		if !p.killed {
			p.stop()
		}
	})
	return p
}

// Line is the child's next line of output, with its newline.
func (p *Proc) Line() string {
	p.t.Helper()
	line, err := p.out.ReadString('\n')
	require.NoError(p.t, err)
	return line
}

// Kill sends the child SIGKILL and waits until it is gone. The child must
// still be running: a kill test kills it in the middle of its work.
func (p *Proc) Kill() {
	p.t.Helper()
	require.False(p.t, p.killed, "the child was killed already")
	require.NoError(p.t, p.stop(), "the child must still be running when it is killed")
}

// stop kills the child, reaps it and closes its stdin; the error is the
// kill's (os.ErrProcessDone when the child had already exited).
func (p *Proc) stop() error {
	p.killed = true
	err := p.cmd.Process.Kill()
	p.cmd.Wait()
	p.stdin.Close()
	return err
}
