package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/backup"
)

// defaultSeedMB keeps the whole seed table, the slow BIOS row included,
// under a minute of host time on the project's 2-core machine.
const defaultSeedMB = 0.25

func newBenchSeedCmd(bo *benchOptions) *cobra.Command {
	var (
		asJSON, check bool
		mb            float64
		plotTo        string
		only          []string
	)
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Replay every row of the 1990 disk-to-tape table on fresh images",
		Long: `Runs BACKUP for each row of the story's table (Bill Stubblebine, Usenet,
20 August 1990) on a fresh board with fresh disk and tape images formatted at
that row's interleaves, and prints row, settings, measured bytes/s, the
story's bytes/s and the deviation.
Throughput is what BACKUP measured with the CTC: "measured" is the steady
rate (the first 8 KB block, the tape's start from its load point, left out),
"whole run" is all bytes over the whole elapsed time. Repositions are the
tape's stop/back-up/restart cycles.

--check is the regression check for scripts: it adds a check column, one
line for each row outside its tolerance (1% for the streaming rows, under
3000 B/s with the tape repositioning for the BIOS row) and
exits 1 when any row fails. With the whole table it also runs the story's
statements that bound the fitted parameters without a figure of their own
(bench params): burst 4K x2 cannot stream at tape 3:1, the BIOS path stops
the tape at 6:1 too, 256-byte tape bursts hang and 16-byte ones work, and
the disk interleave table within 10%; one line each, and exit 1 when any
fails. --json carries the same verdict per row ("ok",
"failure") with the story's figure as text and number, the deviation and
the tolerance. Any failed run exits 1 with or without --check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			passes, err := passesForMB(mb)
			if err != nil {
				return err
			}
			if plotTo != "" {
				if err := bench.CheckPlotPath(plotTo); err != nil {
					return fmt.Errorf("--plot %w", err)
				}
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
			return bo.runSeedRows(cmd.OutOrStdout(), cmd.ErrOrStderr(), rows, bench.Options{},
				seedOutput{json: asJSON, plot: plotTo, withTime: mb >= 10, check: check, stories: check && len(only) == 0})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of the table")
	cmd.Flags().BoolVar(&check, "check", false, "regression check: exit 1 when any row leaves its tolerance, one line per such row")
	cmd.Flags().Float64Var(&mb, "mb", defaultSeedMB, "megabytes (10^6) each row copies; 10 also reports the elapsed time against the story's 13 minutes")
	cmd.Flags().StringVar(&plotTo, "plot", "", "draw measured against story bytes/s into this PNG (or .svg, .pdf) file")
	cmd.Flags().StringSliceVar(&only, "row", nil, "run only these row ids (repeatable)")
	return cmd
}

// diskMB is what the ST-125 disk holds, the most a BACKUP run can copy.
func diskMB() float64 { return float64(acb4000.ST125.Blocks()*acb4000.ST125.SectorSize) / 1e6 }

// passesForMB converts megabytes to BACKUP passes of one 8 KB tape block.
func passesForMB(mb float64) (int, error) {
	if math.IsNaN(mb) || mb <= 0 || mb > diskMB() {
		return 0, fmt.Errorf("--mb %g: give a size above 0 and at most %.1f MB (what the ST-125 disk holds)", mb, diskMB())
	}
	return max(1, int(math.Round(mb*1e6/backup.TapeBlock))), nil
}

type seedOutput struct {
	json     bool
	plot     string
	withTime bool
	check    bool
	// stories runs bench.StoryChecks beyond the table's rows (--check on
	// the whole table).
	stories bool
}

// runSeedRows runs rows and reports them. The table or JSON is written
// before the plot, so a plot that cannot be written never costs the
// measurements; a failed run (or with check, a row outside its tolerance)
// makes the error returned after everything is written.
func (bo *benchOptions) runSeedRows(stdout, stderr io.Writer, rows []bench.Row, o bench.Options, out seedOutput) error {
	dir, err := bo.scratchDir()
	if err != nil {
		return err
	}
	defer bench.RemoveScratch(dir)
	o.Dir = dir
	bar := bo.progress(stderr)
	start, cpu0 := time.Now(), hostcpu.Process()
	res, err := bench.RunRows(rows, o, func(i int, done, total int64) {
		bar.show(fmt.Sprintf("%d/%d %s", i+1, len(rows), rows[i].Name), done, total)
	})
	bar.done()
	if err != nil {
		return err
	}
	wall, cpu := time.Since(start).Seconds(), hostcpu.Process()-cpu0
	var errs []error
	if out.json {
		js := make([]bench.RowJSON, len(res))
		for i, r := range res {
			js[i] = r.JSON()
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		errs = append(errs, enc.Encode(js))
	} else {
		errs = append(errs, bench.WriteTable(stdout, res, out.withTime, out.check))
		reportSpeed(stdout, res, wall, cpu)
		if out.withTime {
			fmt.Fprintln(stdout, "story: 10 MB backed up in about 13 minutes (burst-hd3-8Kx1-tape3)")
		}
	}
	if out.plot != "" {
		if err := bench.PlotSeed(res, out.plot); err != nil {
			errs = append(errs, fmt.Errorf("--plot %s: %w", out.plot, err))
		}
	}
	errs = append(errs, rowsVerdict(res, out.check))
	if out.stories {
		w := stdout
		if out.json {
			w = stderr // stdout holds the rows' JSON array only
		}
		errs = append(errs, runStoryChecks(w, bar, o))
	}
	return errors.Join(errs...)
}

// runStoryChecks runs the story checks that are not rows of the table on
// o's models, one line each, and returns an error naming how many failed.
func runStoryChecks(w io.Writer, bar *progress, o bench.Options) error {
	m := bench.DefaultModels()
	if o.Disk != nil {
		m.Disk = *o.Disk
	}
	if o.Tape != nil {
		m.Tape = *o.Tape
	}
	table := map[string]bool{}
	for _, r := range bench.Rows(1) {
		table[r.Name] = true
	}
	var checks []bench.StoryCheck
	for _, c := range bench.StoryChecks(bench.ParamsPasses) {
		if !table[c.Name] {
			checks = append(checks, c)
		}
	}
	failed := 0
	for i, c := range checks {
		bar.show(fmt.Sprintf("story check %d/%d", i+1, len(checks)), int64(i), int64(len(checks)))
		why, err := c.Run(m, o.Dir)
		bar.done()
		if err != nil {
			return fmt.Errorf("story check %s: %w", c.Name, err)
		}
		if why != "" {
			failed++
			fmt.Fprintf(w, "story check %s: FAILED: %s\n", c.Name, why)
		} else {
			fmt.Fprintf(w, "story check %s: ok\n", c.Name)
		}
	}
	if failed > 0 {
		return fmt.Errorf("check: %d of %d story checks failed", failed, len(checks))
	}
	return nil
}

// rowsVerdict is the error for failed runs, and with check for rows
// outside their tolerance, or nil.
func rowsVerdict(res []bench.RowResult, check bool) error {
	failed, missed := 0, 0
	for _, r := range res {
		switch {
		case r.Failed != "":
			failed++
		case check && r.Check() != "":
			missed++
		}
	}
	switch {
	case failed > 0 && missed > 0:
		return fmt.Errorf("%d of %d runs failed, %d more outside their tolerance", failed, len(res), missed)
	case failed > 0:
		return fmt.Errorf("%d of %d runs failed", failed, len(res))
	case missed > 0:
		return fmt.Errorf("check: %d of %d rows outside their tolerance", missed, len(res))
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

// newProgress is a bar on w, or none when quiet.
func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w}
	if quiet {
		return p
	}
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
