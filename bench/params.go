package bench

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
)

// Models are the device parameters a story check runs with.
type Models struct {
	Disk acb4000.Params
	Tape mcd403.Params
}

// DefaultModels are both devices' defaults.
func DefaultModels() Models {
	return Models{Disk: acb4000.DefaultParams(), Tape: mcd403.DefaultParams()}
}

// FitParam is one parameter whose value the story's rows constrain: where
// it lives, its unit, its value and source tag, and the range the window
// search may explore (a physical range, not the window).
type FitParam struct {
	Name   string  `json:"name"` // package.Field
	Unit   string  `json:"unit"`
	Value  float64 `json:"value"` // in Unit
	Source string  `json:"source"`
	// Min and Max bound the search; Step is its resolution (1 for counts).
	Min  float64 `json:"-"`
	Max  float64 `json:"-"`
	Step float64 `json:"-"`
	// Grid, when set, lists the only values the parameter can take, in
	// ascending order (the drain chunk must divide the block); the search
	// then moves along the grid and Min, Max and Step are unused.
	Grid []float64 `json:"-"`
	// Disk: a disk parameter; the disk interleave table depends only on
	// these (its runs have no tape drive).
	Disk    bool `json:"-"`
	integer bool // a count: the search takes whole values
	get     func(*Models) float64
	set     func(*Models, float64)
}

func timeParam(name, unit string, scale sched.Time, src string, lo, hi, step float64, disk bool, f func(*Models) *sched.Time) FitParam {
	return FitParam{Name: name, Unit: unit, Source: src, Min: lo, Max: hi, Step: step, Disk: disk,
		get: func(m *Models) float64 { return float64(*f(m)) / float64(scale) },
		set: func(m *Models, v float64) { *f(m) = sched.Time(math.Round(v * float64(scale))) }}
}

func intParam(name, unit, src string, lo, hi float64, f func(*Models) *int) FitParam {
	return FitParam{Name: name, Unit: unit, Source: src, Min: lo, Max: hi, Step: 1, integer: true,
		get: func(m *Models) float64 { return float64(*f(m)) },
		set: func(m *Models, v float64) { *f(m) = int(math.Round(v)) }}
}

// FitParams lists every parameter a story row constrains (docs/PARAMETERS.md
// "Fitted parameters"), with its value in the default models. Min and Max
// are the physically sensible range the search may explore; an end of it
// that still passes every check is reported as open.
func FitParams() []FitParam {
	ms, us := sched.Millisecond, sched.Microsecond
	// The FIFO is a ring indexed by a masked counter: a power of two, its
	// drain chunk half of it (mcd403.Params.FIFOSize, DrainChunk).
	var rings []float64
	for n := 16; n <= 1024; n *= 2 {
		rings = append(rings, float64(n))
	}
	disk := func(name, src string, lo, hi, step float64, f func(*acb4000.Params) *sched.Time) FitParam {
		return timeParam("acb4000."+name, "ms", ms, src, lo, hi, step, true, func(m *Models) *sched.Time { return f(&m.Disk) })
	}
	tape := func(name, unit, src string, lo, hi, step float64, f func(*mcd403.Params) *sched.Time) FitParam {
		scale := ms
		if unit == "us" {
			scale = us
		}
		return timeParam("mcd403."+name, unit, scale, src, lo, hi, step, false, func(m *Models) *sched.Time { return f(&m.Tape) })
	}
	ps := []FitParam{
		disk("CommandOverhead", "FIT: disk table 7:1 loses a revolution at each READ boundary, 8:1 does not", 0, 6, 0.01,
			func(p *acb4000.Params) *sched.Time { return &p.CommandOverhead }),
		disk("StatusOverhead", "A: acts only in its sum with CommandOverhead, which carries the fit", 0, 6, 0.01,
			func(p *acb4000.Params) *sched.Time { return &p.StatusOverhead }),
		disk("ArmLatency", "FIT: disk table 2:1 (165 ms, the host-bound row)", 0, 3, 0.01,
			func(p *acb4000.Params) *sched.Time { return &p.ArmLatency }),
		disk("ChainLatency", "A: must fit the 35 us gap after a data field (1:1 works, ACB-OEM); bounded above only", 0, 2, 0.005,
			func(p *acb4000.Params) *sched.Time { return &p.ChainLatency }),
		disk("ECCCheck", "A: a syndrome test after the hardware ECC; bounded above only", 0, 2, 0.005,
			func(p *acb4000.Params) *sched.Time { return &p.ECCCheck }),
		disk("TrackToTrack", "A: a one-cylinder seek of drives of the class; bounded far away", 0, 40, 0.1,
			func(p *acb4000.Params) *sched.Time { return &p.TrackToTrack }),
		tape("SlotTime", "ms", "FIT: 12787 B/s at tape 3:1 and 6631 B/s at 6:1, in closed form", 180, 250, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.SlotTime }),
		tape("FrameGap", "ms", "FIT: 12787 B/s at tape 3:1 and 6631 B/s at 6:1, in closed form", 0, 150, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.FrameGap }),
		tape("DataTime", "ms", "A: 9/10 of the slot; in the write budget with BlockPrepare", 100, 198, 0.5,
			func(p *mcd403.Params) *sched.Time { return &p.DataTime }),
		tape("VerifyLag", "ms", "A: read-after-write check; in the write budget with BlockPrepare", 0, 100, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.VerifyLag }),
		tape("BlockPrepare", "ms", "FIT: burst 8K x1 streams at tape 3:1, 4K x2 misses it (the write budget)", 150, 450, 0.5,
			func(p *mcd403.Params) *sched.Time { return &p.BlockPrepare }),
		tape("CommandOverhead", "ms", "A: firmware decode; in the write budget with BlockPrepare", 0, 100, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.CommandOverhead }),
		tape("StatusOverhead", "ms", "A: firmware wrap-up; in the write budget with BlockPrepare", 0, 100, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.StatusOverhead }),
		tape("ArmLead", "ms", "A: the formatter's set-up; in the write budget with BlockPrepare", 0, 100, 0.1,
			func(p *mcd403.Params) *sched.Time { return &p.ArmLead }),
		tape("IdleStop", "ms", "D: SlotTime + FrameGap, one block period of tape (A mechanism)", 20, 2000, 1,
			func(p *mcd403.Params) *sched.Time { return &p.IdleStop }),
		tape("RampTime", "ms", "FIT: the cost of a stop (BIOS row between 2842 and 3000 B/s)", 10, 4000, 5,
			func(p *mcd403.Params) *sched.Time { return &p.RampTime }),
		intParam("mcd403.SearchFactor", "x", "A: search speed over write speed", 1, 16,
			func(m *Models) *int { return &m.Tape.SearchFactor }),
		{Name: "mcd403.FIFOSize", Unit: "bytes", Source: "A: a power-of-two ring, drained half a ring at a time (32 to 256 keep every check)", Grid: rings,
			get: func(m *Models) float64 { return float64(m.Tape.FIFOSize) },
			set: func(m *Models, v float64) {
				m.Tape.FIFOSize = int(math.Round(v))
				m.Tape.DrainChunk = m.Tape.FIFOSize / 2
			}},
		tape("DrainByteTime", "us", "D: an 8-cycle 8031 copy loop at 12 MHz (MCS-51 instruction times)", 0.1, 40, 0.05,
			func(p *mcd403.Params) *sched.Time { return &p.DrainByteTime }),
		tape("DrainChunkOverhead", "us", "A: flag poll and pointer update; in the write budget with BlockPrepare", 0, 2000, 1,
			func(p *mcd403.Params) *sched.Time { return &p.DrainChunkOverhead }),
		tape("ReqAfterAck", "us", "F/A: the handshake of a drive rated 500 KB/s (STUBBLEBINE)", 0.1, 40, 0.05,
			func(p *mcd403.Params) *sched.Time { return &p.ReqAfterAck }),
	}
	def := DefaultModels()
	for i := range ps {
		ps[i].Value = ps[i].get(&def)
	}
	return ps
}

// StoryCheck is one statement of the story the models must keep: a seed
// row within its tolerance, or a qualitative outcome.
type StoryCheck struct {
	Name string
	// DiskOnly: the check runs only the disk (the interleave table), so
	// tape parameters cannot move it.
	DiskOnly bool
	// TapeOnly: the check runs only the tape drive (RunTape, no disk on
	// the bus), so disk parameters cannot move it.
	TapeOnly bool
	// run runs the check in dir; disks, if set, lends BACKUP's runs
	// their disk image (Options.DiskImage). tstates is what the machines
	// it built executed: the check's share of the emulation.
	run func(m Models, dir string, disks *DiskImages) (why string, tstates uint64, err error)
}

// backupOptions are the options of a check's BACKUP run of s.
func backupOptions(s Setup, m *Models, dir string, disks *DiskImages) (Options, error) {
	o := Options{Dir: dir, Disk: &m.Disk, Tape: &m.Tape}
	if disks != nil {
		var err error
		if o.DiskImage, err = disks.Path(s.DiskInterleave); err != nil {
			return o, err
		}
	}
	return o, nil
}

// ParamsPasses is the size of each seed row in the window search: 8 KB
// blocks, enough for the steady rate (SteadyMinPasses) and for a stopping
// tape to stop at every block. ShortParamsPasses is the short search's.
const (
	ParamsPasses      = 8
	ShortParamsPasses = SteadyMinPasses + 1
)

// MissPassesFactor: the burst 4K x2 host at tape 3:1 runs this many times
// the seed rows' blocks (48 in the full search). Its host time per block
// straddles the deadline B(3) with the disk's rotational phase, so it
// misses now and then, not at every block; on 16 blocks whether one miss
// falls inside the run depended on a fraction of a millisecond of phase
// (the knife edges a 16-block check once gave), on 48 it shows
// where the deadline lies (docs/PARAMETERS.md).
const MissPassesFactor = 6

// StoryChecks are the checks every parameter set must pass, with passes
// blocks in each seed row: the five seed rows (Row.Check), burst 4K x2
// missing tape 3:1 (why the owner chose 4:1), the BIOS path stopping at tape
// 6:1 too ("no matter what the interleave"), 256-byte OTIR tape bursts
// hanging and 16-byte ones streaming, and the disk interleave table within
// 10 % of the story.
func StoryChecks(passes int) []StoryCheck {
	var cs []StoryCheck
	for _, r := range Rows(passes) {
		cs = append(cs, StoryCheck{Name: r.Name, run: func(m Models, dir string, disks *DiskImages) (string, uint64, error) {
			o, err := backupOptions(r.Setup, &m, dir, disks)
			if err != nil {
				return "", 0, err
			}
			res, err := Run(r.Setup, o)
			if err != nil {
				return "", res.TStates, err
			}
			return RowResult{Row: r, Result: res}.Check(), res.TStates, nil
		}})
	}
	rows := Rows(MissPassesFactor * passes)
	miss := rows[3]
	miss.Name, miss.TapeInterleave = "burst-hd3-4Kx2-tape3", 3
	cs = append(cs, StoryCheck{Name: "burst-hd3-4Kx2-tape3 stops", run: func(m Models, dir string, disks *DiskImages) (string, uint64, error) {
		o, err := backupOptions(miss.Setup, &m, dir, disks)
		if err != nil {
			return "", 0, err
		}
		res, err := Run(miss.Setup, o)
		switch {
		case err != nil:
			return "", res.TStates, err
		case res.Failed != "":
			return "run failed: " + res.Failed, res.TStates, nil
		case res.Repositions == 0:
			return "burst 4K x2 streams at tape 3:1", res.TStates, nil
		}
		return "", res.TStates, nil
	}})
	bios := Rows(passes)[0]
	bios.Name, bios.TapeInterleave = "bios-tape6", 6
	cs = append(cs, StoryCheck{Name: "bios-tape6 stops every block", run: func(m Models, dir string, disks *DiskImages) (string, uint64, error) {
		o, err := backupOptions(bios.Setup, &m, dir, disks)
		if err != nil {
			return "", 0, err
		}
		res, err := Run(bios.Setup, o)
		switch {
		case err != nil:
			return "", res.TStates, err
		case res.Failed != "":
			return "run failed: " + res.Failed, res.TStates, nil
		case res.Repositions < passes/ReposEvery:
			return fmt.Sprintf("%d repositions in %d blocks", res.Repositions, passes), res.TStates, nil
		}
		return "", res.TStates, nil
	}})
	for _, burst := range []int{256, 16} {
		cs = append(cs, StoryCheck{Name: fmt.Sprintf("tape %d-byte bursts %s", burst, map[bool]string{true: "hang", false: "work"}[burst == 256]),
			TapeOnly: true, run: func(m Models, dir string, _ *DiskImages) (string, uint64, error) {
				res, err := RunTape(TapeSetup{Interleave: 3, Burst: burst, Blocks: 3, Timeout: 1}, TapeOptions{Dir: dir, Drive: &m.Tape})
				if err != nil {
					return "", res.TStates, err
				}
				if burst == 256 && !res.Hung {
					return "256-byte bursts complete", res.TStates, nil
				}
				if burst != 256 && (res.Hung || res.Failed != "" || res.Overwrites != 0) {
					return fmt.Sprintf("16-byte bursts fail: %s (%d bytes overwritten)", res.Failed, res.Overwrites), res.TStates, nil
				}
				return "", res.TStates, nil
			}})
	}
	cs = append(cs, StoryCheck{Name: "disk interleave table", DiskOnly: true, run: func(m Models, dir string, _ *DiskImages) (string, uint64, error) {
		return checkDiskTable(m, dir)
	}})
	return cs
}

// tableDisk is the ST-125's first two cylinders: the disk table's 8 KB
// chunks stay on cylinder 0, in a 70 KB image.
var tableDisk = acb4000.Geometry{Name: "st125-head", Cylinders: 2, Heads: 4, Sectors: 17, SectorSize: 512}

// DiskTableTolerance: every row of the interleave table within 10 % of the
// story.
const DiskTableTolerance = 0.10

// tableRow is one row of the story's interleave table: the disk formatted
// at il, 8 KB moved as transfer ("4Kx2", "8Kx1") in READs of secs blocks.
type tableRow struct {
	il       int
	transfer string
	secs     int
}

// tableRows are the rows bench interleave measures in the steady state:
// 4K x2 at 2:1..9:1, 8K x1 at 3:1.
func tableRows() []tableRow {
	var rows []tableRow
	for il := 2; il <= 9; il++ {
		rows = append(rows, tableRow{il, "4Kx2", 8})
	}
	return append(rows, tableRow{3, "8Kx1", 16})
}

// checkDiskTable runs the story's interleave table in the steady state
// (4K x2 at 2:1..9:1, 8K x1 at 3:1; bench interleave's method) and says
// which row leaves its tolerance, with the T-states of the rows it ran.
func checkDiskTable(m Models, dir string) (string, uint64, error) {
	var tstates uint64
	for _, r := range tableRows() {
		ms, failed, t, err := diskTableRow(m, dir, r)
		tstates += t
		if err != nil || failed != "" {
			return failed, tstates, err
		}
		if story := diskbench.Story[r.transfer][r.il]; math.Abs(ms/story-1) > DiskTableTolerance {
			return fmt.Sprintf("%d:1 %s %.1f ms, story %v", r.il, r.transfer, ms, story), tstates, nil
		}
	}
	return "", tstates, nil
}

// createTableDisk makes the table's disk image formatted at il:1.
func createTableDisk(path string, il int) error { return acb4000.Create(path, tableDisk, true, il) }

// Window is the range of one parameter over which every story check
// passes, the others at their values.
type Window struct {
	FitParam
	Lo, Hi float64
	// LoOpen / HiOpen: the search range's end still passes: the window
	// reaches at least that far (the parameter is not constrained there).
	LoOpen, HiOpen bool
	// LoBy and HiBy name the check that fails just outside each end, and
	// LoWhy and HiWhy say how.
	LoBy, HiBy   string
	LoWhy, HiWhy string
	// Margin is the smaller distance from the value to a closed end, as a
	// fraction of the value (+Inf when both ends are open).
	Margin float64
	// Fail is why the value itself fails (the default is outside its
	// window), "" normally.
	Fail string
}

// Constrained reports whether a story check closes the window on at least
// one side within the search range.
func (w Window) Constrained() bool { return w.Fail != "" || !w.LoOpen || !w.HiOpen }

// KnifeEdge: a window whose nearer closed end lies within this fraction of
// the value is reported as a knife edge. The search's first probe on each
// side is this far from the value, so a knife edge is always seen.
const KnifeEdge = 0.02

// Search sets how finely and on how much data the windows are found.
type Search struct {
	// Passes is the blocks of each seed row (ParamsPasses).
	Passes int
	// Resolution multiplies each parameter's Step: the search stops when
	// an end is known to within Step x Resolution.
	Resolution float64
}

// FullSearch is the search of docs/PARAMETERS.md; ShortSearch is a quick
// look at about half the CPU time, with ends known to a quarter as fine
// and the rows measured on fewer blocks (so a check that needs one event
// in a run, burst 4K x2 stopping at tape 3:1, sees fewer chances: its
// windows come out narrower).
var (
	FullSearch  = Search{Passes: ParamsPasses, Resolution: 1}
	ShortSearch = Search{Passes: ShortParamsPasses, Resolution: 4}
)

// Evaluator runs story checks for parameter sets. Each side of each
// parameter remembers which check failed last and runs it first next time,
// so a failing set usually fails on its first run; the memory is per side,
// so the result does not depend on how the sides are scheduled.
//
// A check's outcome is a function of the device parameters it runs with
// (the emulation is deterministic), so the evaluator remembers every
// outcome by check and parameters and runs each pair once: every
// parameter's value is the same default set (21 evaluations, one run), a
// value that rounds to the same picoseconds as an earlier probe is not run
// again, and a check that runs one device (TapeOnly, DiskOnly) is keyed by
// that device's parameters alone, so a disk parameter's probes reuse the
// defaults' tape-burst outcomes. Which check is reported is unchanged: the
// checks are still consulted in the same order, a remembered outcome
// standing in for a run.
type Evaluator struct {
	Dir        string
	Checks     []StoryCheck
	Resolution float64
	mu         sync.Mutex
	first      map[string]int // parameter and side -> index of the check that failed last
	memo       map[outcomeKey]*outcome
	disks      *DiskImages // BACKUP's formatted disks, made once (Options.DiskImage)
	work       []CheckWork // per check in Checks, under mu
	runs       atomic.Int64
	consulted  atomic.Int64
	emulated   atomic.Int64
}

// CheckWork is how much emulation one story check cost a search: its runs
// and the T-states their machines executed. Both follow from the checks'
// outcomes alone (each pair of check and parameters runs once), so they
// are the same on every host and with any number of workers, unlike CPU
// time: they show where the search's time goes.
type CheckWork struct {
	Name    string
	Runs    int64
	TStates uint64
}

// outcomeKey names one check's run: its index in Checks and the parameters
// of the devices it runs (the other device's left zero).
type outcomeKey struct {
	check int
	disk  acb4000.Params
	tape  mcd403.Params
}

// outcome is a check's result, ready once done is closed (a second worker
// asking for the same run waits for the first).
type outcome struct {
	done chan struct{}
	why  string
	err  error
}

// NewEvaluator makes an evaluator whose runs put their images in dir,
// with the story checks and resolution of s.
func NewEvaluator(dir string, s Search) *Evaluator {
	return &Evaluator{Dir: dir, Checks: StoryChecks(s.Passes), Resolution: s.Resolution,
		first: map[string]int{}, memo: map[outcomeKey]*outcome{}, disks: NewDiskImages(dir)}
}

// Runs is the number of parameter sets evaluated so far.
func (e *Evaluator) Runs() int64 { return e.runs.Load() }

// Consulted is the number of check outcomes the search has asked for;
// Emulated is how many of them were run (the rest were remembered).
func (e *Evaluator) Consulted() int64 { return e.consulted.Load() }

// Emulated: see Consulted.
func (e *Evaluator) Emulated() int64 { return e.emulated.Load() }

// run is check j's outcome with m: remembered, or run in a directory of
// its own under e.Dir.
func (e *Evaluator) run(j int, m Models) (string, error) {
	c := e.Checks[j]
	e.consulted.Add(1)
	k := outcomeKey{check: j, disk: m.Disk, tape: m.Tape}
	switch {
	case c.DiskOnly:
		k.tape = mcd403.Params{}
	case c.TapeOnly:
		k.disk = acb4000.Params{}
	}
	e.mu.Lock()
	o, ok := e.memo[k]
	if ok {
		e.mu.Unlock()
		<-o.done
		return o.why, o.err
	}
	o = &outcome{done: make(chan struct{})}
	e.memo[k] = o
	e.mu.Unlock()
	defer close(o.done)
	e.emulated.Add(1)
	dir, err := os.MkdirTemp(e.Dir, "params-")
	if err != nil {
		o.err = err
		return "", err
	}
	defer os.RemoveAll(dir)
	var tstates uint64
	o.why, tstates, o.err = c.run(m, dir, e.disks)
	e.mu.Lock()
	if e.work == nil {
		e.work = make([]CheckWork, len(e.Checks))
	}
	e.work[j].Runs++
	e.work[j].TStates += tstates
	e.mu.Unlock()
	return o.why, o.err
}

// Work is the emulation each check has cost so far, in the order of
// Checks.
func (e *Evaluator) Work() []CheckWork {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]CheckWork, len(e.Checks))
	for i, c := range e.Checks {
		out[i].Name = c.Name
		if i < len(e.work) {
			out[i].Runs, out[i].TStates = e.work[i].Runs, e.work[i].TStates
		}
	}
	return out
}

// Check runs the checks that p can move on m and returns the name of the
// first one that fails and why, or "" when all pass. key names the
// search that asks (its failing check is tried first next time).
func (e *Evaluator) Check(p FitParam, m Models, key string) (name, why string, err error) {
	e.mu.Lock()
	start := e.first[key]
	e.mu.Unlock()
	n := len(e.Checks)
	counted := false
	for i := range n {
		j := (start + i) % n
		c := e.Checks[j]
		if c.DiskOnly && !p.Disk {
			continue
		}
		if !counted {
			e.runs.Add(1)
			counted = true
		}
		why, err := e.run(j, m)
		if err != nil {
			return c.Name, "", fmt.Errorf("%s = %g %s, %s: %w", p.Name, p.get(&m), p.Unit, c.Name, err)
		}
		if why != "" {
			e.mu.Lock()
			e.first[key] = j
			e.mu.Unlock()
			return c.Name, why, nil
		}
	}
	return "", "", nil
}

// At evaluates p at value v, every other parameter at its default.
func (e *Evaluator) At(p FitParam, v float64, key string) (name, why string, err error) {
	m := DefaultModels()
	p.set(&m, v)
	if err := m.Tape.Validate(); err != nil {
		return "valid parameters", err.Error(), nil
	}
	return e.Check(p, m, key)
}

// edge is one side of a window.
type edge struct {
	at      float64
	open    bool
	by, why string
}

// side searches from p's value towards end (the search range's end on
// that side) for the last value at which every check passes: probes at
// KnifeEdge of the value, then twice as far each time, until one fails or
// the range's end passes; then bisection between the last pass and the
// first failure. A window with a hole beyond the first failing probe is
// not seen; the end reported is the nearer one.
func (e *Evaluator) side(p FitParam, dir int) (edge, error) {
	key := p.Name + map[int]string{-1: " low", 1: " high"}[dir]
	// Positions: the value itself for a continuous parameter, the index
	// for a grid one.
	val := func(x float64) float64 { return x }
	pos, lo, hi := p.Value, p.Min, p.Max
	step, first := p.Step*e.Resolution, math.Max(p.Step*e.Resolution, KnifeEdge*math.Abs(p.Value))
	whole := p.integer
	if len(p.Grid) > 0 {
		val = func(x float64) float64 { return p.Grid[int(x)] }
		pos, lo, hi, step, first, whole = -1, 0, float64(len(p.Grid)-1), 1, 1, true
		for i, g := range p.Grid {
			if g == p.Value {
				pos = float64(i)
			}
		}
		if pos < 0 {
			return edge{}, fmt.Errorf("%s: value %g is not on its grid", p.Name, p.Value)
		}
	}
	if whole {
		step, first = math.Max(1, math.Round(step)), math.Max(1, math.Round(first))
	}
	end := hi
	if dir < 0 {
		end = lo
	}
	good := pos
	if good == end {
		return edge{at: val(end), open: true}, nil
	}
	var bad float64
	var by, why string
	for d := first; ; d *= 2 {
		x := pos + float64(dir)*d
		if (x-end)*float64(dir) >= 0 {
			x = end
		}
		name, w, err := e.At(p, val(x), key)
		if err != nil {
			return edge{}, err
		}
		if w != "" {
			bad, by, why = x, name, w
			break
		}
		good = x
		if x == end {
			return edge{at: val(end), open: true}, nil
		}
	}
	for math.Abs(bad-good) > step {
		mid := (good + bad) / 2
		if whole {
			mid = math.Round(mid)
			if mid == good || mid == bad {
				break
			}
		}
		name, w, err := e.At(p, val(mid), key)
		if err != nil {
			return edge{}, err
		}
		if w == "" {
			good = mid
		} else {
			bad, by, why = mid, name, w
		}
	}
	return edge{at: val(good), by: by, why: why}, nil
}

// FindWindow finds p's window, one side after the other.
func (e *Evaluator) FindWindow(p FitParam) (Window, error) {
	ws, err := e.FindWindows([]FitParam{p}, 1, nil)
	if err != nil {
		return Window{}, err
	}
	return ws[0], nil
}

// FindWindows finds the window of every parameter in ps, running workers
// searches at a time (a parameter's value and its two sides are separate
// searches); done, if set, is called as each parameter's window is
// complete.
func (e *Evaluator) FindWindows(ps []FitParam, workers int, done func(Window)) ([]Window, error) {
	type task struct{ param, part int } // part: 0 the value, -1 low, +1 high
	out := make([]Window, len(ps))
	left := make([]int, len(ps))
	var errs []error
	for i, p := range ps {
		out[i] = Window{FitParam: p, Lo: p.Value, Hi: p.Value}
		left[i] = 3
	}
	next := make(chan task)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				p := ps[t.param]
				var ed edge
				var name, why string
				var err error
				if t.part == 0 {
					name, why, err = e.At(p, p.Value, p.Name)
				} else {
					ed, err = e.side(p, t.part)
				}
				mu.Lock()
				w := &out[t.param]
				switch {
				case err != nil:
					errs = append(errs, err)
				case t.part == 0 && why != "":
					w.Fail = name + ": " + why
				case t.part < 0:
					w.Lo, w.LoOpen, w.LoBy, w.LoWhy = ed.at, ed.open, ed.by, ed.why
				case t.part > 0:
					w.Hi, w.HiOpen, w.HiBy, w.HiWhy = ed.at, ed.open, ed.by, ed.why
				}
				if left[t.param]--; left[t.param] == 0 {
					w.Margin = margin(*w)
					if done != nil {
						done(*w)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range ps {
		for _, part := range []int{0, -1, 1} {
			next <- task{i, part}
		}
	}
	close(next)
	wg.Wait()
	return out, errors.Join(errs...)
}

// margin is the distance from the value to the nearer closed end over the
// value.
func margin(w Window) float64 {
	m := math.Inf(1)
	if w.Fail != "" || w.Value == 0 && (!w.LoOpen || !w.HiOpen) {
		return 0
	}
	if !w.LoOpen {
		m = math.Min(m, (w.Value-w.Lo)/math.Abs(w.Value))
	}
	if !w.HiOpen {
		m = math.Min(m, (w.Hi-w.Value)/math.Abs(w.Value))
	}
	return m
}
