package main

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
)

// execute runs `lbplus ARGS` on commands built for this call alone, as
// main does, and returns what it printed on stdout and stderr.
func execute(args ...string) (stdout, stderr string, err error) {
	root := newRootCmd(newApp())
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err = root.Execute()
	return out.String(), errb.String(), err
}

// runSessionFor is `lbplus run ARGS` with its flags parsed, and a session
// of its options, before anything is built.
func runSessionFor(t *testing.T, args ...string) (*cobra.Command, *runSession) {
	t.Helper()
	cmd, o := runCommand()
	require.NoError(t, cmd.ParseFlags(args))
	return cmd, newRunSession(o)
}

// runConfigFor is the machine `lbplus run ARGS` would build.
func runConfigFor(t *testing.T, args ...string) (emu.Config, error) {
	t.Helper()
	cmd, s := runSessionFor(t, args...)
	return s.config(cmd)
}

// menuLine answers one line of the escape prompt on b as a run without
// flags does (runSession.menuCommand); the debugger's state is b's own.
func menuLine(b *emu.Board, line string) string {
	return newRunSession(&runOptions{}).menuCommand(b, line)
}
