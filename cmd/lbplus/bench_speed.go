package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/sched"
)

// peerDefines are the peer workload's settings: REP*N outer passes before
// it prints 'D' and starts again (it never stops, so they only set how
// often it prints).
func peerDefines() map[string]int64 { return map[string]int64{"REP": 1, "N": 21000} }

func newBenchSpeedCmd(bo *benchOptions) *cobra.Command {
	var (
		asJSON bool
		peer   string
		mb     float64
		idle   float64
	)
	cmd := &cobra.Command{
		Use:   "speed",
		Short: "Emulated T-states per CPU second against a bare koron-go/z80 loop",
		Long: `Measures the emulator's speed in million emulated T-states per second of
host CPU time (a real 4 MHz Z80 runs 4), each beside koron-go/z80's bare
Step loop (no timing, no devices) measured interleaved in the same run, and
their ratio:

  idle-wN-ram/rom  the idle board on a CPU-bound workload (roms/cpuload: W1
                   simple, W2 mixed), from RAM with the ROM switched out
                   and from the ROM overlay
  z80host-wN-...   the timed CPU alone on the same workload and memory map
  backup rows      the busy machine on every row of bench seed (SCSI bursts
                   or byte handshakes, the tape streaming), --mb each
  floppy-read      the busy machine reading four floppy tracks

The CPU-bound lines alternate 50 ms slices of the board, z80host and koron
by this thread's CPU time; the busy lines alternate each simulated second
(floppy: 100 ms) with koron on W1 for as many T-states, by the process's
CPU time. --peer FILE runs the peer benchmark's workload (an assembly
file defining W, REP and N, assembled with lbplus asm) instead of cpuload.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			passes, err := passesForMB(mb)
			if err != nil {
				return err
			}
			if idle <= 0 || idle > 3600 {
				return fmt.Errorf("--idle %g: give 0 to 3600 seconds of simulated time (not 0)", idle)
			}
			o := bench.SpeedOptions{Rows: bench.Rows(passes), Idle: sched.Time(idle * float64(sched.Second))}
			if peer != "" {
				w, err := peerWorkload(peer)
				if err != nil {
					return err
				}
				o.Workload, o.WorkloadName = w, filepath.Base(peer)
			}
			dir, err := bo.scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			o.Dir = dir
			bar := bo.progress(cmd.ErrOrStderr())
			n, total := int64(0), int64(8+len(o.Rows)+1)
			o.Progress = func(name string) { bar.show(name, n, total); n++ }
			lines, err := bench.Speed(o)
			bar.done()
			if err != nil {
				return err
			}
			if asJSON {
				e := json.NewEncoder(cmd.OutOrStdout())
				e.SetIndent("", "  ")
				return e.Encode(lines)
			}
			return speedTable(cmd.OutOrStdout(), lines)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of the table")
	cmd.Flags().StringVar(&peer, "peer", "", "the CPU-bound workload from this assembly file (defines W, REP, N), not cpuload")
	cmd.Flags().Float64Var(&mb, "mb", 0.1, "megabytes (10^6) each backup row copies")
	cmd.Flags().Float64Var(&idle, "idle", 20, "simulated seconds each CPU-bound line runs")
	return cmd
}

// peerWorkload assembles an external workload file for W = 1 and 2.
func peerWorkload(path string) (bench.Workload, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("--peer: %w", err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	w := func(w int) ([]byte, error) {
		defs := map[string]int64{"W": int64(w)}
		for k, v := range peerDefines() {
			defs[k] = v
		}
		r, err := asm.Assemble(os.DirFS(dir), base, asm.Options{Defines: defs})
		if err != nil {
			return nil, fmt.Errorf("--peer %s: %w", path, err)
		}
		return r.Bytes, nil
	}
	if _, err := w(1); err != nil {
		return nil, err
	}
	return w, nil
}

func speedTable(out io.Writer, lines []bench.SpeedLine) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "line\tMT/cpu-s\tkoron MT/cpu-s\tratio\tcpu-s\n")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.3f\t%.2f\n", l.Name, l.MTPerCPUSec, l.KoronMT, l.Ratio, l.CPUSeconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "%s %s/%s, %d CPUs, %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	return err
}
