package main

import (
	"os"
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
	walk(rootCmd)
	for _, s := range []string{"tcp:PORT", "tcp:HOST:PORT", "tcp:0.0.0.0:PORT", ",ro"} {
		assert.Contains(t, readme, s)
	}
	assert.True(t, strings.Contains(readme, "--version"))
}
