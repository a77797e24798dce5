package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEDocumentsEveryFlag: every flag of every command (and the
// console forms) is named in the README, so a user finds each option
// there and not only in --help.
func TestREADMEDocumentsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(b)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			assert.True(t, strings.Contains(readme, "--"+f.Name), "%s --%s is not in the README", c.CommandPath(), f.Name)
		})
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) {
			assert.True(t, strings.Contains(readme, "--"+f.Name), "%s --%s is not in the README", c.CommandPath(), f.Name)
		})
		for _, s := range c.Commands() {
			// cobra's own shell completion (added when a command runs)
			// documents itself.
			if s.IsAvailableCommand() && s.Name() != "completion" {
				walk(s)
			}
		}
	}
	walk(newRootCmd(newApp()))
	for _, s := range []string{"tcp:PORT", "tcp:HOST:PORT", "tcp:0.0.0.0:PORT", ",ro"} {
		assert.Contains(t, readme, s)
	}
	assert.True(t, strings.Contains(readme, "--version"))
}

// TestDocsCommandLinesMatchHelp: every command line in the README and
// docs/ (`lbplus CMD [SUB] --flag ...`, up to a # comment) names a command
// that exists and only flags that command has, so the docs never offer
// what --help refuses.
func TestDocsCommandLinesMatchHelp(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	files = append(files, "../../README.md")
	cmdLine := regexp.MustCompile(`\blbplus((?: [a-z][a-z-]*)+)(.*)`)
	flag := regexp.MustCompile(`(?:^|[\s\[(|])(--[a-z][a-z0-9-]*)`)
	root := newRootCmd(newApp())
	run, _, err := root.Find([]string{"run"})
	require.NoError(t, err)
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		for n, line := range strings.Split(string(b), "\n") {
			m := cmdLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			words := strings.Fields(m[1])
			c, rest, err := root.Find(words)
			if err != nil || c == root || len(rest) == len(words) {
				continue // prose ("lbplus reproduces ...") or a path
			}
			args := m[2]
			if len(rest) > 0 {
				args = strings.Join(rest, " ") + args
			}
			if i := strings.Index(args, "#"); i >= 0 {
				args = args[:i]
			}
			if i := strings.Index(args, "`"); i >= 0 {
				args = args[:i] // the end of an inline command
			}
			for _, f := range flag.FindAllStringSubmatch(args, -1) {
				name := strings.TrimPrefix(f[1], "--")
				if name == "help" || name == "version" {
					continue
				}
				checked++
				has := c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil
				if c.Name() == "debug" {
					has = run.Flags().Lookup(name) != nil // debug takes run's flags (debug.go)
				}
				assert.True(t, has, "%s:%d: %s has no --%s: %s", filepath.Base(file), n+1, c.CommandPath(), name, line)
			}
		}
	}
	assert.Greater(t, checked, 50, "the scan found the documented flags")
}
