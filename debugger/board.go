package debugger

import (
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/z80host"
)

// Board adapts an emu.Board to Machine.
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

// SetHook installs the CPU hook.
func (a Board) SetHook(h z80host.Hook) {
	if h == nil {
		a.B.CPU().Hook = nil
		return
	}
	a.B.CPU().Hook = h
}

// Peek reads memory through the board's read pages (the ROM overlay as the
// CPU sees it); no memory cycle is made.
func (a Board) Peek(addr uint16) uint8 {
	r, _ := a.B.MemoryPages()
	if p := r[addr>>8]; p != nil {
		return p[addr&0xFF]
	}
	return a.B.RAM(addr)
}

// ForBoard returns a debugger on b, recording into rec, attached to every
// signal of the board (Attach) and told which SCSI targets are tapes.
func ForBoard(b *emu.Board, rec *Recorder) *Debugger {
	d := New(Board{b}, rec)
	Attach(d, b, b.NCR5380(), b.SCSIBus())
	for id := 0; id < 8; id++ {
		if _, ok := b.SCSIDevice(id).(*mcd403.Drive); ok {
			d.Kinds[id] = Tape
		}
	}
	return d
}

// Attach connects the recorder and the debugger to a board's signals: the
// SCSI bus, the 5380's DRQ, IRQ and lost-data events, the CTC's and DART's
// interrupt requests and every I/O access. Existing callbacks (jumpers,
// traces) keep working: the debugger's are chained after them. chip and
// bus may be nil on a board without SCSI.
func Attach(d *Debugger, b *emu.Board, chip *ncr5380.Chip, bus *scsi.Bus) {
	rec := d.Rec
	s := b.Sched()
	if bus != nil {
		bus.Observe(rec.SCSI)
	}
	if chip != nil {
		onIRQ, onDRQ, tr := chip.OnIRQ, chip.OnDRQ, chip.Trace
		chip.OnIRQ = func(v bool) {
			if onIRQ != nil {
				onIRQ(v)
			}
			rec.Set(s.Now(), IRQ, v)
		}
		chip.OnDRQ = func(v bool) {
			if onDRQ != nil {
				onDRQ(v)
			}
			rec.Set(s.Now(), DRQ, v)
		}
		chip.Trace = func(now sched.Time, ev string) {
			if tr != nil {
				tr(now, ev)
			}
			d.Chip5380Event(now, ev)
		}
	}
	ctc, dart := b.CTC(), b.DART()
	ctcINT, dartINT := ctc.OnINT, dart.OnINT
	ctc.OnINT = func() {
		if ctcINT != nil {
			ctcINT()
		}
		req, _ := ctc.IntState()
		rec.Set(s.Now(), CTCINT, req)
	}
	dart.OnINT = func() {
		if dartINT != nil {
			dartINT()
		}
		req, _ := dart.IntState()
		rec.Set(s.Now(), DARTINT, req)
	}
	if fdc := b.FDC(); fdc != nil {
		fdc.Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
			switch sig {
			case floppy.DRQ:
				rec.Set(now, FDRQ, v != 0)
			case floppy.INTRQ:
				rec.Set(now, INTRQ, v != 0)
			case floppy.Busy:
				if v != 0 {
					d.floppyCommand(now)
				}
			}
		})
	}
	for n := 0; n < 4; n++ {
		if drv := b.FloppyDrive(n); drv != nil {
			drv.Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
				switch sig {
				case floppy.Index:
					rec.Set(now, INDEX, v != 0)
					if v != 0 {
						d.indexPulse(now, n)
					}
				case floppy.Step:
					// A step is a pulse: recorded as an edge up and down.
					rec.Set(now, STEP, true)
					rec.Set(now, STEP, false)
				}
			})
		}
	}
	onIO := b.OnIO
	b.OnIO = func(t uint64, port uint16, v uint8, out bool) {
		if onIO != nil {
			onIO(t, port, v, out)
		}
		d.IO(t, port, v, out)
	}
}
