package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
)

// paramJSON is one object of `lbplus bench params --json`.
type paramJSON struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Source string  `json:"source"`
	// Window is [lo, hi] in Unit; an end the search range did not close
	// is the range's end with lo_open / hi_open set.
	Window  [2]float64 `json:"window"`
	LoOpen  bool       `json:"lo_open"`
	HiOpen  bool       `json:"hi_open"`
	LoLimit string     `json:"lo_limited_by,omitempty"`
	LoWhy   string     `json:"lo_failure,omitempty"`
	HiLimit string     `json:"hi_limited_by,omitempty"`
	HiWhy   string     `json:"hi_failure,omitempty"`
	// Margin is the distance to the nearer closed end over the value;
	// null when no check closes either end.
	Margin      *float64 `json:"margin"`
	KnifeEdge   bool     `json:"knife_edge"`
	Constrained bool     `json:"constrained"`
	Fail        string   `json:"fails,omitempty"`
}

func newBenchParamsCmd(bo *benchOptions) *cobra.Command {
	var (
		asJSON  bool
		short   bool
		workers int
		only    []string
		crossV  bool
	)
	cmd := &cobra.Command{
		Use:   "params",
		Short: "The window of every fitted parameter: how far it may move with every story row kept",
		Long: `For each parameter that a story row constrains (the six FIT entries of
docs/PARAMETERS.md and the assumptions and derivations the rows bound,
among them ReqAfterAck, which a source gives, and SearchFactor, which no
check moves), searches on the
emulation, with every other parameter at its value, for the range over
which every story check still passes: the five seed rows within their
tolerances (` + fmt.Sprint(bench.ParamsPasses) + ` blocks each), burst 4K x2 missing tape 3:1, the
BIOS path stopping at tape 6:1 too, 256-byte tape bursts hanging and 16-byte
ones working, and (for the disk's parameters) the interleave table within
10%. Each side is probed at 2% of the value, then twice as far each time
until a check fails, then bisected. The margin is the distance from the
value to the nearer closed end as a fraction of the value; under 2% is a
knife edge. An end marked "<" or ">" is the search range's: nothing failed
there, the parameter is not constrained on that side.

Each check runs once per set of the parameters it sees (an outcome is
remembered), and BACKUP's runs share one read-only disk image per
interleave. The full search of all parameters takes about 3 minutes of
CPU on a 2-core host, more the busier it is (docs/PERFORMANCE.md: a
third the SCSI data phases, a third the host polling a busy tape, which
the CPU replays rather than executes). --short measures the rows on ` + fmt.Sprint(bench.ShortParamsPasses) + `
blocks and stops each bisection four times coarser: about half the CPU time, with narrower
windows where the burst 4K x2 host must stop at tape 3:1 (fewer blocks,
fewer chances to stop). --param searches one. On stderr, unless -q: how
many check runs were emulated, and each check's runs and the T-states its
machines executed (where the time goes, the same on any host).

--cross-validate instead runs every figure of the story once and prints it
with the parameters fitted on it (or "held out"), the model's prediction
and its error (docs/PARAMETERS.md "Cross-validation"; with --short, ` + fmt.Sprint(bench.ShortParamsPasses) + `
blocks a row and no 10 MB run).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if crossV {
				return crossValidate(cmd, bo, asJSON, short)
			}
			if workers < 1 {
				return fmt.Errorf("--workers %d: give at least 1", workers)
			}
			ps := bench.FitParams()
			if len(only) > 0 {
				var sel []bench.FitParam
				for _, name := range only {
					found := false
					for _, p := range ps {
						if p.Name == name || strings.HasSuffix(p.Name, "."+name) {
							sel, found = append(sel, p), true
						}
					}
					if !found {
						return fmt.Errorf("--param %s: no such fitted parameter", name)
					}
				}
				ps = sel
			}
			search := bench.FullSearch
			if short {
				search = bench.ShortSearch
			}
			dir, err := bo.scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			e := bench.NewEvaluator(dir, search)
			start := time.Now()
			n := 0
			progress := func(w bench.Window) {
				n++
				fmt.Fprintf(cmd.ErrOrStderr(), "\r%d/%d parameters (%s done, %s)   ", n, len(ps), w.Name, time.Since(start).Round(time.Second))
			}
			if bo.quiet {
				progress = nil
			}
			ws, err := e.FindWindows(ps, workers, progress)
			if !bo.quiet {
				fmt.Fprintf(cmd.ErrOrStderr(), "\n%d evaluations, %d check runs emulated of %d consulted\n", e.Runs(), e.Emulated(), e.Consulted())
				writeCheckWork(cmd.ErrOrStderr(), e.Work())
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				js := make([]paramJSON, len(ws))
				for i, w := range ws {
					js[i] = windowJSON(w)
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(js)
			}
			if err := writeWindows(out, ws); err != nil {
				return err
			}
			fmt.Fprintf(out, "%d evaluations (%d check runs emulated) in %s on %d workers\n", e.Runs(), e.Emulated(), time.Since(start).Round(time.Second), workers)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array: each parameter's value, unit, source and window")
	cmd.Flags().BoolVar(&short, "short", false, "a quicker, coarser search (fewer blocks a row, ends four times coarser)")
	cmd.Flags().IntVar(&workers, "workers", min(2, runtime.NumCPU()), "parameters searched at a time")
	cmd.Flags().BoolVar(&crossV, "cross-validate", false, "instead of the windows: each story figure with the parameters fitted on it, the prediction and its error (docs/PARAMETERS.md)")
	cmd.Flags().StringSliceVar(&only, "param", nil, "only these parameters (e.g. mcd403.SlotTime or SlotTime; repeatable)")
	return cmd
}

// writeCheckWork prints how the search's emulation divides among the
// checks: runs and T-states of each, its share of all T-states.
func writeCheckWork(w io.Writer, ws []bench.CheckWork) {
	var all uint64
	for _, c := range ws {
		all += c.TStates
	}
	if all == 0 {
		return
	}
	fmt.Fprintf(w, "%-30s %6s %11s %6s\n", "check", "runs", "G T-states", "share")
	for _, c := range ws {
		fmt.Fprintf(w, "%-30s %6d %11.1f %5.1f%%\n", c.Name, c.Runs, float64(c.TStates)/1e9, 100*float64(c.TStates)/float64(all))
	}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func windowJSON(w bench.Window) paramJSON {
	j := paramJSON{Name: w.Name, Value: round3(w.Value), Unit: w.Unit, Source: w.Source,
		Window: [2]float64{round3(w.Lo), round3(w.Hi)}, LoOpen: w.LoOpen, HiOpen: w.HiOpen,
		LoLimit: w.LoBy, LoWhy: w.LoWhy, HiLimit: w.HiBy, HiWhy: w.HiWhy,
		KnifeEdge: knifeEdge(w), Constrained: w.Constrained(), Fail: w.Fail}
	if !math.IsInf(w.Margin, 1) {
		m := math.Round(w.Margin*1e4) / 1e4
		j.Margin = &m
	}
	return j
}

func knifeEdge(w bench.Window) bool { return w.Fail == "" && w.Margin < bench.KnifeEdge }

// writeWindows prints the table of docs/PARAMETERS.md (Markdown).
func writeWindows(w io.Writer, ws []bench.Window) error {
	fmt.Fprintln(w, "| Parameter | Value | Source | Window | Margin | Limited below by | Limited above by |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, x := range ws {
		lo, hi := fmt.Sprintf("%g", round3(x.Lo)), fmt.Sprintf("%g", round3(x.Hi))
		if x.LoOpen {
			lo = "<" + lo
		}
		if x.HiOpen {
			hi = ">" + hi
		}
		margin := fmt.Sprintf("%.1f%%", 100*x.Margin)
		switch {
		case x.Fail != "":
			margin = "FAILS: " + x.Fail
		case math.IsInf(x.Margin, 1):
			margin = "unconstrained"
		case knifeEdge(x):
			margin += " KNIFE EDGE"
		}
		by := func(s string, open bool) string {
			if open {
				return "nothing in range"
			}
			return s
		}
		if _, err := fmt.Fprintf(w, "| %s | %g %s | %s | %s-%s %s | %s | %s | %s |\n", x.Name, round3(x.Value), x.Unit, x.Source,
			lo, hi, x.Unit, margin, by(x.LoBy, x.LoOpen), by(x.HiBy, x.HiOpen)); err != nil {
			return err
		}
	}
	return nil
}

// crossValidate is --cross-validate: bench.RunCrossValidation in a scratch
// directory, the figure being run on stderr.
func crossValidate(cmd *cobra.Command, bo *benchOptions, asJSON, short bool) error {
	dir, err := bo.scratchDir()
	if err != nil {
		return err
	}
	defer bench.RemoveScratch(dir)
	progress := func(id string) { fmt.Fprintf(cmd.ErrOrStderr(), "\r%-40s", id) }
	if bo.quiet {
		progress = nil
	}
	err = bench.RunCrossValidation(cmd.OutOrStdout(), dir, short, asJSON, progress)
	if progress != nil {
		fmt.Fprintln(cmd.ErrOrStderr())
	}
	return err
}
