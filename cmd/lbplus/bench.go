package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/image"
)

// benchCmd groups the experiments that replay the 1990 measurements on the
// emulated board. Each experiment adds itself as a subcommand in its own file.
var benchCmd = &cobra.Command{
	Use:   "bench",
	Short: "Replay the story's measurements on the emulated board",
	Long: `Replay the story's measurements on the emulated board.

Every bench builds throwaway disk and tape images (about 21 MB each) in a
scratch folder: --scratch DIR, else $` + bench.ScratchEnv + `, else /dev/shm, else
the system's temporary folder. They are removed at the end, on Ctrl-C and
on SIGTERM. A bench exits non-zero when any of its runs failed.`,
	PersistentPreRun: func(*cobra.Command, []string) { cleanScratchOnSignal() },
}

// benchFlags are the options every bench shares.
var benchFlags struct {
	scratch string
	quiet   bool
}

func init() {
	pf := benchCmd.PersistentFlags()
	pf.StringVar(&benchFlags.scratch, "scratch", "", "folder for the throwaway images (default $"+bench.ScratchEnv+", /dev/shm or the temporary folder)")
	pf.BoolVarP(&benchFlags.quiet, "quiet", "q", false, "no progress on stderr (for scripts)")
	rootCmd.AddCommand(benchCmd)
}

// scratchDir makes a bench's scratch folder where --scratch says.
func scratchDir() (string, error) { return bench.ScratchDir(benchFlags.scratch) }

// interrupted is closed when cleanScratchOnSignal has taken a signal: from
// then on only its cleanup ends the process, so that an error the cleanup
// itself causes in the command (an image whose folder just went) cannot
// end it first with another code and message.
var interrupted = make(chan struct{})

// cleanScratchOnSignal removes every scratch folder and every image still
// being made when the process is interrupted or terminated, then exits as
// the signal would have (128+n). Benches and the create commands call it;
// run handles its signals itself.
func cleanScratchOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-ch
		close(interrupted)
		bench.RemoveAllScratch()
		image.RemoveTemporaries()
		fmt.Fprintf(os.Stderr, "\nlbplus: %v: stopped, scratch files removed\n", sig)
		code := 130
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}
