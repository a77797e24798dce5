package emu

import "github.com/lbplus/lbplus/sched"

// MemAccess is the kind of a memory cycle an observer sees.
type MemAccess uint8

// Memory cycle kinds.
const (
	MemFetch MemAccess = iota // M1 opcode fetch
	MemRead
	MemWrite
)

// The machine's observers: any number of each kind, removed by the
// function Observe* returns. With none of a kind attached the board pays
// one length check (I/O, instruction boundaries) or nothing at all
// (memory: the CPU reads and writes RAM through its page tables, which
// memory observers switch off while attached). Observers of the chips and
// the bus are on the chips: Sched().Observe, SCSIBus().Observe,
// NCR5380().Observe, the devices' own. An observer may call Stop to pause
// the machine (docs/STATE.md) but must not access devices through their
// registers (use Peek and State: looking is free).
type observers struct {
	io    sched.Observers[ioObserver]
	ports [4]uint64 // the ports (A0-A7) some I/O observer watches
	mem   sched.Observers[memObserver]
	instr sched.Observers[func(pc uint16, t uint64)]
}

type ioObserver struct {
	lo, hi uint8 // port range (A0-A7)
	fn     func(t uint64, port uint16, v uint8, out bool)
}

type memObserver struct {
	lo, hi uint16
	// writes: the observer sees writes only, so the pages it watches keep
	// their fast path for fetches and reads.
	writes bool
	fn     func(t uint64, addr uint16, v uint8, kind MemAccess)
}

// memWatched reports whether a memory observer watches an address of page
// p: for fetches and reads (r), for writes (w).
func (o *observers) memWatched(p int) (r, w bool) {
	for _, x := range o.mem.List() {
		if int(x.lo)>>8 <= p && p <= int(x.hi)>>8 {
			w = true
			r = r || !x.writes
		}
	}
	return r, w
}

// ObserveIO adds fn to the I/O observers: every IN and OUT after the device
// handled it, with the T-state the I/O cycle starts (interrupt acknowledges
// are not I/O cycles here).
func (b *Board) ObserveIO(fn func(t uint64, port uint16, v uint8, out bool)) (remove func()) {
	return b.ObservePorts(0x00, 0xFF, fn)
}

// ObservePorts is ObserveIO for the ports lo-hi (A0-A7) only: watching a
// rare port costs the others a comparison, not a call.
func (b *Board) ObservePorts(lo, hi uint8, fn func(t uint64, port uint16, v uint8, out bool)) (remove func()) {
	return b.obs.io.Add(ioObserver{lo, hi, fn}, b.obs.setPorts)
}

func (o *observers) setPorts() {
	o.ports = [4]uint64{}
	for _, x := range o.io.List() {
		for p := int(x.lo); p <= int(x.hi); p++ {
			o.ports[p>>6] |= 1 << (p & 63)
		}
	}
}

// watched reports whether an I/O observer watches port p.
func (o *observers) watched(p uint8) bool { return o.ports[p>>6]&(1<<(p&63)) != 0 }

func (b *Board) notifyIO(t uint64, port uint16, v uint8, out bool) {
	p := uint8(port)
	for _, o := range b.obs.io.List() {
		if p >= o.lo && p <= o.hi {
			o.fn(t, port, v, out)
		}
	}
}

// ObserveMemory adds fn to the memory observers: every fetch, read and
// write, with the T-state its machine cycle starts. While any is attached
// the CPU takes the slow path through the board for every access.
func (b *Board) ObserveMemory(fn func(t uint64, addr uint16, v uint8, kind MemAccess)) (remove func()) {
	return b.ObserveMemoryRange(0x0000, 0xFFFF, fn)
}

// ObserveMemoryRange is ObserveMemory for the addresses lo-hi only (a
// watchpoint): only the 256-byte pages they touch leave the fast path.
func (b *Board) ObserveMemoryRange(lo, hi uint16, fn func(t uint64, addr uint16, v uint8, kind MemAccess)) (remove func()) {
	return b.obs.mem.Add(memObserver{lo: lo, hi: hi, fn: fn}, b.mapMemory)
}

// ObserveMemoryWrites is ObserveMemoryRange for the writes to lo-hi only
// (kind is always MemWrite): fetches and reads in its pages keep the fast
// path, and only the writes there reach the board. A harness waiting for a
// program to store its result costs the program nearly nothing.
func (b *Board) ObserveMemoryWrites(lo, hi uint16, fn func(t uint64, addr uint16, v uint8, kind MemAccess)) (remove func()) {
	return b.obs.mem.Add(memObserver{lo: lo, hi: hi, writes: true, fn: fn}, b.mapMemory)
}

func (b *Board) notifyMem(t uint64, addr uint16, v uint8, kind MemAccess) {
	for _, o := range b.obs.mem.List() {
		if addr >= o.lo && addr <= o.hi && (kind == MemWrite || !o.writes) {
			o.fn(t, addr, v, kind)
		}
	}
}

// ObserveInstructions adds fn to the instruction-boundary observers: fn
// sees the PC and T-state before each instruction (or interrupt
// acknowledge) the CPU starts. It uses the CPU's Hook, which must not be
// set by anyone else meanwhile.
func (b *Board) ObserveInstructions(fn func(pc uint16, t uint64)) (remove func()) {
	return b.obs.instr.Add(fn, func() {
		if b.obs.instr.Len() == 0 {
			b.cpu.Hook = nil
		} else {
			b.cpu.Hook = instrHook{b}
		}
	})
}

// instrHook fans the CPU's one hook out to the instruction observers. An
// observer that calls Stop pauses the machine before the instruction.
type instrHook struct{ b *Board }

func (h instrHook) BeforeInstruction(pc uint16, t uint64) bool {
	for _, fn := range h.b.obs.instr.List() {
		fn(pc, t)
	}
	return h.b.stop
}
