package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
)

func newBenchSweepCmd(bo *benchOptions) *cobra.Command {
	var (
		asJSON bool
		plotTo string
		kb     int
	)
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Disk read throughput against blocks per READ (dd-style)",
		Long: fmt.Sprintf(`Reads the disk only, formatted %d:1, with READ commands of 1, 2, 4, 8,
16, 32 and 64 blocks, byte by byte and with INIR bursts, and prints bytes/s
and milliseconds per READ: command overhead dominates small transfers.`, bench.SweepInterleave),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if kb < 32 || kb > 4096 {
				return fmt.Errorf("--kb %d: use 32 to 4096", kb)
			}
			if plotTo != "" {
				if err := bench.CheckPlotPath(plotTo); err != nil {
					return fmt.Errorf("--plot %w", err)
				}
			}
			dir, err := bo.scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			bar := bo.progress(cmd.ErrOrStderr())
			pts, err := bench.Sweep(bench.Options{Dir: dir}, kb*1024/512, func(done, total int) {
				bar.show("sweep", int64(done), int64(total))
			})
			bar.done()
			if err != nil {
				return err
			}
			var errs []error
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				errs = append(errs, enc.Encode(pts))
			} else {
				errs = append(errs, bench.WriteSweep(cmd.OutOrStdout(), pts))
			}
			if plotTo != "" {
				if err := bench.PlotSweep(pts, plotTo); err != nil {
					errs = append(errs, fmt.Errorf("--plot %s: %w", plotTo, err))
				}
			}
			failed := 0
			for _, p := range pts {
				if p.Failed != "" {
					failed++
				}
			}
			if failed > 0 {
				errs = append(errs, fmt.Errorf("%d of %d runs failed", failed, len(pts)))
			}
			return errors.Join(errs...)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().StringVar(&plotTo, "plot", "", "draw the sweep into this PNG file")
	cmd.Flags().IntVar(&kb, "kb", 256, "kilobytes read per point")
	return cmd
}
