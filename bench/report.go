package bench

import (
	"fmt"
	"io"
	"math"
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

// RowJSON is one object of `lbplus bench seed --json` (issue 6).
type RowJSON struct {
	Row         string   `json:"row"`
	BytesPerSec float64  `json:"bytes_per_sec"`
	Story       *float64 `json:"story_bytes_per_sec"`
	Repositions int      `json:"repositions"`
}

// JSON converts for the --json output.
func (r RowResult) JSON() RowJSON {
	j := RowJSON{Row: r.Name, BytesPerSec: math.Round(r.BytesPerSec*10) / 10, Repositions: r.Repositions}
	if r.Story != 0 {
		s := r.Story
		j.Story = &s
	}
	return j
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

// WriteTable prints the seed table. withTime adds the elapsed simulated time.
func WriteTable(w io.Writer, rows []RowResult, withTime bool) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := "row\tsettings\tmeasured B/s\tstory B/s\tdeviation\trepositions\t"
	if withTime {
		head += "elapsed\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		story, dev := "-", "-"
		switch {
		case r.Story != 0:
			story = fmt.Sprintf("%.0f", r.Story)
			dev = fmt.Sprintf("%+.1f%%", 100*r.Deviation())
		case r.StoryBelow != 0:
			story = fmt.Sprintf("< %.0f", r.StoryBelow)
			if r.BytesPerSec < r.StoryBelow {
				dev = "below"
			} else {
				dev = "ABOVE"
			}
		}
		meas := fmt.Sprintf("%.0f", r.BytesPerSec)
		if r.Failed != "" {
			meas = "FAILED"
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%d\t", r.Name, r.Settings(), meas, story, dev, r.Repositions)
		if withTime {
			line += fmt.Sprintf("%s\t", fmtMinutes(r.Elapsed.Seconds()))
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if r.Failed != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Name, r.Failed)
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
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
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
	return p.Save(7*vg.Inch, 4.5*vg.Inch, file)
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
