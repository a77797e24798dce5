// Command lbplus is the Ampro Little Board/PLUS emulator: it runs the board,
// assembles Z80 programs, makes disk and tape images and replays the 1990
// disk-to-tape experiments as benchmarks.
//
// Each subcommand lives in its own file and registers itself with rootCmd in
// an init function, so the subcommands can grow independently.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "lbplus",
	Short:         "Cycle-accurate emulator of the Ampro Little Board/PLUS",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// helpWidth is the widest line --help prints: flag descriptions are
// wrapped to it, and the long texts are written within it.
const helpWidth = 100

func init() {
	rootCmd.SetUsageTemplate(strings.ReplaceAll(rootCmd.UsageTemplate(),
		"FlagUsages | trimTrailingWhitespaces",
		fmt.Sprintf("FlagUsagesWrapped %d | trimTrailingWhitespaces", helpWidth)))
}

func main() {
	requireSubcommands(rootCmd)
	err := rootCmd.Execute()
	select {
	case <-interrupted:
		select {} // the signal's cleanup exits with its own code
	default:
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lbplus:", err)
		os.Exit(1)
	}
}

// requireSubcommands makes every command that only groups others (disk,
// tape, bench, ...) refuse a missing or unknown subcommand with an error,
// where cobra would print the help and exit 0: a script's typo must fail.
func requireSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		requireSubcommands(sub)
	}
	if c == rootCmd || c.Runnable() || !c.HasAvailableSubCommands() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		path := strings.TrimPrefix(cmd.CommandPath(), rootCmd.Name()+" ")
		var names []string
		for _, s := range cmd.Commands() {
			if s.IsAvailableCommand() {
				names = append(names, s.Name())
			}
		}
		if len(args) == 0 {
			return fmt.Errorf("%s: give a subcommand: %s", path, strings.Join(names, ", "))
		}
		return fmt.Errorf("%s: unknown subcommand %q (want %s)", path, args[0], strings.Join(names, ", "))
	}
}
