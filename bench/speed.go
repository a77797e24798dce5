package bench

import (
	"fmt"
	"runtime"
	"time"

	"github.com/koron-go/z80"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/cpuload"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/z80host"
)

// SpeedLine is one measurement of `lbplus bench speed`: how many million
// emulated T-states (a real 4 MHz Z80 runs 4) the subject ran per second of
// host CPU time, and the same for koron-go/z80's bare Step loop measured
// interleaved with it in the same run (Ratio = MTPerCPUSec / KoronMT).
type SpeedLine struct {
	Name string `json:"name"`
	What string `json:"what"`
	// TStates is what the subject ran; CPUSeconds the host CPU it took.
	TStates     uint64  `json:"t_states"`
	CPUSeconds  float64 `json:"cpu_s"`
	MTPerCPUSec float64 `json:"mt_per_cpu_s"`
	// KoronMT is the bare koron loop's rate in the same run: on the same
	// workload for the CPU-bound lines, on W1 for the busy ones.
	KoronMT float64 `json:"koron_mt_per_cpu_s"`
	Ratio   float64 `json:"ratio"`
}

// Workload gives the boot ROM of CPU-bound workload w (1 simple, 2 mixed).
type Workload func(w int) ([]byte, error)

// SpeedOptions say what `bench speed` measures.
type SpeedOptions struct {
	// Dir is where the backup rows' images go (see Options.Dir).
	Dir string
	// Workload is the CPU-bound program (nil: roms/cpuload), WorkloadName
	// its name in the lines ("cpuload" when empty).
	Workload     Workload
	WorkloadName string
	// Idle is the simulated time each CPU-bound line runs (0: 20 s),
	// in slices of 50 ms alternating with z80host alone and koron.
	Idle sched.Time
	// Rows are the backup rows for the busy lines (none: no busy lines
	// but the floppy one).
	Rows []Row
	// NoFloppy leaves the busy floppy read out.
	NoFloppy bool
	// Progress, if set, is told the name of each line as it starts.
	Progress func(name string)
}

const speedSlice = 50 * sched.Millisecond

// Speed runs every measurement of SpeedOptions and returns its lines:
// first the CPU-bound workload (W1, W2; from RAM with the ROM switched out,
// from the ROM overlay) on the idle board and on z80host alone, then the
// busy machine on each backup row and on a floppy read.
//
// CPU time: the CPU-bound lines are timed by this thread's CPU clock
// (they allocate nothing, so no other thread works for them); the busy
// lines by the process's, which includes the garbage collector's work
// for them. koron's share is timed the same way as the line it is
// compared with, in the same slices.
func Speed(o SpeedOptions) ([]SpeedLine, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	load := o.Workload
	name := o.WorkloadName
	if load == nil {
		load, name = cpuload.ROM, "cpuload"
	}
	if name == "" {
		name = "workload"
	}
	idle := o.Idle
	if idle <= 0 {
		idle = 20 * sched.Second
	}
	var lines []SpeedLine
	for w := 1; w <= 2; w++ {
		rom, err := load(w)
		if err != nil {
			return nil, err
		}
		for _, inRAM := range []bool{true, false} {
			where := "rom"
			if inRAM {
				where = "ram"
			}
			if o.Progress != nil {
				o.Progress(fmt.Sprintf("%s W%d %s", name, w, where))
			}
			board, host, err := speedIdle(rom, inRAM, idle)
			if err != nil {
				return nil, err
			}
			board.Name = fmt.Sprintf("idle-w%d-%s", w, where)
			board.What = fmt.Sprintf("idle board, %s W%d from %s", name, w, where)
			host.Name = fmt.Sprintf("z80host-w%d-%s", w, where)
			host.What = fmt.Sprintf("z80host alone, %s W%d, %s memory map", name, w, where)
			lines = append(lines, board, host)
		}
	}
	rom, err := load(1)
	if err != nil {
		return nil, err
	}
	ref := newKoronLoop(rom)
	for _, r := range o.Rows {
		if o.Progress != nil {
			o.Progress(r.Name)
		}
		l, err := speedBackup(r, o.Dir, ref)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	if !o.NoFloppy {
		if o.Progress != nil {
			o.Progress("floppy read")
		}
		l, err := speedFloppy(ref)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// FlatBus is 64 KB of RAM and no devices, the memory map of z80host
// alone (a z80host.Bus; Get and Set also make it koron's Memory). With
// Flat set it says its pages are one array (z80host.FlatMemory), as the
// board does with its ROM switched out.
type FlatBus struct {
	M     [65536]byte
	Flat  bool
	pages [256]*[256]byte
}

// FlatMemory is z80host.FlatMemory.
func (f *FlatBus) FlatMemory() *[65536]byte {
	if !f.Flat {
		return nil
	}
	return &f.M
}

// MemoryPages gives z80host direct access, as the board does.
func (f *FlatBus) MemoryPages() (r, w *[256]*[256]byte) {
	for p := range f.pages {
		f.pages[p] = (*[256]byte)(f.M[p*256 : p*256+256])
	}
	return &f.pages, &f.pages
}

func (f *FlatBus) Fetch(a uint16, _ uint64) uint8    { return f.M[a] }
func (f *FlatBus) Read(a uint16, _ uint64) uint8     { return f.M[a] }
func (f *FlatBus) Write(a uint16, v uint8, _ uint64) { f.M[a] = v }
func (f *FlatBus) In(uint16, uint64) (uint8, int)    { return 0xFF, 0 }
func (f *FlatBus) Out(uint16, uint8, uint64) int     { return 0 }
func (f *FlatBus) Get(a uint16) uint8                { return f.M[a] }
func (f *FlatBus) Set(a uint16, v uint8)             { f.M[a] = v }

// koronMem is koron's Memory on a plain array, the fastest it runs.
type koronMem struct{ m [65536]byte }

func (k *koronMem) Get(a uint16) uint8    { return k.m[a] }
func (k *koronMem) Set(a uint16, v uint8) { k.m[a] = v }

type koronIO struct{}

func (koronIO) In(uint8) uint8   { return 0xFF }
func (koronIO) Out(uint8, uint8) {}

// koronLoop is the reference: koron-go/z80's bare Step loop on a workload,
// with no timing and no devices. koron counts no T-states, so its steps
// are converted with the workload's mean T-states an instruction, which
// z80host measures on the same code.
type koronLoop struct {
	cpu    *z80.CPU
	tPerOp float64
	steps  uint64
}

func newKoronLoop(rom []byte) *koronLoop {
	bus := &FlatBus{}
	copy(bus.M[:], rom)
	host := z80host.New(bus)
	const n = 1_000_000
	t := 0
	for range n {
		t += host.Step()
	}
	mem := &koronMem{}
	copy(mem.m[:], rom)
	return &koronLoop{cpu: &z80.CPU{Memory: mem, IO: koronIO{}}, tPerOp: float64(t) / n}
}

// run steps koron for about t T-states.
func (k *koronLoop) run(t uint64) {
	n := uint64(float64(t) / k.tPerOp)
	for range n {
		k.cpu.Step()
	}
	k.steps += n
}

func (k *koronLoop) tstates() float64 { return float64(k.steps) * k.tPerOp }

func rate(t float64, cpu time.Duration) float64 {
	if cpu <= 0 {
		return 0
	}
	return t / cpu.Seconds() / 1e6
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// speedIdle runs the workload on the idle board, on z80host alone and on
// koron in alternating slices of this thread's CPU time.
func speedIdle(rom []byte, inRAM bool, total sched.Time) (board, host SpeedLine, err error) {
	cfg := emu.DefaultConfig(rom)
	cfg.ROMName = "workload"
	b, err := emu.New(cfg)
	if err != nil {
		return board, host, err
	}
	defer b.Close()
	if inRAM {
		b.LoadRAM(0, rom)
		b.Out(0x00, emu.LatchRAM, b.CPU().T())
	}
	bare := &FlatBus{Flat: inRAM}
	copy(bare.M[:], rom)
	h := z80host.New(bare)
	k := newKoronLoop(rom)
	slice := uint64(speedSlice / sched.TState)
	b0, h0 := b.CPU().T(), h.T()
	var cb, ch, ck time.Duration
	for b.CPU().T()-b0 < uint64(total/sched.TState) {
		c0 := hostcpu.Thread()
		if err := b.RunFor(speedSlice); err != nil {
			return board, host, err
		}
		c1 := hostcpu.Thread()
		h.Run(h.T() + slice)
		c2 := hostcpu.Thread()
		k.run(slice)
		c3 := hostcpu.Thread()
		cb, ch, ck = cb+c1-c0, ch+c2-c1, ck+c3-c2
	}
	kr := rate(k.tstates(), ck)
	board = line(b.CPU().T()-b0, cb, kr)
	host = line(h.T()-h0, ch, kr)
	return board, host, nil
}

func line(t uint64, cpu time.Duration, koron float64) SpeedLine {
	l := SpeedLine{TStates: t, CPUSeconds: cpu.Seconds(), MTPerCPUSec: rate(float64(t), cpu), KoronMT: koron}
	if koron > 0 {
		l.Ratio = l.MTPerCPUSec / koron
	}
	return l
}

// busyMeter alternates a busy machine's stretches with koron's, by the
// process's CPU time; it may follow several machines in turn.
type busyMeter struct {
	k        *koronLoop
	k0       uint64
	board    *emu.Board
	mark     float64
	lastT, t uint64
	cpu      float64
	kcpu     float64
}

func newBusyMeter(k *koronLoop) *busyMeter { return &busyMeter{k: k, k0: k.steps} }

// start follows machine b from now on.
func (m *busyMeter) start(b *emu.Board) {
	m.board, m.lastT = b, b.CPU().T()
	m.mark = hostcpu.Process()
}

// lap ends a stretch of the machine and runs koron for as many T-states.
func (m *busyMeter) lap() {
	c := hostcpu.Process()
	m.cpu += c - m.mark
	t := m.board.CPU().T()
	m.k.run(t - m.lastT)
	m.t += t - m.lastT
	m.lastT = t
	m.mark = hostcpu.Process()
	m.kcpu += m.mark - c
}

func (m *busyMeter) line() SpeedLine {
	kt := float64(m.k.steps-m.k0) * m.k.tPerOp
	return line(m.t, secs(m.cpu), rate(kt, secs(m.kcpu)))
}

// speedBackup runs one backup row (bench.Run), timing the machine from the
// start of the program to its end, a simulated second at a time.
func speedBackup(r Row, dir string, k *koronLoop) (SpeedLine, error) {
	m := newBusyMeter(k)
	o := Options{Dir: dir, OnStart: m.start, Progress: func(int64, int64) { m.lap() }}
	res, err := Run(r.Setup, o)
	if err != nil {
		return SpeedLine{}, err
	}
	if res.Failed != "" {
		return SpeedLine{}, fmt.Errorf("%s: %s", r.Name, res.Failed)
	}
	l := m.line()
	l.Name, l.What = r.Name, "busy machine, backup row: "+r.Settings()
	return l, nil
}

// speedFloppyRuns is how many fresh boards speedFloppy reads four tracks
// on: a few seconds of simulated time, some 50 ms of CPU time.
const speedFloppyRuns = 4

// speedFloppy reads track 0 of an amp2 disk four times on a fresh board,
// sector by sector with the polled loop and a deblocking copy (FDBENCH, as
// BenchmarkFloppyRead), speedFloppyRuns times.
func speedFloppy(k *koronLoop) (SpeedLine, error) {
	f, s := floppyReadScript(4)
	m := newBusyMeter(k)
	for range speedFloppyRuns {
		if err := speedFloppyRun(m, f, s); err != nil {
			return SpeedLine{}, err
		}
	}
	l := m.line()
	l.Name, l.What = "floppy-read", fmt.Sprintf("busy machine, floppy: a track of 10 x 512 read 4 times, polled, on %d boards", speedFloppyRuns)
	return l, nil
}

// floppyReadScript is FDBENCH's busy floppy read: drive 0 selected, a
// restore, then track 0 of an amp2 disk read sector by sector with the
// polled loop and copied out of the sector buffer, times times.
func floppyReadScript(times int) (fdimage.Format, fdbench.Script) {
	f, _ := fdimage.ParseFormat("amp2")
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	for range times {
		for r := 0; r < f.Sectors; r++ {
			s.ReadSector(byte(f.FirstID+r), 0x20, FloppyRetries)
			s.Copy(0x20, byte(0x30+2*r))
		}
	}
	return f, s
}

func speedFloppyRun(m *busyMeter, f fdimage.Format, s fdbench.Script) error {
	run, err := LoadFloppy(FloppyConfig(), fdbench.BaseLoop, s, nil)
	if err != nil {
		return err
	}
	defer run.Close()
	b := run.Board
	if err := b.InsertFloppyDisk(0, "speed", f.NewDisk(0xE5), false); err != nil {
		return err
	}
	m.start(b)
	end := b.Now() + 10*sched.Second
	for !run.Finished() && b.Now() < end {
		if _, err := b.RunUntil(run.Finished, 100*sched.Millisecond); err != nil {
			return err
		}
		m.lap()
	}
	if !run.Done() {
		return fmt.Errorf("floppy read: not done within 10 s of simulated time")
	}
	return nil
}
