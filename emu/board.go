// Package emu is the Ampro Little Board/PLUS as a whole machine: one
// Config (a Go struct, or a TOML machine file) describes the ROM, the
// jumpers, the options and the devices on the SCSI bus, and New is the one
// constructor that builds it. The board part is the memory map and ROM
// overlay, the I/O decode, the daisy chain, the optional jumper wires and
// the loop that runs the timed Z80 against the scheduler.
//
// The board is thin: chips live in their own packages (z80host, devices/ctc,
// devices/dart, ncr5380, the SCSI targets under devices/) and keep time with
// the board's one sched.Scheduler. The CPU runs ahead of the scheduler up to the next pending event;
// before every I/O access (and interrupt acknowledge) the board advances the
// scheduler to the access time, so device state is always brought up to the
// instant the CPU sees it. An event scheduled earlier than the CPU's run
// limit (OnEarlier) pulls the limit in. The SCSI handshake steps are quiet
// events (sched.Event.SetQuiet): when nothing observes the machine they do
// not cut the CPU's run, and run, in order and at their own times, at the
// next I/O access (quietMayRunLate).
//
// Memory [F MAME-ampro, docs/HARDWARE.md 1.2]: 64 KB of RAM. After reset the ROM
// image (4, 8, 16 or 32 KB) overlays 0000-7FFF for reads, repeated every
// image size, while port 00 bit 6 is 0; writes always reach the RAM beneath,
// as MAME does.
// Writing port 00 with bit 6 = 1 maps RAM over the whole space.
//
// I/O map (A0-A7 decoded; MAME-ampro's address ranges) [F MAME-ampro, FUZIX
// lb.h, docs/HARDWARE.md 1.3]:
//
//	00        write: control latch (drive select 0-3, side, /DDEN, ROM, FDC clock)
//	01 02 03  write: printer data, STROBE on, STROBE off
//	20-27     NCR 5380 registers 0-7
//	28        5380 pseudo-DMA (DACK): read IDR / write ODR
//	29        read: ID port (J9 jumpers, bits 0-2 initiator SCSI ID)
//	40-7F     CTC, channel = (port >> 4) & 3
//	80-8F     DART, (port >> 2) & 3 = A data, A control, B data, B control
//	C0-C3     write: WD1772 command, track, sector, data
//	C4-C7     read:  WD1772 status, track, sector, data
//	others    reads float high (FFh), writes are ignored
//
// Daisy chain [F MAME-ampro]: CTC (highest priority), then DART.
//
// Known inaccuracies / assumptions:
//   - [A] A device sees an I/O access at T2 of the I/O cycle (IORQ active),
//     i.e. IOAccessOffset T-states after the cycle starts.
//   - [A] With Config.WaitOnDRQ (hypothesis B of docs/HARDWARE.md 1.5), WAIT is
//     sampled at the automatic wait state of a port 28 access and held until
//     the 5380's DRQ is true; without it (hypothesis A, the default) port 28
//     is never stretched. Memory refresh during a long WAIT is not modelled.
//   - [A] The ROM overlay is mirrored through 0000-7FFF, as EmulatorKit
//     does and FUZIX's memory map expects (MAME maps 4 KB only): a 4 KB ROM
//     reads the same at 1000h, 2000h, ... 7000h. Writes reach RAM, as in
//     MAME (EmulatorKit drops them).
//   - The printer (printer.go) is there only with Config.PrinterOut;
//     without it its BUSY line (DART RIB) stays inactive.
//   - The WD1772 is always fitted, as on every board; Config.Floppies says
//     which drives are cabled. A drive select with no drive behind it, or
//     an empty drive, gives no index pulses and no READY, so a boot ROM's
//     floppy attempt times out before SCSI (floppy.go, docs/FLOPPY.md).
//   - The scheduler clock and the CPU's T-state counter start together at 0.
package emu

import (
	"errors"

	"github.com/lbplus/lbplus/devices/ctc"
	"github.com/lbplus/lbplus/devices/dart"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
	"github.com/lbplus/lbplus/z80host"
)

// Timing of the board as the devices see it.
const (
	// IOAccessOffset is when, after the start of an I/O cycle, a device
	// sees the access: T2, when IORQ and RD/WR go active [F Z80UM p.22].
	IOAccessOffset = 1
	// WaitSample is when WAIT is sampled in an I/O cycle: the automatic wait
	// state TW, two T-states after the cycle starts [F Z80UM p.22].
	WaitSample = 2
	// DefaultMaxWait bounds a WAIT held by a device that never releases it
	// (hypothesis B with a target that stopped); the board then stops with
	// ErrHung. [A] 10 s of simulated time is far beyond any real stall.
	DefaultMaxWait = 10 * sched.Second
	// romWindow is the part of the address space the ROM overlays while it
	// is on: the lower 32 KB [F EmulatorKit, FUZIX lb.h; docs/HARDWARE.md 1.2].
	romWindow = 0x8000
)

// Valid ROM image sizes [F the board's 2732..27256 EPROM socket, docs/HARDWARE.md 1.2].
var romSizes = []int{4096, 8192, 16384, 32768}

// ErrHung is returned by the run methods when the CPU is held in WAIT
// longer than Config.MaxWait: the real machine would hang there.
var ErrHung = errors.New("board hung: WAIT held by a device that never released it")

// Board is one Little Board/PLUS.
type Board struct {
	cfg  Config
	s    *sched.Scheduler
	cpu  *z80host.CPU
	ctc  *ctc.CTC
	dart *dart.DART
	scsi SCSIChip // the 5380 as the I/O decode sees it (tests may swap it)
	ncr  *ncr5380.Chip
	bus  *scsi.Bus
	devs [8]scsidev.Device
	fdc  FDC
	// floppy is the WD1772 and the cabled drives (emu/floppy.go).
	floppy *floppyBoard

	ram   [65536]byte
	rom   []byte
	romOn bool
	rpage [256]*[256]byte
	wpage [256]*[256]byte

	latch        uint8 // port 00
	printerData  uint8
	printerStrob bool // STROBE active (port 02 written last)
	printerEv    sched.Event

	obs observers

	limit   uint64 // current CPU run limit (T-states)
	running bool   // inside run or Step: the state is not at an instruction boundary
	stop    bool
	err     error
	trace   sched.Trace // the trace hash (trace.go)
	// busyIO is when the program last touched a port other than DART
	// channel A's (LastBusyIO).
	busyIO sched.Time
}

// New builds the machine cfg describes and resets it: the board (CPU, CTC,
// DART, the 5380 and its SCSI bus, which the board always has) and every
// device of cfg.SCSI, attached by its registered type. It is the one place
// a machine is put together. On error nothing stays open; Close releases
// the devices' images.
func New(cfg Config) (*Board, error) {
	name := cfg.ROMName
	if name == "" {
		name = "ROM image"
	}
	if err := checkROM(name, cfg.ROM); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxWait == 0 {
		cfg.MaxWait = DefaultMaxWait
	}
	b := &Board{cfg: cfg, s: sched.New(), rom: cfg.ROM, trace: sched.Trace{Hash: fnvOffset}}
	b.ctc = ctc.New(b.s)
	b.ctc.SetTriggerClock(0, sched.CTCTrigPeriod) // CLK/TRG0, 1: 16 MHz / 8 [F MAME-ampro]
	b.ctc.SetTriggerClock(1, sched.CTCTrigPeriod)
	if cfg.Jumpers.TO2ToTRG3 {
		b.ctc.Cascade(2, 3)
	}
	b.dart = dart.New(b.s)
	// ZC/TO0 -> TxCA, RxCA while /DTR A is active, else the fixed clock
	b.dart.Channel(0).SetClock(portAClock{ctc: b.ctc.Channel(0), ch: b.dart.Channel(0)})
	b.dart.Channel(0).OnDTR = func(sched.Time, bool) { b.dart.Channel(0).ClockChanged() }
	b.dart.Channel(1).SetClock(b.ctc.Channel(1)) // ZC/TO1 -> RxTxCB
	b.ctc.OnOutputChange = func(ch int) {
		if ch < 2 {
			b.dart.Channel(ch).ClockChanged()
		}
	}
	b.ctc.OnINT = b.updateINT
	b.dart.OnINT = b.updateINT
	if cfg.ConsoleOut != nil {
		b.dart.Channel(0).OnTx = cfg.ConsoleOut
	}
	if cfg.SerialBOut != nil {
		b.dart.Channel(1).OnTx = cfg.SerialBOut
	}
	// [A] A terminal on channel A holds CTS and DCD active. Channel B's
	// DCD is the floppy drive's READY and its RI the printer's BUSY;
	// something attached to the port (SerialBOut) holds its CTS active
	// (docs/HARDWARE.md 1.6).
	b.dart.Channel(0).SetCTS(true)
	b.dart.Channel(0).SetDCD(true)
	b.dart.Channel(1).SetCTS(cfg.SerialBOut != nil)
	// [A] The console terminal keeps pace with the program: it holds
	// typed characters while the DART's FIFO is full (docs/ARCHITECTURE.md,
	// console), so typing while the monitor prints loses nothing.
	b.dart.Channel(0).Paced = true
	// [A] So does a host program on channel B (docs/HARDWARE.md 1.6).
	b.dart.Channel(1).Paced = true
	b.initPrinter()
	b.buildSCSI()
	if err := b.buildFloppy(); err != nil {
		b.closeFloppy()
		return nil, err
	}
	for _, spec := range cfg.SCSI {
		dev, err := scsiTypes[spec.Type].Attach(b.bus, spec)
		if err != nil {
			b.Close()
			return nil, err
		}
		b.devs[spec.ID] = dev
		if f, ok := dev.(scsidev.Failer); ok {
			f.SetFail(b.Fail) // an image changed on the host stops the machine
		}
	}
	b.cpu = z80host.New(b)
	b.cpu.SetInterruptAck(b)
	b.s.OnEarlier = b.onEarlier
	b.s.Trace = &b.trace
	b.Reset()
	return b, nil
}

// Close releases the images of the machine's devices (their locks).
// Acknowledged writes are already durable, so a machine that is simply
// dropped at exit loses nothing.
func (b *Board) Close() error {
	errs := []error{b.closeFloppy()}
	for i, d := range b.devs {
		if d != nil {
			errs = append(errs, d.Close())
			b.devs[i] = nil
		}
	}
	return errors.Join(errs...)
}

// Reset is the reset button: CPU, CTC and DART reset, port 00 cleared (ROM
// mapped in), a hang (ErrHung) cleared. RAM keeps its contents; time goes on.
func (b *Board) Reset() {
	b.err = nil
	t := b.cpu.T()
	b.cpu.Reset()
	b.cpu.SetT(t)
	b.ctc.Reset()
	b.dart.Reset()
	b.writeLatch(0)
	b.updateINT()
}

// Sched returns the board's scheduler (for devices attached to the board).
func (b *Board) Sched() *sched.Scheduler { return b.s }

// CPU returns the board's Z80 (for tests and the debugger).
func (b *Board) CPU() *z80host.CPU { return b.cpu }

// CTC returns the board's CTC.
func (b *Board) CTC() *ctc.CTC { return b.ctc }

// DART returns the board's DART.
func (b *Board) DART() *dart.DART { return b.dart }

// Now returns the board's simulated time: the CPU's, which runs ahead of the
// scheduler between I/O accesses.
func (b *Board) Now() sched.Time { return sched.Time(b.cpu.T()) * sched.TState }

// ConsoleInput sends bytes from the terminal to DART channel A. They reach
// the receiver one character time apart at the rate the CTC and DART are
// programmed for.
func (b *Board) ConsoleInput(p []byte) {
	b.s.Advance(b.Now())
	b.dart.Channel(0).Feed(p)
}

// ConsoleQueued is how many bytes given to ConsoleInput are still on their
// way (not yet received by the DART).
func (b *Board) ConsoleQueued() int { return b.dart.Channel(0).Queued() }

// LoadRAM copies p into RAM at addr (wrapping at 64 KB), beneath the ROM.
func (b *Board) LoadRAM(addr uint16, p []byte) {
	for i, v := range p {
		b.ram[uint16(int(addr)+i)] = v
	}
}

// RAM returns the RAM byte at addr (not the ROM overlay).
func (b *Board) RAM(addr uint16) uint8 { return b.ram[addr] }

// ROMMapped reports whether the ROM overlays low memory (port 00 bit 6 = 0).
func (b *Board) ROMMapped() bool { return b.romOn }

// Latch returns the last value written to port 00.
func (b *Board) Latch() uint8 { return b.latch }

// PrinterData returns the printer data latch (port 01).
func (b *Board) PrinterData() uint8 { return b.printerData }

// Memory pages for the CPU's fast path (z80host.Pages).
func (b *Board) MemoryPages() (read, write *[256]*[256]byte) { return &b.rpage, &b.wpage }

// FlatMemory is the RAM the pages are slices of (z80host.FlatMemory): with
// the ROM switched out and no memory observer, Run reads and writes it
// directly.
func (b *Board) FlatMemory() *[65536]byte { return &b.ram }

func (b *Board) mapMemory() {
	for p := 0; p < 256; p++ {
		ram := (*[256]byte)(b.ram[p*256 : p*256+256])
		b.wpage[p] = ram
		b.rpage[p] = ram
		if b.romOn && p < romWindow/256 {
			o := p * 256 % len(b.rom) // a small ROM repeats through the window
			b.rpage[p] = (*[256]byte)(b.rom[o : o+256])
		}
		// Every watched access to the page through Fetch/Read/Write.
		if r, w := b.obs.memWatched(p); r || w {
			if r {
				b.rpage[p] = nil
			}
			b.wpage[p] = nil
		}
	}
	if b.cpu != nil {
		b.cpu.PagesChanged()
	}
}

// mem returns the byte at addr as the CPU reads it (ROM overlay included)
// whatever the page tables say.
func (b *Board) mem(addr uint16) uint8 {
	if b.romOn && int(addr) < romWindow {
		return b.rom[int(addr)%len(b.rom)]
	}
	return b.ram[addr]
}

// Peek returns the byte the CPU would read at addr, without a bus cycle.
func (b *Board) Peek(addr uint16) uint8 { return b.mem(addr) }

// Fetch, Read and Write are the memory cycles (z80host.Bus). The CPU uses
// the pages directly; these serve the cases it does not.
func (b *Board) Fetch(addr uint16, t uint64) uint8 {
	v := b.mem(addr)
	if b.obs.mem.Len() != 0 {
		b.notifyMem(t, addr, v, MemFetch)
	}
	return v
}

// Read is a memory read cycle.
func (b *Board) Read(addr uint16, t uint64) uint8 {
	v := b.mem(addr)
	if b.obs.mem.Len() != 0 {
		b.notifyMem(t, addr, v, MemRead)
	}
	return v
}

// Write is a memory write cycle: always to RAM, also beneath the ROM.
func (b *Board) Write(addr uint16, v uint8, t uint64) {
	b.ram[addr] = v
	if b.obs.mem.Len() != 0 {
		b.notifyMem(t, addr, v, MemWrite)
	}
}

func (b *Board) onEarlier(at sched.Time) {
	lim := ceilT(at)
	if lim < b.limit {
		b.limit = lim
		b.cpu.SetLimit(lim)
	}
}

func ceilT(t sched.Time) uint64 {
	if t <= 0 {
		return 0
	}
	if t == sched.MaxTime {
		return ^uint64(0)
	}
	return uint64((t + sched.TState - 1) / sched.TState)
}

// RunFor runs the board for d of simulated time.
func (b *Board) RunFor(d sched.Time) error {
	_, err := b.run(nil, b.Now()+d)
	return err
}

// RunUntil runs until cond returns true or limit of simulated time has
// passed, and reports whether cond became true. cond is checked after every
// scheduler event (characters sent and received are events) and at least
// every CondQuantum of simulated time.
func (b *Board) RunUntil(cond func() bool, limit sched.Time) (bool, error) {
	return b.run(cond, b.Now()+limit)
}

// CondQuantum is the longest stretch RunUntil runs without checking its
// condition.
const CondQuantum = sched.Millisecond

// Stop pauses the machine: the current run returns after the instruction
// in progress (before the next one when called from an instruction
// observer). Any observer callback may call it; the next run resumes
// exactly as if there had been no pause (docs/STATE.md).
func (b *Board) Stop() {
	b.stop = true
	b.limit = b.cpu.T()
	b.cpu.SetLimit(b.limit)
}

// Fail stops the machine with err: the current run returns it after the
// instruction in progress, and so does every later run. The first error
// stays. For what the machine cannot go on without: a store that refused a
// write, a trace that can no longer be written.
func (b *Board) Fail(err error) {
	if b.err == nil {
		b.err = err
	}
	b.Stop()
}

// Step runs one instruction (or interrupt acknowledge, or one HALT cycle)
// and the events due by its end, for a debugger's single step. It returns
// the T-states taken.
func (b *Board) Step() (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	b.running = true
	b.limit = b.cpu.T() + 1
	n := b.cpu.Step()
	b.s.Advance(b.Now())
	b.running = false
	return n, b.err
}

// quietMayRunLate reports whether the CPU may run past the scheduler's
// quiet events (sched.Event.SetQuiet: the SCSI handshake steps of the
// targets and the 5380), leaving them to the Advance of its next I/O
// access or of the run's end. They still run in the same order at the
// same simulated times, before any access that could see them, so every
// byte, T-state and the trace hash stay as they were; what changes is
// only where the CPU's run is cut. Not while anything could see the
// difference: an observer of the scheduler or the SCSI bus (a tracer,
// the debugger) may stop the machine at an edge, a CPU hook looks at the
// machine between instructions, and whoever listens to the 5380's IRQ or
// DRQ (the jumpers JMP3 and JMP8 carry them to the CTC and DART, whose
// interrupts the CPU must see at the right instruction; the debugger
// records them) must hear them at the right instruction too. RunUntil's
// condition is checked after every event, so a run with one keeps every
// event a cut too.
func (b *Board) quietMayRunLate() bool {
	return b.s.Observers() == 0 && !b.bus.Observed() && b.cpu.Hook == nil &&
		b.ncr.OnIRQ == nil && b.ncr.OnDRQ == nil && !b.ncr.OutputsObserved()
}

func (b *Board) run(cond func() bool, end sched.Time) (bool, error) {
	b.stop = false
	b.running = true
	defer func() { b.running, b.s.QuietLate = false, false }()
	endT := ceilT(end)
	for {
		if b.err != nil {
			return false, b.err
		}
		if cond != nil && cond() {
			return true, nil
		}
		t := b.cpu.T()
		if t >= endT || b.stop {
			return false, nil
		}
		late := cond == nil && b.quietMayRunLate()
		b.s.QuietLate = late
		next := b.s.Next()
		if late {
			next = b.s.NextLoud()
		}
		if next <= sched.Time(t)*sched.TState {
			b.s.Advance(sched.Time(t) * sched.TState)
			continue
		}
		lim := min(ceilT(next), endT)
		if cond != nil {
			lim = min(lim, t+uint64(CondQuantum/sched.TState))
		}
		b.limit = lim
		stopped := b.cpu.Run(lim)
		b.s.Advance(b.Now())
		if stopped {
			return false, nil // the debugger hook asked
		}
	}
}
