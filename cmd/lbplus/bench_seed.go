package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/roms/backup"
)

// defaultSeedMB keeps the whole seed table, the slow BIOS row included,
// under a minute of host time on the project's 2-core machine.
const defaultSeedMB = 0.25

func init() {
	var (
		asJSON bool
		mb     float64
		plotTo string
		only   []string
	)
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Replay every row of the 1990 disk-to-tape table on fresh images",
		Long: `Runs BACKUP for each row of the story's table (seed 000) on a fresh board
with fresh disk and tape images formatted at that row's interleaves, and prints
row, settings, measured bytes/s, the story's bytes/s and the deviation.
Throughput is what BACKUP measured with the CTC; repositions are the tape's
stop/back-up/restart cycles.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			passes, err := passesForMB(mb)
			if err != nil {
				return err
			}
			rows := bench.Rows(passes)
			if len(only) > 0 {
				rows = rows[:0]
				for _, id := range only {
					r, err := bench.FindRow(id, passes)
					if err != nil {
						return err
					}
					rows = append(rows, r)
				}
			}
			return runSeedRows(cmd.OutOrStdout(), cmd.ErrOrStderr(), rows, seedOutput{json: asJSON, plot: plotTo, withTime: mb >= 10})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of the table")
	cmd.Flags().Float64Var(&mb, "mb", defaultSeedMB, "megabytes (10^6) each row copies; 10 also reports the elapsed time against the story's 13 minutes")
	cmd.Flags().StringVar(&plotTo, "plot", "", "draw measured against story bytes/s into this PNG file")
	cmd.Flags().StringSliceVar(&only, "row", nil, "run only these row ids (repeatable)")
	benchCmd.AddCommand(cmd)
}

// passesForMB converts megabytes to BACKUP passes of one 8 KB tape block.
func passesForMB(mb float64) (int, error) {
	if math.IsNaN(mb) || mb <= 0 || mb > 40 {
		return 0, fmt.Errorf("--mb %g: give a size above 0 and at most 40 MB (the tape holds 39.7 MB)", mb)
	}
	return max(1, int(math.Round(mb*1e6/backup.TapeBlock))), nil
}

type seedOutput struct {
	json     bool
	plot     string
	withTime bool
}

func runSeedRows(stdout, stderr io.Writer, rows []bench.Row, out seedOutput) error {
	dir, err := bench.ScratchDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bar := newProgress(stderr)
	start, cpu0 := time.Now(), bench.ProcessCPUSeconds()
	res, err := bench.RunRows(rows, bench.Options{Dir: dir}, func(i int, done, total int64) {
		bar.show(fmt.Sprintf("%d/%d %s", i+1, len(rows), rows[i].Name), done, total)
	})
	bar.done()
	if err != nil {
		return err
	}
	wall, cpu := time.Since(start).Seconds(), bench.ProcessCPUSeconds()-cpu0
	if out.plot != "" {
		if err := bench.PlotSeed(res, out.plot); err != nil {
			return fmt.Errorf("%s: %w", out.plot, err)
		}
	}
	if out.json {
		js := make([]bench.RowJSON, len(res))
		for i, r := range res {
			js[i] = r.JSON()
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(js)
	}
	if err := bench.WriteTable(stdout, res, out.withTime); err != nil {
		return err
	}
	reportSpeed(stdout, res, wall, cpu)
	if out.withTime {
		fmt.Fprintln(stdout, "story: 10 MB backed up in about 13 minutes (burst-hd3-8Kx1-tape3)")
	}
	return nil
}

// reportSpeed prints emulated T-states per host second over all runs, per
// wall-clock second and per second of this process's CPU time (the machine
// may be shared).
func reportSpeed(w io.Writer, res []bench.RowResult, wall, cpu float64) {
	var t uint64
	var sim float64
	for _, r := range res {
		t += r.TStates
		sim += r.BoardTime.Seconds()
	}
	if wall > 0 {
		fmt.Fprintf(w, "emulated %.1f s in %.1f s host: %.0f M T-states/s (%.0fx real time)",
			sim, wall, float64(t)/wall/1e6, sim/wall)
		if cpu > 0 {
			fmt.Fprintf(w, "; per CPU second of this process %.0f M T-states/s", float64(t)/cpu/1e6)
		}
		fmt.Fprintln(w)
	}
}

// progress draws a one-line bar on a terminal and nothing elsewhere.
type progress struct {
	w    io.Writer
	on   bool
	last time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) show(label string, done, total int64) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(done)/float64(total))
	}
	const width = 30
	n := int(frac * width)
	fmt.Fprintf(p.w, "\r%-28s [%s%s] %3.0f%%", label, strings.Repeat("#", n), strings.Repeat(".", width-n), 100*frac)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 70))
	}
}
