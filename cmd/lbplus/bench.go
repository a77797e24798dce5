package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
)

// benchOptions are the options every bench shares.
type benchOptions struct {
	scratch string
	quiet   bool
}

// newBenchCmd groups the experiments that replay the 1990 measurements on
// the emulated board. Each experiment is a subcommand in its own file.
func newBenchCmd(a *app) *cobra.Command {
	o := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Replay the story's measurements on the emulated board",
		Long: `Replay the story's measurements on the emulated board.

Every bench builds throwaway disk and tape images (about 21 MB each) in a
scratch folder: --scratch DIR, else $` + bench.ScratchEnv + `, else /dev/shm, else
the system's temporary folder. They are removed at the end, on Ctrl-C and
on SIGTERM. A bench exits non-zero when any of its runs failed.`,
		PersistentPreRun: func(*cobra.Command, []string) { a.cleanScratchOnSignal() },
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.scratch, "scratch", "", "folder for the throwaway images (default $"+bench.ScratchEnv+", /dev/shm or the temporary folder)")
	pf.BoolVarP(&o.quiet, "quiet", "q", false, "no progress on stderr (for scripts)")
	cmd.AddCommand(newBenchBackupCmd(o), newBenchFloppyCmd(o), newBenchInterleaveCmd(o), newBenchParamsCmd(o),
		newBenchSeedCmd(o), newBenchSpeedCmd(o), newBenchSweepCmd(o), newBenchTapeCmd(o))
	return cmd
}

// scratchDir makes a bench's scratch folder where --scratch says.
func (o *benchOptions) scratchDir() (string, error) { return bench.ScratchDir(o.scratch) }

// progress is the progress bar of a bench on w, none with --quiet.
func (o *benchOptions) progress(w io.Writer) *progress { return newProgress(w, o.quiet) }
