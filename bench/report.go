package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// RowResult is a row with what the run measured.
type RowResult struct {
	Row
	Result
}

// RowJSON is one object of `lbplus bench seed --json`: the
// story's figure as the post wrote it ("12787", "< 3000") and as a number,
// the deviation from it, the tolerance, and why the row failed, so scripts
// can regression-check without parsing the table.
type RowJSON struct {
	Row         string  `json:"row"`
	Settings    string  `json:"settings"`
	BytesPerSec float64 `json:"bytes_per_sec"`
	// WholeBytesPerSec is every byte over the whole run's time, the first
	// block's start from the load point included; BytesPerSec (the one
	// checked) leaves that first block out (bench.SteadyMinPasses).
	WholeBytesPerSec float64 `json:"whole_bytes_per_sec"`
	// Story is the story's figure as text; StoryBytesPerSec the number in
	// it (the bound for the BIOS row), null for a row the story does not
	// have.
	Story            string   `json:"story"`
	StoryBytesPerSec *float64 `json:"story_bytes_per_sec"`
	// Deviation is measured / story - 1 (against the bound for a bound
	// row), null without a story figure or a measurement.
	Deviation *float64 `json:"deviation"`
	// Tolerance is the allowed |deviation| as a fraction; null for a bound
	// row, whose rule is in Check.
	Tolerance   *float64 `json:"tolerance"`
	Check       string   `json:"check"`
	Repositions int      `json:"repositions"`
	// OK is false when the run failed or the row left its tolerance;
	// Failure then says why.
	OK      bool   `json:"ok"`
	Failure string `json:"failure,omitempty"`
}

// JSON converts for the --json output.
func (r RowResult) JSON() RowJSON {
	j := RowJSON{Row: r.Name, Settings: r.Settings(), BytesPerSec: math.Round(r.BytesPerSec*10) / 10,
		WholeBytesPerSec: math.Round(r.WholeBytesPerSec*10) / 10,
		Story:            r.StoryText(), Check: r.Rule(), Repositions: r.Repositions}
	num := func(v float64) *float64 { return &v }
	if s := max(r.Story, r.StoryBelow); s != 0 {
		j.StoryBytesPerSec = num(s)
		if r.Failed == "" {
			j.Deviation = num(math.Round((r.BytesPerSec/s-1)*1e4) / 1e4)
		}
	}
	if r.Tolerance != 0 {
		j.Tolerance = num(r.Tolerance)
	}
	j.Failure = r.Check()
	j.OK = j.Failure == ""
	return j
}

// StoryText is the story's figure as the table prints it: "12787",
// "< 3000", or "-" for a row the story does not have.
func (r Row) StoryText() string {
	switch {
	case r.Story != 0:
		return fmt.Sprintf("%.0f", r.Story)
	case r.StoryBelow != 0:
		return fmt.Sprintf("< %.0f", r.StoryBelow)
	}
	return "-"
}

// ReposEvery: the story's BIOS tape "stops and restarts every block"; a run
// passes that check with at least one reposition per ReposEvery blocks
// (half of them), which leaves room for the launch and the last block.
const ReposEvery = 2

// Rule says in words what Check demands of the row.
func (r Row) Rule() string {
	switch {
	case r.Story != 0 && r.Tolerance != 0:
		return fmt.Sprintf("within %.0f%% of %.0f B/s", 100*r.Tolerance, r.Story)
	case r.StoryBelow != 0:
		if r.StoryAbove != 0 {
			return fmt.Sprintf("between %.0f and %.0f B/s, tape repositioning at least every %d blocks", r.StoryAbove, r.StoryBelow, ReposEvery)
		}
		return fmt.Sprintf("under %.0f B/s, tape repositioning at least every %d blocks", r.StoryBelow, ReposEvery)
	}
	return "the run completes"
}

// Check returns why the row fails its regression check (the run failed,
// or the rate left the story's tolerance or bound), or "" when it passes.
// A row without a story figure only has to complete.
func (r RowResult) Check() string {
	switch {
	case r.Failed != "":
		return "run failed: " + r.Failed
	case r.Story != 0 && r.Tolerance != 0:
		if d := r.Deviation(); math.Abs(d) > r.Tolerance {
			return fmt.Sprintf("%.0f B/s is %+.1f%% from the story's %.0f, outside +-%.0f%%",
				r.BytesPerSec, 100*d, r.Story, 100*r.Tolerance)
		}
	case r.StoryBelow != 0:
		if r.BytesPerSec >= r.StoryBelow {
			return fmt.Sprintf("%.0f B/s, the story's is under %.0f", r.BytesPerSec, r.StoryBelow)
		}
		if r.BytesPerSec <= r.StoryAbove {
			return fmt.Sprintf("%.0f B/s: the story's rise to 12.7K would be more than %gx (it says quadrupled)", r.BytesPerSec, MaxRise)
		}
		if blocks := int(r.Row.Program.Passes); r.Repositions < blocks/ReposEvery {
			return fmt.Sprintf("%d tape repositions in %d blocks; the story's tape stopped every block", r.Repositions, blocks)
		}
	}
	return ""
}

// Deviation is measured/story - 1, or NaN without a story figure.
func (r RowResult) Deviation() float64 {
	if r.Story == 0 {
		return math.NaN()
	}
	return r.BytesPerSec/r.Story - 1
}

// Settings describes a row's settings for the table.
func (r Row) Settings() string {
	p := r.Program
	src := fmt.Sprintf("READ %dK x%d", p.ReadSectors/2, p.BufSectors/p.ReadSectors)
	if p.ReadSectors%2 != 0 {
		src = fmt.Sprintf("READ %d blk", p.ReadSectors)
	}
	if p.Source == 1 {
		src = "BIOS 128"
	}
	hs := func(m uint8, n int) string {
		if m == 0 {
			return "byte"
		}
		return fmt.Sprintf("burst %d", n)
	}
	s := fmt.Sprintf("HD %d:1 %s %s", r.DiskInterleave, src, hs(uint8(p.DiskMode), p.DiskBurst))
	if p.TapeID != 0xFF {
		s += fmt.Sprintf(", tape %d:1 %s", r.TapeInterleave, hs(uint8(p.TapeMode), p.TapeBurst))
	}
	return s
}

// WriteTable prints the seed table. withTime adds the elapsed simulated
// time. Under the table, one line per row that failed its run or (with
// check) its regression check says why.
func WriteTable(w io.Writer, rows []RowResult, withTime, check bool) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := "row\tsettings\tmeasured B/s\twhole run B/s\tstory B/s\tdeviation\trepositions\t"
	if withTime {
		head += "elapsed\t"
	}
	if check {
		head += "check\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		dev := "-"
		switch {
		case r.Failed != "":
		case r.Story != 0:
			dev = fmt.Sprintf("%+.1f%%", 100*r.Deviation())
		case r.StoryBelow != 0:
			if r.BytesPerSec < r.StoryBelow {
				dev = "below"
			} else {
				dev = "ABOVE"
			}
		}
		meas, whole := fmt.Sprintf("%.0f", r.BytesPerSec), fmt.Sprintf("%.0f", r.WholeBytesPerSec)
		if r.Failed != "" {
			meas, whole = "FAILED", "-"
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%d\t", r.Name, r.Settings(), meas, whole, r.StoryText(), dev, r.Repositions)
		if withTime {
			line += fmt.Sprintf("%s\t", fmtMinutes(r.Elapsed.Seconds()))
		}
		if check {
			verdict := "ok"
			if r.Check() != "" {
				verdict = "FAIL"
			}
			line += verdict + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		switch why := r.Check(); {
		case r.Failed != "":
			fmt.Fprintf(w, "%s: %s\n", r.Name, r.Failed)
		case check && why != "":
			fmt.Fprintf(w, "%s: %s (%s)\n", r.Name, why, r.Rule())
		}
	}
	return nil
}

func fmtMinutes(s float64) string {
	return fmt.Sprintf("%dm%04.1fs", int(s)/60, math.Mod(s, 60))
}

// PlotSeed draws measured against story throughput per row as bars.
func PlotSeed(rows []RowResult, file string) error {
	p := plot.New()
	p.Title.Text = "Disk to tape, emulated vs 1990"
	p.Y.Label.Text = "bytes/s"
	var meas, story plotter.Values
	var names []string
	for _, r := range rows {
		meas = append(meas, r.BytesPerSec)
		s := r.Story
		if s == 0 {
			s = r.StoryBelow
		}
		story = append(story, s)
		names = append(names, strings.ReplaceAll(r.Name, "-", "\n"))
	}
	w := vg.Points(18)
	bm, err := plotter.NewBarChart(meas, w)
	if err != nil {
		return err
	}
	bm.Offset = -w / 2
	bm.Color = plotter.DefaultLineStyle.Color
	bs, err := plotter.NewBarChart(story, w)
	if err != nil {
		return err
	}
	bs.Offset = w / 2
	bs.Color = gray
	p.Add(bm, bs)
	p.Legend.Add("emulated", bm)
	p.Legend.Add("story (bound for the BIOS row)", bs)
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(names...)
	return savePlot(p, 8*vg.Inch, 5*vg.Inch, file)
}

// SweepPoint is one READ size of the sweep.
type SweepPoint struct {
	Sectors     int     `json:"sectors"`
	Handshake   string  `json:"handshake"`
	BytesPerSec float64 `json:"bytes_per_sec"`
	MsPerRead   float64 `json:"ms_per_read"`
	Failed      string  `json:"failed,omitempty"`
}

// WriteSweep prints the sweep table: one line per READ size.
func WriteSweep(w io.Writer, pts []SweepPoint) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "blocks/READ\thandshake\tbytes/s\tms/READ\t")
	for _, p := range pts {
		v := fmt.Sprintf("%.0f", p.BytesPerSec)
		if p.Failed != "" {
			v = "FAILED"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.2f\t\n", p.Sectors, p.Handshake, v, p.MsPerRead)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range pts {
		if p.Failed != "" {
			fmt.Fprintf(w, "%d %s: %s\n", p.Sectors, p.Handshake, p.Failed)
		}
	}
	return nil
}

// PlotSweep draws throughput against READ size, one line per handshake.
func PlotSweep(pts []SweepPoint, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Disk read throughput at %d:1 vs READ size", SweepInterleave)
	p.X.Label.Text = "512-byte blocks per READ"
	p.Y.Label.Text = "bytes/s"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.ConstantTicks(ticks())
	for i, hs := range []string{"byte", "burst"} {
		var xy plotter.XYs
		for _, q := range pts {
			if q.Handshake == hs && q.Failed == "" {
				xy = append(xy, plotter.XY{X: float64(q.Sectors), Y: q.BytesPerSec})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		if i == 1 {
			l.Color, s.Color = gray, gray
		}
		p.Add(l, s)
		p.Legend.Add(hs, l, s)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return savePlot(p, 7*vg.Inch, 4.5*vg.Inch, file)
}

// PlotFormats are the file name extensions a plot can be written as.
var PlotFormats = []string{".png", ".svg", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff"}

// CheckPlotPath refuses, before any long run, a plot file the plot could
// not be written to: an unknown extension or a missing folder.
func CheckPlotPath(file string) error {
	ext := strings.ToLower(filepath.Ext(file))
	if !slices.Contains(PlotFormats, ext) {
		return fmt.Errorf("%s: a plot is written as %s; give one of these extensions", file, strings.Join(PlotFormats, ", "))
	}
	if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: folder %s does not exist", file, filepath.Dir(file))
	}
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		return fmt.Errorf("%s: is a directory", file)
	}
	return nil
}

// savePlot renders the whole plot in memory first and then writes it
// under a temporary name renamed into place, so a failure leaves no empty
// or partial file.
func savePlot(p *plot.Plot, w, h vg.Length, file string) error {
	if err := CheckPlotPath(file); err != nil {
		return err
	}
	wt, err := p.WriterTo(w, h, strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), "."))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func ticks() []plot.Tick {
	var t []plot.Tick
	for _, n := range SweepSectors {
		t = append(t, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
	}
	return t
}

var gray = plotColor{0x99, 0x99, 0x99}

type plotColor struct{ r, g, b uint8 }

func (c plotColor) RGBA() (r, g, b, a uint32) {
	return uint32(c.r) * 0x101, uint32(c.g) * 0x101, uint32(c.b) * 0x101, 0xFFFF
}

// Run runs the check on the models m with its scratch images in dir; why
// says how the story is broken, "" when it holds.
func (c StoryCheck) Run(m Models, dir string) (why string, err error) {
	why, _, err = c.run(m, dir, nil)
	return why, err
}
