package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/sched"
)

func newBenchTapeCmd(bo *benchOptions) *cobra.Command {
	var (
		interleaves, bursts, delays string
		blocks                      int
		read, asJSON, waitDRQ       bool
		traceTo                     string
	)
	cmd := &cobra.Command{
		Use:   "tape",
		Short: "8 KB tape blocks from a Z80 program: streaming, repositions, the burst hang",
		Long: `Runs TAPEBENCH (roms/tapebench) on a fresh board with a fresh MCD-403
cartridge for every combination of --interleave, --burst and --delay, and
prints one row per run: the net rate the Z80 program measured with the CTC
over the blocks after the first, the drive's repositions, and whether the
transfer hung (caught by the program's SCSI timeout).

Examples:
  lbplus bench tape --json                          # 3:1, 4:1, 6:1 with 16-byte bursts
  lbplus bench tape --interleave 3 --delay 0,300    # a slow host repositions
  lbplus bench tape --burst 16,256                  # the 256-byte write hang
  lbplus bench tape --burst 256 --read              # reads with 256-byte bursts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ks, err := intList("--interleave", interleaves)
			if err != nil {
				return err
			}
			bs, err := intList("--burst", bursts)
			if err != nil {
				return err
			}
			ds, err := intList("--delay", delays)
			if err != nil {
				return err
			}
			for _, d := range ds {
				if d > maxTapeDelayMS {
					return fmt.Errorf("--delay %d: give 0 to %d ms", d, maxTapeDelayMS)
				}
			}
			delays := make([]sched.Time, len(ds))
			for i, d := range ds {
				delays[i] = sched.Time(d) * sched.Millisecond
			}
			setups, err := bench.TapeSetups(bench.TapeSetup{Read: read, Blocks: blocks}, ks, bs, delays)
			if err != nil {
				return err
			}
			if err := checkOutputs(nil, outputFile{"--trace", traceTo}); err != nil {
				return err
			}
			dir, err := bo.scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			var trace io.Writer
			if traceTo != "" {
				f, err := os.Create(traceTo)
				if err != nil {
					return err
				}
				defer f.Close()
				bw := bufio.NewWriter(f)
				defer bw.Flush()
				trace = bw
			}
			bar := bo.progress(cmd.ErrOrStderr())
			out, err := bench.TapeSweep(setups, bench.TapeOptions{Dir: dir, Trace: trace, WaitOnDRQ: waitDRQ}, func(i int) {
				s := setups[i]
				bar.show(fmt.Sprintf("%d/%d %d:1 burst %d", i+1, len(setups), s.Interleave, s.Burst), int64(i), int64(len(setups)))
			})
			bar.done()
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range out {
				if r.Failed != "" {
					failed++
				}
			}
			var verdict error
			if failed > 0 {
				verdict = fmt.Errorf("%d of %d runs failed", failed, len(out))
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return errors.Join(enc.Encode(out), verdict)
			}
			return errors.Join(tapeTable(cmd.OutOrStdout(), out), verdict)
		},
	}
	f := cmd.Flags()
	f.StringVar(&interleaves, "interleave", "3,4,6", "tape interleaves to run, comma-separated (1-16)")
	f.StringVar(&bursts, "burst", "16", "OTIR/INIR burst sizes in bytes, comma-separated (1-256; 0 = byte by byte)")
	f.StringVar(&delays, "delay", "0", fmt.Sprintf("host delay before each block in ms, comma-separated (0-%d)", maxTapeDelayMS))
	f.IntVar(&blocks, "blocks", 6, "8 KB blocks per run (the first is not timed)")
	f.BoolVar(&read, "read", false, "READ the blocks instead of writing them")
	f.BoolVar(&waitDRQ, "wait-on-drq", false, "board option: port 28 holds WAIT until DRQ (hypothesis B)")
	f.StringVar(&traceTo, "trace", "", "write the SCSI bus trace with 5380 and drive events to this file (large)")
	f.BoolVar(&asJSON, "json", false, "print a JSON array of {interleave, burst, bytes_per_sec, repositions, hung, ...}")
	return cmd
}

// maxTapeDelayMS is the longest --delay: TAPEBENCH counts it in 64 us
// ticks in 16 bits (4.19 s); the help promises whole seconds up to 4.
const maxTapeDelayMS = 4000

func intList(flag, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %q: want comma-separated non-negative integers", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}

func tapeTable(w io.Writer, rs []bench.TapeResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "interleave\tburst\tdelay ms\top\tbytes/s\trepositions\thung\t")
	for _, r := range rs {
		burst, op := strconv.Itoa(r.Burst), "write"
		if r.Burst == 0 {
			burst = "byte"
		}
		if r.Read {
			op = "read"
		}
		rate := fmt.Sprintf("%.0f", r.BytesPerSec)
		if r.Failed != "" {
			rate = "-"
		}
		fmt.Fprintf(tw, "%d:1\t%s\t%.0f\t%s\t%s\t%d\t%v\t\n", r.Interleave, burst, r.DelayMS, op, rate, r.Repositions, r.Hung)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Failed != "" {
			fmt.Fprintf(w, "%d:1 burst %d: %s\n", r.Interleave, r.Burst, r.Failed)
		}
		if r.LostByte >= 0 {
			fmt.Fprintf(w, "%d:1 burst %d: first byte lost in the 5380's output latch: byte %d of the block (%d overwrites)\n",
				r.Interleave, r.Burst, r.LostByte, r.Overwrites)
		}
	}
	return nil
}
