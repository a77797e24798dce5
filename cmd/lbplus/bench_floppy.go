package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/roms/fdbench"
)

func newBenchFloppyCmd(bo *benchOptions) *cobra.Command {
	var (
		interleaves, loops string
		asJSON             bool
	)
	cmd := &cobra.Command{
		Use:   "floppy",
		Short: "Read a floppy track at interleave 1:1-5:1 with a fast and a slow polled loop",
		Long: `Runs FDBENCH (roms/fdbench) on a fresh board with one 48 tpi drive and an
amp2 disk laid down at each --interleave, and reads track 0 (sectors 17-26
in order) as an Ampro-style BIOS does: Read Sector, a polled loop of
--loop T-states a byte, then the sector copied with LDIR before the next.
Prints the steady-state time per track and the lost-data retries per
track (docs/FLOPPY.md, "Bench").

  lbplus bench floppy                          # 1:1-5:1, loops of 67 and 150 T
  lbplus bench floppy --json --interleave 2 --loop 67,100,150`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ils, err := intList("--interleave", interleaves)
			if err != nil {
				return err
			}
			ls, err := intList("--loop", loops)
			if err != nil {
				return err
			}
			for _, il := range ils {
				if il < 1 || il > 9 {
					return fmt.Errorf("--interleave %d: give 1 to 9", il)
				}
			}
			for _, l := range ls {
				if _, err := fdbench.Build(l); err != nil {
					return fmt.Errorf("--loop %d: %w", l, err)
				}
			}
			bar := bo.progress(cmd.ErrOrStderr())
			rows, err := bench.FloppySweep(ils, ls, func(il, l, done, total int) {
				bar.show(fmt.Sprintf("%d:1, %d T a byte", il, l), int64(done), int64(total))
			})
			bar.done()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			return floppyTable(cmd.OutOrStdout(), rows)
		},
	}
	f := cmd.Flags()
	f.StringVar(&interleaves, "interleave", "1,2,3,4,5", "physical interleaves to lay the track down with")
	f.StringVar(&loops, "loop", "67,150", "read loop T-states a byte (67 is the BIOS loop; 128 is one byte on the disk)")
	f.BoolVar(&asJSON, "json", false, "print a JSON array of {interleave, loop_t_states, ms_per_track, lost_data_retries, gave_up}")
	return cmd
}

func floppyTable(w io.Writer, rows []bench.FloppyRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "interleave\tloop T/byte\tms/track\tlost-data retries\tsectors given up\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d:1\t%d\t%.1f\t%.1f\t%.1f\t\n", r.Interleave, r.LoopTStates, r.MsPerTrack, r.LostDataRetries, r.GaveUp)
	}
	return tw.Flush()
}
