package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
)

// interleaveRow is one line of `bench interleave --json`.
type interleaveRow struct {
	Interleave int      `json:"interleave"`
	Transfer   string   `json:"transfer"`
	MS         float64  `json:"ms"`
	StoryMS    *float64 `json:"story_ms"`
	MinMS      float64  `json:"min_ms"`
	MaxMS      float64  `json:"max_ms"`
	CTCMS      float64  `json:"ctc_ms"`
	Samples    int      `json:"samples"`
	// Method is "steady" (time per 8 KB chunk in a run of sequential
	// chunks, after the first) or "isolated" (one transfer from a random
	// spindle angle).
	Method string `json:"method"`
	Chunks int    `json:"chunks,omitempty"`
	// Lost is the mean number of revolutions lost between two consecutive
	// sectors (the next sector's ID passed more than a revolution after
	// the previous one's), for a buffer half or a turnaround between
	// READs: per measured chunk (steady) or per run (isolated).
	Lost float64 `json:"lost_revolutions"`
}

type interleaveOpts struct {
	interleaves []int
	transfers   []string
	samples     int
	lba         int
	mode        string
	burst       int
	waitOnDRQ   bool
	isolated    bool
	chunks      int
	dir         string
	// progress, if set, hears of every sample: the row, samples done of
	// samples in all rows.
	progress func(label string, done, total int)
}

func init() {
	var (
		o        interleaveOpts
		ilList   string
		trList   string
		jsonFlag bool
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
			var err error
			if o.interleaves, err = parseInterleaves(ilList); err != nil {
				return err
			}
			o.transfers = nil
			for _, t := range strings.Split(trList, ",") {
				if t = strings.TrimSpace(t); t != "" {
					o.transfers = append(o.transfers, t)
				}
			}
			dir, err := scratchDir()
			if err != nil {
				return err
			}
			defer bench.RemoveScratch(dir)
			o.dir = dir
			bar := newProgress(cmd.ErrOrStderr())
			o.progress = func(label string, done, total int) { bar.show(label, int64(done), int64(total)) }
			header := false
			rows, err := benchInterleave(o, func(r interleaveRow) {
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
	f.IntVar(&o.samples, "samples", 0, "runs per row at spread spindle angles (default 1 steady, 8 isolated)")
	f.BoolVar(&o.isolated, "isolated", false, "time one transfer from a random spindle angle instead of the steady state")
	f.IntVar(&o.chunks, "chunks", 4, "8 KB chunks per steady-state run (the first is not timed)")
	f.IntVar(&o.lba, "lba", 0, "first block read")
	f.StringVar(&o.mode, "mode", "burst", "data handshake: burst (INIR) or byte")
	f.IntVar(&o.burst, "burst", 256, "bytes per INIR burst")
	f.BoolVar(&o.waitOnDRQ, "wait-on-drq", false, "board holds WAIT for DRQ (hypothesis B)")
	benchCmd.AddCommand(cmd)
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

// parseTransfer reads "NKxM": M READs of N KB.
func parseTransfer(s string) (readSecs, reads int, err error) {
	kb, m, ok := strings.Cut(strings.ToUpper(s), "KX")
	n, err1 := strconv.Atoi(kb)
	r, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || n < 1 || r < 1 {
		return 0, 0, fmt.Errorf("--transfer: %q is not NKxM (e.g. 4Kx2)", s)
	}
	if n*2*r > diskbench.MaxBlocks {
		return 0, 0, fmt.Errorf("--transfer: %q exceeds the 32 KB buffer", s)
	}
	if r > diskbench.MaxReads {
		return 0, 0, fmt.Errorf("--transfer: %q has more than %d READs", s, diskbench.MaxReads)
	}
	return n * 2, r, nil
}

type interleaveCase struct {
	il       int
	transfer string
}

func interleaveCases(o interleaveOpts) []interleaveCase {
	var cases []interleaveCase
	if len(o.interleaves) == 0 && len(o.transfers) == 0 {
		for il := 2; il <= 9; il++ {
			cases = append(cases, interleaveCase{il, "4Kx2"})
		}
		return append(cases, interleaveCase{3, "8Kx1"})
	}
	ils, trs := o.interleaves, o.transfers
	if len(ils) == 0 {
		ils = []int{2, 3, 4, 5, 6, 7, 8, 9}
	}
	if len(trs) == 0 {
		trs = []string{"4Kx2"}
	}
	for _, il := range ils {
		for _, tr := range trs {
			cases = append(cases, interleaveCase{il, tr})
		}
	}
	return cases
}

func benchInterleave(o interleaveOpts, each func(interleaveRow)) ([]interleaveRow, error) {
	if o.samples == 0 {
		o.samples = 1
		if o.isolated {
			o.samples = 8
		}
	}
	if o.samples < 1 {
		return nil, fmt.Errorf("--samples %d: at least 1", o.samples)
	}
	if !o.isolated && o.chunks < 2 {
		return nil, fmt.Errorf("--chunks %d: at least 2 (the first is not timed)", o.chunks)
	}
	mode := uint8(diskbench.Burst)
	switch o.mode {
	case "burst":
	case "byte":
		mode = diskbench.ByteByByte
	default:
		return nil, fmt.Errorf("--mode %q: burst or byte", o.mode)
	}
	cases := interleaveCases(o)
	for _, c := range cases { // reject bad input before the long work
		secs, reads, err := parseTransfer(c.transfer)
		if err != nil {
			return nil, err
		}
		p := diskbench.Defaults()
		p.Mode, p.Burst, p.ReadSecs, p.Reads, p.LBA = mode, o.burst, secs, reads, o.lba
		if !o.isolated {
			p.Reads = reads * o.chunks
		}
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("%s at %d:1: %w", c.transfer, c.il, err)
		}
	}
	done, total := 0, len(cases)*o.samples
	var rows []interleaveRow
	disks := map[int]string{}
	dp := acb4000.DefaultParams()
	rev := dp.Revolution()
	for _, c := range cases {
		d := disks[c.il]
		if d == "" {
			d = filepath.Join(o.dir, fmt.Sprintf("hd-%d.img", c.il))
			if err := acb4000.Create(d, acb4000.ST125, true, c.il); err != nil {
				return nil, err
			}
			disks[c.il] = d
		}
		secs, reads, _ := parseTransfer(c.transfer)
		p := diskbench.Defaults()
		p.Mode, p.Burst, p.ReadSecs, p.Reads, p.LBA = mode, o.burst, secs, reads, o.lba
		row := interleaveRow{Interleave: c.il, Transfer: c.transfer, Samples: o.samples, MinMS: 1e18, Method: "isolated"}
		if !o.isolated {
			p.Reads = reads * o.chunks
			row.Method, row.Chunks = "steady", o.chunks
		}
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("%s at %d:1: %w", c.transfer, c.il, err)
		}
		for j := range o.samples {
			if o.progress != nil {
				o.progress(fmt.Sprintf("%d:1 %s", c.il, c.transfer), done, total)
			}
			done++
			q := dp
			q.IndexPhase = rev * sched.Time(j) / sched.Time(o.samples)
			res, err := bench.RunDisk(d, q, p, o.waitOnDRQ)
			if err != nil {
				return nil, err
			}
			if res.Failed != "" {
				return nil, fmt.Errorf("%s at %d:1: %s", c.transfer, c.il, res.Failed)
			}
			bus, ctc, from := res.Scope, res.CTC, 1
			if !o.isolated {
				if bus, ctc, err = res.Steady(reads); err != nil {
					return nil, err
				}
				from = secs * reads // the first chunk's sectors are not timed
			}
			ms := bus.Seconds() * 1000
			row.MS += ms
			row.CTCMS += ctc.Seconds() * 1000
			row.MinMS, row.MaxMS = min(row.MinMS, ms), max(row.MaxMS, ms)
			for i := from; i < len(res.Sectors); i++ {
				if res.Sectors[i].IDAt-res.Sectors[i-1].IDAt > rev {
					row.Lost++
				}
			}
		}
		if !o.isolated {
			row.Lost /= float64(o.chunks - 1)
		}
		n := float64(o.samples)
		row.MS, row.CTCMS, row.Lost = row.MS/n, row.CTCMS/n, row.Lost/n
		if s, ok := diskbench.Story[c.transfer][c.il]; ok && mode == diskbench.Burst {
			row.StoryMS = &s
		}
		rows = append(rows, row)
		if each != nil {
			each(row)
		}
	}
	return rows, nil
}

func printInterleaveHeader(w io.Writer) {
	fmt.Fprintf(w, "%4s %-5s %-8s %10s  %14s  %16s  %s\n", "il", "xfer", "method", "bus time", "CTC time", "[min..max] ms", "story ms (deviation), revolutions lost")
}

func printInterleaveRow(w io.Writer, r interleaveRow) {
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
