package bench

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
)

// InterleaveRow is one row of the interleave sweep (`lbplus bench
// interleave`): one transfer at one disk interleave, averaged over samples.
type InterleaveRow struct {
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

// InterleaveCase is one row to measure: a transfer "NKxM" (ParseTransfer)
// at a disk interleave.
type InterleaveCase struct {
	Interleave int
	Transfer   string
}

// InterleaveSweep is what Interleave measures and how.
type InterleaveSweep struct {
	Cases []InterleaveCase
	// Samples are the runs per row, at spindle angles spread evenly over
	// a revolution (at least 1).
	Samples int
	// Isolated times one transfer from the first selection to the last
	// bus free; otherwise a row is the steady state of Chunks sequential
	// chunks (at least 2: the first is not timed).
	Isolated bool
	Chunks   int
	LBA      int
	// Mode is diskbench.Burst or diskbench.ByteByByte, Burst the bytes
	// of an INIR burst.
	Mode      uint8
	Burst     int
	WaitOnDRQ bool
	// Dir holds the disk images, one per interleave.
	Dir string
	// Progress, if set, hears of every sample: the row, samples done of
	// samples in all rows.
	Progress func(label string, done, total int)
}

// InterleaveCases are the rows of a sweep over interleaves and transfers
// (each interleave with each transfer); with neither, the story's table:
// 4Kx2 at 2:1 to 9:1 and 8Kx1 at 3:1. A missing list is 2-9 or 4Kx2.
func InterleaveCases(interleaves []int, transfers []string) []InterleaveCase {
	var cases []InterleaveCase
	if len(interleaves) == 0 && len(transfers) == 0 {
		for il := 2; il <= 9; il++ {
			cases = append(cases, InterleaveCase{il, "4Kx2"})
		}
		return append(cases, InterleaveCase{3, "8Kx1"})
	}
	ils, trs := interleaves, transfers
	if len(ils) == 0 {
		ils = []int{2, 3, 4, 5, 6, 7, 8, 9}
	}
	if len(trs) == 0 {
		trs = []string{"4Kx2"}
	}
	for _, il := range ils {
		for _, tr := range trs {
			cases = append(cases, InterleaveCase{il, tr})
		}
	}
	return cases
}

// ParseTransfer reads "NKxM": M READs of N KB, as DISKBENCH's sectors per
// READ and READs; it refuses what DISKBENCH's buffer cannot take.
func ParseTransfer(s string) (readSecs, reads int, err error) {
	kb, m, ok := strings.Cut(strings.ToUpper(s), "KX")
	n, err1 := strconv.Atoi(kb)
	r, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || n < 1 || r < 1 {
		return 0, 0, fmt.Errorf("%q is not NKxM (e.g. 4Kx2)", s)
	}
	if n*2*r > diskbench.MaxBlocks {
		return 0, 0, fmt.Errorf("%q exceeds the 32 KB buffer", s)
	}
	if r > diskbench.MaxReads {
		return 0, 0, fmt.Errorf("%q has more than %d READs", s, diskbench.MaxReads)
	}
	return n * 2, r, nil
}

// params is DISKBENCH's parameter block for case c: its READs, times
// Chunks for the steady state.
func (w InterleaveSweep) params(c InterleaveCase) (diskbench.Params, int, int, error) {
	secs, reads, err := ParseTransfer(c.Transfer)
	if err != nil {
		return diskbench.Params{}, 0, 0, err
	}
	p := diskbench.Defaults()
	p.Mode, p.Burst, p.ReadSecs, p.Reads, p.LBA = w.Mode, w.Burst, secs, reads, w.LBA
	if !w.Isolated {
		p.Reads = reads * w.Chunks
	}
	if err := p.Validate(); err != nil {
		return p, 0, 0, fmt.Errorf("%s at %d:1: %w", c.Transfer, c.Interleave, err)
	}
	return p, secs, reads, nil
}

// Interleave runs DISKBENCH for every case on an ST-125 image formatted at
// the case's interleave, the disk's index at each sample's spindle angle,
// and returns a row per case (each given to each as it is done). Every
// case is checked before the first run.
func Interleave(w InterleaveSweep, each func(InterleaveRow)) ([]InterleaveRow, error) {
	if w.Samples < 1 {
		return nil, fmt.Errorf("interleave sweep: %d samples, at least 1", w.Samples)
	}
	if !w.Isolated && w.Chunks < 2 {
		return nil, fmt.Errorf("interleave sweep: %d chunks, at least 2 (the first is not timed)", w.Chunks)
	}
	for _, c := range w.Cases { // reject bad input before the long work
		if _, _, _, err := w.params(c); err != nil {
			return nil, err
		}
	}
	done, total := 0, len(w.Cases)*w.Samples
	var rows []InterleaveRow
	disks := map[int]string{}
	dp := acb4000.DefaultParams()
	rev := dp.Revolution()
	for _, c := range w.Cases {
		d := disks[c.Interleave]
		if d == "" {
			d = filepath.Join(w.Dir, fmt.Sprintf("hd-%d.img", c.Interleave))
			if err := acb4000.Create(d, acb4000.ST125, true, c.Interleave); err != nil {
				return nil, err
			}
			disks[c.Interleave] = d
		}
		p, secs, reads, err := w.params(c)
		if err != nil {
			return nil, err
		}
		row := InterleaveRow{Interleave: c.Interleave, Transfer: c.Transfer, Samples: w.Samples, MinMS: 1e18, Method: "isolated"}
		if !w.Isolated {
			row.Method, row.Chunks = "steady", w.Chunks
		}
		for j := range w.Samples {
			if w.Progress != nil {
				w.Progress(fmt.Sprintf("%d:1 %s", c.Interleave, c.Transfer), done, total)
			}
			done++
			q := dp
			q.IndexPhase = rev * sched.Time(j) / sched.Time(w.Samples)
			res, err := RunDisk(d, q, p, w.WaitOnDRQ)
			if err != nil {
				return nil, err
			}
			if res.Failed != "" {
				return nil, fmt.Errorf("%s at %d:1: %s", c.Transfer, c.Interleave, res.Failed)
			}
			bus, ctc, from := res.Scope, res.CTC, 1
			if !w.Isolated {
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
		if !w.Isolated {
			row.Lost /= float64(w.Chunks - 1)
		}
		n := float64(w.Samples)
		row.MS, row.CTCMS, row.Lost = row.MS/n, row.CTCMS/n, row.Lost/n
		if s, ok := diskbench.Story[c.Transfer][c.Interleave]; ok && w.Mode == diskbench.Burst {
			row.StoryMS = &s
		}
		rows = append(rows, row)
		if each != nil {
			each(row)
		}
	}
	return rows, nil
}
