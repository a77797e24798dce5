// Command lbplus is the Ampro Little Board/PLUS emulator: it runs the board,
// assembles Z80 programs, makes disk and tape images and replays the 1990
// disk-to-tape experiments as benchmarks.
//
// Each subcommand lives in its own file as a constructor that returns its
// cobra command with its own options, so the subcommands can grow
// independently. newRootCmd puts them together for one invocation (app):
// nothing is kept in the package between two, and a test builds its own.
// The machine's logic lives in the packages below (emu, bench, scsidev, ...);
// this command is their flags, their output and the exit codes.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/image"
)

// helpWidth is the widest line --help prints: flag descriptions are
// wrapped to it, and the long texts are written within it.
const helpWidth = 100

// app is one invocation of lbplus: what its commands share.
type app struct {
	// interrupted is closed when cleanScratchOnSignal has taken a signal:
	// from then on only its cleanup ends the process, so that an error the
	// cleanup itself causes in the command (an image whose folder just
	// went) cannot end it first with another code and message.
	interrupted chan struct{}
	trap        sync.Once
}

func newApp() *app { return &app{interrupted: make(chan struct{})} }

// newRootCmd builds lbplus's commands for one invocation.
func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "lbplus",
		Short:         "Cycle-accurate emulator of the Ampro Little Board/PLUS",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("lbplus {{.Version}}\n")
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(),
		"FlagUsages | trimTrailingWhitespaces",
		fmt.Sprintf("FlagUsagesWrapped %d | trimTrailingWhitespaces", helpWidth)))
	root.AddCommand(newAsmCmd(), newBenchCmd(a), newCPMCmd(), newDebugCmd(), newDiskCmd(a),
		newFloppyCmd(), newRunCmd(), newSysgenCmd(), newTapeCmd(a))
	requireSubcommands(root)
	return root
}

func main() {
	a := newApp()
	err := newRootCmd(a).Execute()
	select {
	case <-a.interrupted:
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
	if !c.HasParent() || c.Runnable() || !c.HasAvailableSubCommands() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
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

// cleanScratchOnSignal removes every scratch folder and every image still
// being made when the process is interrupted or terminated, then exits as
// the signal would have (128+n). Benches and the create commands call it;
// run handles its signals itself.
func (a *app) cleanScratchOnSignal() {
	a.trap.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		go func() {
			sig := <-ch
			close(a.interrupted)
			bench.RemoveAllScratch()
			image.RemoveTemporaries()
			fmt.Fprintf(os.Stderr, "\nlbplus: %v: stopped, scratch files removed\n", sig)
			code := 130
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			os.Exit(code)
		}()
	})
}
