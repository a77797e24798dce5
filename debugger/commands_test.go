package debugger

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Help is made from the table: every command's synopsis is in it, under
// its group, and no line is wider than helpWidth.
func TestHelpListsEveryCommand(t *testing.T) {
	help := HelpText()
	cmds := TextCommands()
	require.Greater(t, len(cmds), 40)
	for _, c := range cmds {
		require.NotEmpty(t, c.Names)
		require.NotEmpty(t, c.Help, c.Names[0])
		at := regexp.MustCompile(`\n  ` + regexp.QuoteMeta(c.Synopsis()) + `[ \n]`).FindStringIndex(help)
		require.NotNil(t, at, "help lists %s", c.Names[0])
		g := strings.Index(help, c.Group+":\n")
		require.GreaterOrEqual(t, g, 0, "group %q", c.Group)
		next := len(help)
		if n := strings.Index(help[g:], ":\n  "); n >= 0 {
			if m := regexp.MustCompile(`\n[a-z ]+:\n`).FindStringIndex(help[g+n+2:]); m != nil {
				next = g + n + 2 + m[0]
			}
		}
		assert.True(t, at[0] > g && at[0] < next, "%s under %s", c.Names[0], c.Group)
	}
	for i, l := range strings.Split(help, "\n") {
		assert.LessOrEqual(t, len(l), helpWidth, "help line %d: %q", i+1, l)
	}
	// The help command prints the same text.
	r := newRig(t, true)
	var out bytes.Buffer
	x := &Text{D: r.d, Out: &out}
	require.NoError(t, x.Exec("help"))
	assert.Equal(t, help+"\n", out.String())
}

// Every name of the table reaches its command: none is unknown to Exec.
func TestEveryNameDispatches(t *testing.T) {
	r := newRig(t, true)
	x := &Text{D: r.d, Out: &bytes.Buffer{}}
	for _, c := range TextCommands() {
		for _, n := range c.Names {
			switch n {
			case "type", "console", "c", "continue", "run", "save", "load":
				continue // need a console / would run 30 s / would write a file "1"
			}
			err := x.Exec(n + " 1")
			if err != nil {
				assert.NotContains(t, err.Error(), "unknown command", n)
			}
		}
	}
	assert.ErrorContains(t, x.Exec("frobnicate"), `unknown command "frobnicate" (help lists them)`)
	assert.ErrorIs(t, x.Exec("QUIT"), ErrQuit, "names are case-insensitive")
}

func TestComplete(t *testing.T) {
	for _, c := range []struct {
		prefix string
		want   []string
	}{
		{"", nil}, // all: checked below
		{"wat", []string{"watch"}},
		{"dis", []string{"disable", "dis"}},
		{"b", []string{"b", "backtrace", "break", "breaks", "bp", "bt", "bus", "busfree", "byte"}},
		{"tim", []string{"time", "timeline"}},
		{"ME", []string{"measure", "mem"}},
		{"zz", nil},
	} {
		got := Complete(c.prefix)
		if c.prefix == "" {
			n := 0
			for _, cmd := range TextCommands() {
				n += len(cmd.Names)
			}
			assert.Len(t, got, n, "every name once")
			continue
		}
		assert.ElementsMatch(t, c.want, got, "Complete(%q)", c.prefix)
		assert.IsNonDecreasing(t, got, "sorted")
	}
}
