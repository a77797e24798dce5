package debugger

import (
	"io"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
	"github.com/lbplus/lbplus/z80host"
)

// Board adapts an emu.Board to Machine (and to MemoryWatcher and
// StateSaver).
type Board struct{ B *emu.Board }

// Now is the board's simulated time.
func (a Board) Now() sched.Time { return a.B.Now() }

// Step runs one instruction.
func (a Board) Step() (int, error) { return a.B.Step() }

// RunFor runs for d.
func (a Board) RunFor(d sched.Time) error { return a.B.RunFor(d) }

// Stop ends RunFor after the instruction in progress.
func (a Board) Stop() { a.B.Stop() }

// Regs returns the CPU's registers.
func (a Board) Regs() z80host.Regs { return a.B.CPU().Regs() }

// AddHook adds h to the board's instruction observers until remove is
// called; when h asks to stop, the board stops before the instruction.
func (a Board) AddHook(h z80host.Hook) (remove func()) {
	return a.B.ObserveInstructions(func(pc uint16, t uint64) {
		if h.BeforeInstruction(pc, t) {
			a.B.Stop()
		}
	})
}

// WatchMemory adds a memory observer (every fetch, read and write) until
// remove is called; while one is attached the CPU takes its slow path.
func (a Board) WatchMemory(fn func(t uint64, addr uint16, v uint8, write bool)) (remove func()) {
	return a.B.ObserveMemory(func(t uint64, addr uint16, v uint8, kind emu.MemAccess) {
		if kind != emu.MemFetch {
			fn(t, addr, v, kind == emu.MemWrite)
		}
	})
}

// WatchCycles adds a memory observer of every cycle, opcode fetches
// included, until remove is called.
func (a Board) WatchCycles(fn func(t uint64, addr uint16, v uint8, kind emu.MemAccess)) (remove func()) {
	return a.B.ObserveMemory(fn)
}

// WatchEvents adds a scheduler observer (told before each event runs)
// until remove is called.
func (a Board) WatchEvents(fn func(now sched.Time)) (remove func()) {
	return a.B.Sched().Observe(func(now sched.Time, _ *sched.Event) { fn(now) })
}

// Poke writes p to RAM at addr (beneath the ROM overlay, as a Z80 write
// would).
func (a Board) Poke(addr uint16, p []byte) { a.B.LoadRAM(addr, p) }

// SetRegs sets the CPU's registers.
func (a Board) SetRegs(r z80host.Regs) { a.B.CPU().SetRegs(r) }

// SaveState writes the machine's state (docs/STATE.md).
func (a Board) SaveState(w io.Writer) error { return a.B.SaveState(w) }

// LoadState puts the machine in a saved state.
func (a Board) LoadState(r io.Reader, name string) error { return a.B.LoadState(r, name) }

// Peek reads memory as the CPU sees it (the ROM overlay included); no
// memory cycle is made and no observer is told.
func (a Board) Peek(addr uint16) uint8 { return a.B.Peek(addr) }

// ForBoard returns a debugger on b, recording into rec, attached to every
// signal of the board (Attach) and told which SCSI targets are tapes.
func ForBoard(b *emu.Board, rec *Recorder) *Debugger {
	d := New(Board{b}, rec)
	Attach(d, b, b.NCR5380(), b.SCSIBus())
	for id := 0; id < 8; id++ {
		if k, ok := b.SCSIKind(id); ok && k == scsidev.Tape {
			d.Kinds[id] = Tape
		}
	}
	return d
}

// Attach connects the recorder and the debugger to a board's signals: the
// SCSI bus, the 5380's DRQ, IRQ and lost-data events, the CTC's and DART's
// interrupt requests, the floppy's signals and every I/O access. It adds
// observers only, beside the board's own wiring (jumpers, traces), so the
// order of attaching does not matter and Detach removes them all. chip
// and bus may be nil on a board without SCSI.
func Attach(d *Debugger, b *emu.Board, chip *ncr5380.Chip, bus *scsi.Bus) {
	rec := d.Rec
	add := func(remove func()) { d.detach = append(d.detach, remove) }
	if bus != nil {
		add(bus.Observe(rec.SCSI))
	}
	if chip != nil {
		add(chip.ObserveOutputs(func(now sched.Time, o ncr5380.Output, v bool) {
			if o == ncr5380.IRQ {
				rec.Set(now, IRQ, v)
			} else {
				rec.Set(now, DRQ, v)
			}
		}))
		d.lost = func() uint64 { return chip.Stats.StaleReads + chip.Stats.Overwrites }
	}
	s := b.Sched()
	ctc, dart := b.CTC(), b.DART()
	add(ctc.ObserveINT(func() {
		req, _ := ctc.IntState()
		rec.Set(s.Now(), CTCINT, req)
	}))
	add(dart.ObserveINT(func() {
		req, _ := dart.IntState()
		rec.Set(s.Now(), DARTINT, req)
	}))
	add(b.ObserveFloppy(func(now sched.Time, drive int, sig emu.FloppySignal, v int) {
		switch {
		case drive < 0 && sig == emu.FloppyDRQ:
			rec.Set(now, FDRQ, v != 0)
		case drive < 0 && sig == emu.FloppyINTRQ:
			rec.Set(now, INTRQ, v != 0)
		case drive < 0 && sig == emu.FloppyCommand: // written by the CPU (the chip takes it 24 us later)
			d.floppyCommand(now)
		case drive >= 0 && sig == emu.FloppyIndex:
			rec.Set(now, INDEX, v != 0)
			if v != 0 {
				d.indexPulse(now, drive)
			}
		case drive >= 0 && sig == emu.FloppyStep:
			// A step is a pulse: recorded as an edge up and down.
			rec.Set(now, STEP, true)
			rec.Set(now, STEP, false)
		}
	}))
	add(b.ObserveIO(d.IO))
	if chip != nil {
		d.Chip = peekChip{chip}
	}
	d.Panels = DevicePanels(b)
}

// peekChip reads the 5380's registers with Peek: free of side effects,
// and allowed inside an observer.
type peekChip struct{ c *ncr5380.Chip }

func (p peekChip) Read(reg int) uint8 { return p.c.Peek(reg) }

// NewText is the text front-end of d on board b, writing to out: the
// 5380's registers, the tape's repositions, the device panels and the
// console's input come from the board. The caller adds ConsoleOut (what
// the machine printed reaches each front end its own way) and Echo.
func NewText(d *Debugger, b *emu.Board, out io.Writer) *Text {
	return &Text{D: d, Out: out, Chip: b.NCR5380(), ConsoleIn: b.ConsoleInput,
		Repositions: TapeRepositions(b), Panels: DevicePanels(b)}
}
