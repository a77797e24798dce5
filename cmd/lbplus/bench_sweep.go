package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
)

func init() {
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
			dir, err := bench.ScratchDir()
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			bar := newProgress(cmd.ErrOrStderr())
			pts, err := bench.Sweep(bench.Options{Dir: dir}, kb*1024/512, func(done, total int) {
				bar.show("sweep", int64(done), int64(total))
			})
			bar.done()
			if err != nil {
				return err
			}
			if plotTo != "" {
				if err := bench.PlotSweep(pts, plotTo); err != nil {
					return fmt.Errorf("%s: %w", plotTo, err)
				}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(pts)
			}
			return bench.WriteSweep(cmd.OutOrStdout(), pts)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().StringVar(&plotTo, "plot", "", "draw the sweep into this PNG file")
	cmd.Flags().IntVar(&kb, "kb", 256, "kilobytes read per point")
	benchCmd.AddCommand(cmd)
}
