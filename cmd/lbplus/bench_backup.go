package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

func newBenchBackupCmd(bo *benchOptions) *cobra.Command {
	var (
		source, diskHS, tapeHS, readSize   string
		hdIL, tapeIL, diskBurst, tapeBurst int
		mb                                 float64
		noTape, asJSON, console, waitDRQ   bool
		biosNoCache                        bool
		plotTo, vcdTo, traceTo             string
		dbg                                benchDebug
	)
	cmd := &cobra.Command{
		Use:   "backup",
		Short: "Run BACKUP with any combination of the story's settings",
		Long: `Runs BACKUP once on a fresh board and fresh images with the settings given,
and prints the same table (or --json array) as bench seed.

Examples:
  lbplus bench backup --hd-interleave 3 --disk-handshake burst --read-size 8K \
      --tape-interleave 3 --tape-handshake burst --tape-burst 16
  lbplus bench backup --tape-burst 256 --tape-handshake burst   # the write hang`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dbg.window {
				if err := handOffWindow(); err != nil {
					return err
				}
			}
			passes, err := passesForMB(mb)
			if err != nil {
				return err
			}
			if max := acb4000.ST125.Sectors - 1; hdIL < 1 || hdIL > max {
				return fmt.Errorf("--hd-interleave %d: give 1 to %d", hdIL, max)
			}
			if max := mcd403.DefaultParams().MaxInterleave; !noTape && (tapeIL < 1 || tapeIL > max) {
				return fmt.Errorf("--tape-interleave %d: give 1 to %d", tapeIL, max)
			}
			p := backup.Defaults()
			p.Passes = passes
			p.Console = console
			switch source {
			case "scsi":
				p.Source = backup.SourceSCSI
			case "bios":
				p.Source = backup.SourceBIOS
			default:
				return fmt.Errorf("--source %q: use scsi or bios", source)
			}
			if p.DiskMode, err = handshake("--disk-handshake", diskHS); err != nil {
				return err
			}
			if p.TapeMode, err = handshake("--tape-handshake", tapeHS); err != nil {
				return err
			}
			p.DiskBurst, p.TapeBurst = diskBurst, tapeBurst
			if p.ReadSectors, err = parseReadSize(readSize); err != nil {
				return err
			}
			if p.Source == backup.SourceBIOS {
				p.ReadSectors = 1
				p.BIOSNoCache = biosNoCache
			}
			p.BufSectors = backup.TapeBlock / backup.SectorSize
			if p.ReadSectors > p.BufSectors {
				p.BufSectors = p.ReadSectors
			}
			if noTape {
				p.TapeID = backup.NoTape
			}
			if p.BufSectors%p.ReadSectors != 0 {
				return fmt.Errorf("--read-size %s: 8 KB is not a whole number of READs of that size", readSize)
			}
			if p.TapeID != backup.NoTape && p.BufSectors%16 != 0 {
				return fmt.Errorf("--read-size %s: READs larger than 8 KB must be whole tape blocks (multiples of 8K)", readSize)
			}
			if err := p.Validate(); err != nil {
				return err
			}
			name := fmt.Sprintf("custom-hd%d", hdIL)
			if !noTape {
				name += fmt.Sprintf("-tape%d", tapeIL)
			}
			row := bench.Row{Setup: bench.Setup{Name: name, DiskInterleave: hdIL, TapeInterleave: tapeIL, Program: p}}
			for _, r := range bench.Rows(passes) { // a known row keeps its story figure
				if sameSetup(r.Setup, row.Setup) {
					row.Name, row.Story, row.StoryBelow, row.Tolerance = r.Name, r.Story, r.StoryBelow, r.Tolerance
				}
			}
			return bo.runBackupRow(cmd, row, backupOutput{json: asJSON, plot: plotTo, vcd: vcdTo, trace: traceTo,
				waitDRQ: waitDRQ, withTime: mb >= 10, debug: dbg})
		},
	}
	f := cmd.Flags()
	f.StringVar(&source, "source", "scsi", "disk path: scsi (direct READs) or bios (128-byte BIOS calls)")
	f.IntVar(&hdIL, "hd-interleave", 3, "disk FORMAT interleave")
	f.IntVar(&tapeIL, "tape-interleave", 3, "tape format interleave")
	f.StringVar(&diskHS, "disk-handshake", "burst", "byte or burst (INIR)")
	f.IntVar(&diskBurst, "disk-burst", bench.StoryDiskBurst, "bytes per INIR burst (1-256)")
	f.StringVar(&readSize, "read-size", "8K", "bytes per disk READ: a multiple of 512 up to 32K (e.g. 512, 4K, 8K)")
	f.StringVar(&tapeHS, "tape-handshake", "burst", "byte or burst (OTIR, DRQ checked between bursts)")
	f.IntVar(&tapeBurst, "tape-burst", bench.StoryTapeBurst, "bytes per OTIR burst (1-256)")
	f.Float64Var(&mb, "mb", defaultSeedMB, "megabytes (10^6) to copy")
	f.BoolVar(&biosNoCache, "bios-no-cache", false, "with --source bios: re-read the 512-byte block for every 128-byte record")
	f.BoolVar(&noTape, "no-tape", false, "read the disk only")
	f.BoolVar(&asJSON, "json", false, "print a JSON array instead of the table")
	f.BoolVar(&console, "console", false, "show what BACKUP prints on the console")
	f.BoolVar(&waitDRQ, "wait-on-drq", false, "board option: port 28 holds WAIT until DRQ (hypothesis B)")
	f.StringVar(&plotTo, "plot", "", "draw measured against story bytes/s into this PNG file")
	f.StringVar(&vcdTo, "vcd", "", "write the SCSI bus as a VCD file (GTKWave, sigrok-cli -I vcd)")
	f.StringVar(&traceTo, "trace", "", "write the SCSI bus as a text trace")
	addBenchDebugFlags(f, &dbg)
	return cmd
}

func handshake(flag, v string) (backup.Handshake, error) {
	switch v {
	case "byte":
		return backup.Byte, nil
	case "burst":
		return backup.Burst, nil
	}
	return 0, fmt.Errorf("%s %q: use byte or burst", flag, v)
}

// parseReadSize reads "8K", "4096", "512" as 512-byte blocks.
func parseReadSize(s string) (int, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mul := 1
	if strings.HasSuffix(t, "K") {
		t, mul = strings.TrimSuffix(t, "K"), 1024
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("--read-size %q: not a size (use e.g. 512, 4K, 8K)", s)
	}
	n *= mul
	if n%backup.SectorSize != 0 || n/backup.SectorSize > backup.MaxBufSector {
		return 0, fmt.Errorf("--read-size %q: must be a multiple of 512 bytes up to 32K", s)
	}
	return n / backup.SectorSize, nil
}

func sameSetup(a, b bench.Setup) bool {
	pa, pb := a.Program, b.Program
	pa.Passes, pb.Passes = 0, 0
	pa.Console, pb.Console = false, false
	return a.DiskInterleave == b.DiskInterleave && a.TapeInterleave == b.TapeInterleave && pa == pb
}

type backupOutput struct {
	json              bool
	plot, vcd, trace  string
	waitDRQ, withTime bool
	debug             benchDebug
}

func (bo *benchOptions) runBackupRow(cmd *cobra.Command, row bench.Row, out backupOutput) (err error) {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if out.plot != "" {
		if err := bench.CheckPlotPath(out.plot); err != nil {
			return fmt.Errorf("--plot %w", err)
		}
	}
	if err := checkOutputs(nil, outputFile{"--vcd", out.vcd}, outputFile{"--trace", out.trace}, outputFile{"--plot", out.plot}); err != nil {
		return err
	}
	if err := checkBenchDebugScript(out.debug.script); err != nil {
		return err
	}
	dir, err := bo.scratchDir()
	if err != nil {
		return err
	}
	defer bench.RemoveScratch(dir)
	bar := bo.progress(stderr)
	o := bench.Options{Dir: dir, WaitOnDRQ: out.waitDRQ,
		Progress: func(done, total int64) { bar.show(row.Name, done, total) }}
	o.OnStart = benchDebugHook(stdout, out.debug) // --debug, --debug-script (debug.go)
	var closers []func(end sched.Time) error
	if out.vcd != "" || out.trace != "" {
		var vcd *scsi.VCD
		var tt *scsi.TextTrace
		for _, spec := range []struct {
			path string
			open func(w *bufio.Writer)
		}{
			{out.vcd, func(w *bufio.Writer) { vcd = scsi.NewVCD(w) }},
			{out.trace, func(w *bufio.Writer) { tt = scsi.NewTextTrace(w) }},
		} {
			if spec.path == "" {
				continue
			}
			f, err := os.Create(spec.path)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(f)
			spec.open(w)
			closers = append(closers, func(end sched.Time) error {
				if spec.path == out.vcd {
					if err := vcd.End(end); err != nil {
						return fmt.Errorf("%s: %w", spec.path, err)
					}
				}
				if err := w.Flush(); err != nil {
					return fmt.Errorf("%s: %w", spec.path, err)
				}
				return f.Close()
			})
		}
		o.OnBus = func(bus *scsi.Bus) {
			if vcd != nil {
				bus.Observe(vcd.Change)
			}
			if tt != nil {
				bus.Observe(tt.Change)
			}
		}
	}
	asJSON, plotTo, withTime := out.json, out.plot, out.withTime
	var con []byte
	if row.Program.Console {
		o.Console = func(b byte) { con = append(con, b) }
	}
	start, cpu0 := time.Now(), hostcpu.Process()
	r, err := bench.Run(row.Setup, o)
	bar.done()
	for _, c := range closers {
		if cerr := c(r.BoardTime); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		for _, p := range []string{out.vcd, out.trace} {
			if p != "" {
				os.Remove(p) // a trace of a run that could not be carried out
			}
		}
		return err
	}
	res := []bench.RowResult{{Row: row, Result: r}}
	var errs []error
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		errs = append(errs, enc.Encode([]bench.RowJSON{res[0].JSON()}))
	} else {
		if len(con) > 0 {
			fmt.Fprintf(stdout, "console: %s\n", strings.TrimSpace(string(con)))
		}
		errs = append(errs, bench.WriteTable(stdout, res, withTime, false))
		reportSpeed(stdout, res, time.Since(start).Seconds(), hostcpu.Process()-cpu0)
	}
	if plotTo != "" {
		if err := bench.PlotSeed(res, plotTo); err != nil {
			errs = append(errs, fmt.Errorf("--plot %s: %w", plotTo, err))
		}
	}
	errs = append(errs, rowsVerdict(res, false))
	return errors.Join(errs...)
}
