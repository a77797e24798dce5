package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/diskbench"
)

func newBenchInterleaveCmd(bo *benchOptions) *cobra.Command {
	var (
		ilList, trList, mode string
		jsonFlag             bool
		o                    bench.InterleaveSweep
	)
	cmd := &cobra.Command{
		Use:   "interleave",
		Short: "Time 8 KB disk reads at each disk interleave (the story's table)",
		Long: `Run DISKBENCH on the emulated board: READ(6) commands into memory from an
ST-125 image formatted at each interleave, timed on the SCSI bus (as the
story's scope did) and by the program with the CTC.

By default a row is the steady state of a bulk transfer, as the story's
owner measured it: --chunks sequential 8 KB chunks (each READ continuing at
the next block), and the mean time per chunk after the first, whose
rotational latency is random. --isolated instead times one transfer from
the first selection to the last bus free, averaged over --samples runs that
start at evenly spread spindle angles (min and max given too).

--transfer takes NKxM items: M READs of N KB each (e.g. 4Kx2, 8Kx1, 1Kx8).
Without --interleave and --transfer it runs the story's table: 4Kx2 at
2..9 and 8Kx1 at 3.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ils, err := parseInterleaves(ilList)
			if err != nil {
				return err
			}
			var transfers []string
			for _, t := range strings.Split(trList, ",") {
				if t = strings.TrimSpace(t); t != "" {
					transfers = append(transfers, t)
				}
			}
			w := o // the flags stay as given
			if err := interleaveFlags(&w, mode); err != nil {
				return err
			}
			w.Cases = bench.InterleaveCases(ils, transfers)
			for _, c := range w.Cases {
				if _, _, err := bench.ParseTransfer(c.Transfer); err != nil {
					return fmt.Errorf("--transfer: %w", err)
				}
			}
			dir, err := bo.scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			w.Dir = dir
			bar := bo.progress(cmd.ErrOrStderr())
			w.Progress = func(label string, done, total int) { bar.show(label, int64(done), int64(total)) }
			header := false
			rows, err := bench.Interleave(w, func(r bench.InterleaveRow) {
				bar.done()
				if !jsonFlag {
					if !header {
						printInterleaveHeader(cmd.OutOrStdout())
						header = true
					}
					printInterleaveRow(cmd.OutOrStdout(), r)
				}
			})
			bar.done()
			if err != nil {
				return err
			}
			if jsonFlag {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&jsonFlag, "json", false, "print a JSON array of rows")
	f.StringVar(&ilList, "interleave", "", "disk interleaves, e.g. 2-9 or 3,8 (default: the story's)")
	f.StringVar(&trList, "transfer", "", "transfers NKxM, e.g. 4Kx2,8Kx1 (default: the story's)")
	f.IntVar(&o.Samples, "samples", 0, "runs per row at spread spindle angles (default 1 steady, 8 isolated)")
	f.BoolVar(&o.Isolated, "isolated", false, "time one transfer from a random spindle angle instead of the steady state")
	f.IntVar(&o.Chunks, "chunks", 4, "8 KB chunks per steady-state run (the first is not timed)")
	f.IntVar(&o.LBA, "lba", 0, "first block read")
	f.StringVar(&mode, "mode", "burst", "data handshake: burst (INIR) or byte")
	f.IntVar(&o.Burst, "burst", 256, "bytes per INIR burst")
	f.BoolVar(&o.WaitOnDRQ, "wait-on-drq", false, "board holds WAIT for DRQ (hypothesis B)")
	return cmd
}

func parseInterleaves(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("--interleave: %q is not a number or range", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("--interleave: %q is not a number or range", part)
			}
		}
		if a > b {
			return nil, fmt.Errorf("--interleave: %q is reversed (write %d-%d)", part, b, a)
		}
		if a < 1 || b > acb4000.ST125.Sectors-1 {
			return nil, fmt.Errorf("--interleave: %q outside 1-%d", part, acb4000.ST125.Sectors-1)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

// interleaveFlags checks the sweep's flags and puts --mode and the
// default --samples (1 steady, 8 isolated) in o.
func interleaveFlags(o *bench.InterleaveSweep, mode string) error {
	if o.Samples == 0 {
		o.Samples = 1
		if o.Isolated {
			o.Samples = 8
		}
	}
	if o.Samples < 1 {
		return fmt.Errorf("--samples %d: at least 1", o.Samples)
	}
	if !o.Isolated && o.Chunks < 2 {
		return fmt.Errorf("--chunks %d: at least 2 (the first is not timed)", o.Chunks)
	}
	switch mode {
	case "burst":
		o.Mode = diskbench.Burst
	case "byte":
		o.Mode = diskbench.ByteByByte
	default:
		return fmt.Errorf("--mode %q: burst or byte", mode)
	}
	return nil
}

func printInterleaveHeader(w io.Writer) {
	fmt.Fprintf(w, "%4s %-5s %-8s %10s  %14s  %16s  %s\n", "il", "xfer", "method", "bus time", "CTC time", "[min..max] ms", "story ms (deviation), revolutions lost")
}

func printInterleaveRow(w io.Writer, r bench.InterleaveRow) {
	story := "     -"
	if r.StoryMS != nil {
		story = fmt.Sprintf("%6.0f", *r.StoryMS)
	}
	dev := ""
	if r.StoryMS != nil {
		dev = fmt.Sprintf(" (%+5.1f%%)", 100*(r.MS / *r.StoryMS - 1))
	}
	fmt.Fprintf(w, "%2d:1 %-5s %-8s %7.1f ms  CTC %7.1f ms  [%6.1f..%6.1f]  story %s ms%s  lost revolutions %.1f\n",
		r.Interleave, r.Transfer, r.Method, r.MS, r.CTCMS, r.MinMS, r.MaxMS, story, dev, r.Lost)
}
