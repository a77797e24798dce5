package main

import "github.com/spf13/cobra"

// benchCmd groups the experiments that replay the 1990 measurements on the
// emulated board. Each experiment adds itself as a subcommand in its own file.
var benchCmd = &cobra.Command{
	Use:   "bench",
	Short: "Replay the story's measurements on the emulated board",
}

func init() { rootCmd.AddCommand(benchCmd) }
