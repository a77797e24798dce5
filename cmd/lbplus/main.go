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

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "lbplus",
	Short:         "Cycle-accurate emulator of the Ampro Little Board/PLUS",
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "lbplus:", err)
		os.Exit(1)
	}
}
