package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
)

// runSlice is how much simulated time the board runs between looks at the
// console: short enough that typing feels immediate, long enough that the
// loop costs nothing next to the emulation.
const runSlice = 10 * sched.Millisecond

// runAttach lets other files of this command attach devices (a 5380 and
// SCSI targets, floppies) to the board `lbplus run` builds: they add their
// flags to runCmd in init and append a function here. Each runs after the
// board is built and before it starts.
var runAttach []func(b *emu.Board) error

// runAtExit lets a runAttach hook finish what it started (flush a trace
// file) when `lbplus run` ends, however it ends. The list is emptied at the
// start of every run; the functions run in order and the first error is
// reported.
var runAtExit []func() error

var runFlags struct {
	rom       string
	speed     string
	console   string
	waitOnDRQ bool
	scsiID    int
}

var runCmd = &cobra.Command{
	Use:   "run",
	Short: "Boot the board to the monitor on the console",
	Long: `Boot the emulated Little Board/PLUS. DART channel A is the console: the
terminal in raw mode (Ctrl-] quits) or, with --console tcp:PORT, a telnet
client. --speed realtime paces the board to its real 4 MHz; max runs as fast
as the host can.`,
	Args: cobra.NoArgs,
	RunE: runBoard,
}

func init() {
	f := runCmd.Flags()
	f.StringVar(&runFlags.rom, "rom", "", "ROM image (4, 8, 16 or 32 KB) instead of the built-in monitor")
	f.StringVar(&runFlags.speed, "speed", "realtime", "realtime (4 MHz) or max")
	f.StringVar(&runFlags.console, "console", "stdio", "stdio or tcp:PORT")
	f.BoolVar(&runFlags.waitOnDRQ, "wait-on-drq", false, "hypothesis B: port 28 holds WAIT until the 5380 raises DRQ")
	f.IntVar(&runFlags.scsiID, "scsi-id", 7, "initiator SCSI ID on the J9 jumpers (0-7)")
	rootCmd.AddCommand(runCmd)
}

func runBoard(cmd *cobra.Command, _ []string) (err error) {
	runAtExit = nil
	defer func() {
		for _, f := range runAtExit {
			if e := f(); e != nil && err == nil {
				err = e
			}
		}
		runAtExit = nil
	}()
	realtime := true
	switch runFlags.speed {
	case "realtime":
	case "max":
		realtime = false
	default:
		return fmt.Errorf("--speed %q: want realtime or max", runFlags.speed)
	}
	var rom []byte
	name := "built-in monitor"
	if runFlags.rom != "" {
		var err error
		if rom, err = emu.ReadROMFile(runFlags.rom); err != nil {
			return err
		}
		name = runFlags.rom
	} else {
		var err error
		if rom, err = monitor.Image(); err != nil {
			return err
		}
	}
	var out []byte
	cfg := emu.DefaultConfig(rom)
	cfg.ROMName = name
	cfg.SCSIID = runFlags.scsiID
	cfg.WaitOnDRQ = runFlags.waitOnDRQ
	cfg.ConsoleOut = func(_ sched.Time, b byte) { out = append(out, b) }
	board, err := emu.New(cfg)
	if err != nil {
		return err
	}
	for _, attach := range runAttach {
		if err := attach(board); err != nil {
			return err
		}
	}

	port, err := console.Open(runFlags.console)
	if err != nil {
		return err
	}
	defer port.Close()
	if t, ok := port.(*console.TCP); ok {
		fmt.Fprintf(os.Stderr, "lbplus: console on telnet %s (Ctrl-C here quits)\n", t.Addr())
	} else {
		fmt.Fprint(os.Stderr, "lbplus: console on this terminal; Ctrl-] quits\r\n")
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)

	// The only place host time meets simulated time: realtime mode sleeps
	// so that simulated time never runs ahead of the wall clock.
	start := time.Now()
	simStart := board.Now()
	for {
		select {
		case <-port.Done():
			return nil
		case s := <-sig:
			port.Close()
			return fmt.Errorf("stopped by %v", s)
		default:
		}
	drain:
		for {
			select {
			case p := <-port.Input():
				board.ConsoleInput(p)
			default:
				break drain
			}
		}
		if err := board.RunFor(runSlice); err != nil {
			return err
		}
		if len(out) > 0 {
			port.Write(out)
			out = out[:0]
		}
		if realtime {
			ahead := time.Duration(board.Now()-simStart)/time.Duration(sched.Nanosecond) - time.Since(start)
			if ahead > 0 {
				time.Sleep(ahead)
			}
		}
	}
}
