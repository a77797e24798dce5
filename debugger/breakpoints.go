package debugger

import (
	"errors"
	"fmt"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// BreakKind is what a breakpoint watches.
type BreakKind uint8

// Breakpoint kinds.
const (
	BreakExec    BreakKind = iota // an instruction at Addr is about to execute (Cond true)
	BreakMem                      // a byte in Addr..End changed (write watchpoint)
	BreakIO                       // IN or OUT on Port (Value, if >= 0)
	BreakPhase                    // the bus entered Phase
	BreakCDB                      // a CDB with Opcode (or any, -1) to Target (or any, -1) was sent
	BreakSelect                   // a target (Target, or any) was selected
	BreakCounter                  // a counter probe changed (tape reposition)
	BreakLost                     // the 5380 lost a byte: stale DACK read or overwritten ODR
)

// Breakpoint is one stop condition. Fields that do not apply to its Kind
// are ignored.
type Breakpoint struct {
	ID      int
	Kind    BreakKind
	Enabled bool
	Hits    int
	Desc    string

	Addr, End uint16    // BreakExec, BreakMem
	Read      bool      // BreakMem: stop on reads (with a memory observer)
	Write     bool      // BreakMem: stop on writes
	Cond      *asm.Expr // BreakExec: stop only when non-zero
	Port      uint8     // BreakIO
	Out       bool      // BreakIO: OUT (true) or IN
	Value     int       // BreakIO: the value, -1 for any
	Phase     scsi.Phase
	Opcode    int // BreakCDB
	Target    int // BreakCDB, BreakSelect

	shadow []byte // BreakMem: the bytes last seen
}

func (bp *Breakpoint) String() string {
	state := ""
	if !bp.Enabled {
		state = " (disabled)"
	}
	return fmt.Sprintf("%d: %s, %d hits%s", bp.ID, bp.Desc, bp.Hits, state)
}

func (d *Debugger) add(bp *Breakpoint) *Breakpoint {
	d.nextID++
	bp.ID = d.nextID
	bp.Enabled = true
	d.bps = append(d.bps, bp)
	d.rebuild()
	return bp
}

// rebuild recomputes the execute bitmap and the slow-path flag.
func (d *Debugger) rebuild() {
	d.exec = [1024]uint64{}
	mem := false
	for _, bp := range d.bps {
		if bp.Kind == BreakExec && bp.Enabled {
			d.exec[bp.Addr>>6] |= 1 << (bp.Addr & 63)
		}
		mem = mem || bp.Kind == BreakMem && bp.Enabled
	}
	// A memory observer slows the CPU down: attached only while a
	// watchpoint needs it.
	if w, ok := d.m.(MemoryWatcher); ok {
		switch {
		case mem && d.memRemove == nil:
			d.memRemove = w.WatchMemory(d.memAccess)
		case !mem && d.memRemove != nil:
			d.memRemove()
			d.memRemove = nil
		}
	}
	d.updateSlow()
}

// Breakpoints returns the breakpoints in the order they were set.
func (d *Debugger) Breakpoints() []*Breakpoint { return d.bps }

// HasExec reports whether an enabled execute breakpoint is at addr.
func (d *Debugger) HasExec(addr uint16) bool { return d.exec[addr>>6]&(1<<(addr&63)) != 0 }

// BreakExecAt stops before the instruction at addr executes, when cond
// (an assembler expression over registers, symbols and PEEK; "" for
// always) is non-zero.
func (d *Debugger) BreakExecAt(addr uint16, cond string) (*Breakpoint, error) {
	bp := &Breakpoint{Kind: BreakExec, Addr: addr, Desc: "execute " + d.Syms.Label(addr)}
	if cond != "" {
		x, err := asm.ParseExpr(cond)
		if err != nil {
			return nil, err
		}
		bp.Cond = x
		bp.Desc += " if " + x.String()
	}
	return d.add(bp), nil
}

// ToggleExec removes the execute breakpoints at addr or sets one (F9).
func (d *Debugger) ToggleExec(addr uint16) {
	found := false
	for _, bp := range d.bps {
		if bp.Kind == BreakExec && bp.Addr == addr {
			found = true
			d.Delete(bp.ID)
		}
	}
	if !found {
		d.BreakExecAt(addr, "")
	}
}

// WatchMem stops after an instruction reads (read) or writes (write) a
// byte in from..to. On a machine that reports memory cycles
// (MemoryWatcher) every access counts, whatever the value; otherwise [A] a
// write is seen as a change of value at the next instruction boundary and
// reads cannot be watched.
func (d *Debugger) WatchMem(from, to uint16, read, write bool) (*Breakpoint, error) {
	if to < from {
		return nil, fmt.Errorf("watch %04Xh-%04Xh: the range ends before it starts", from, to)
	}
	if !read && !write {
		return nil, fmt.Errorf("watch %04Xh-%04Xh: neither reads nor writes", from, to)
	}
	if _, ok := d.m.(MemoryWatcher); !ok && read {
		return nil, fmt.Errorf("watch %04Xh-%04Xh: this machine does not report memory reads", from, to)
	}
	what := map[[2]bool]string{{true, false}: "read", {false, true}: "written", {true, true}: "read or written"}[[2]bool{read, write}]
	bp := &Breakpoint{Kind: BreakMem, Addr: from, End: to, Read: read, Write: write,
		Desc: fmt.Sprintf("memory %04Xh-%04Xh %s", from, to, what)}
	bp.shadow = make([]byte, int(to)-int(from)+1)
	for i := range bp.shadow {
		bp.shadow[i] = d.m.Peek(from + uint16(i))
	}
	return d.add(bp), nil
}

// MemoryWatcher is a Machine that reports memory cycles (reads and writes,
// not opcode fetches) to an observer until it is removed.
type MemoryWatcher interface {
	WatchMemory(fn func(t uint64, addr uint16, v uint8, write bool)) (remove func())
}

// memAccess is the memory observer: watchpoints on reads and writes.
func (d *Debugger) memAccess(t uint64, addr uint16, v uint8, write bool) {
	for _, bp := range d.bps {
		if bp.Kind != BreakMem || !bp.Enabled || addr < bp.Addr || addr > bp.End || (write && !bp.Write) || (!write && !bp.Read) {
			continue
		}
		bp.Hits++
		what := "read of"
		if write {
			what = "write of"
		}
		d.halt(&Stop{Why: "watchpoint", T: sched.Time(t) * sched.TState, PC: d.curPC,
			Text: fmt.Sprintf("watchpoint %d: %s %02Xh at %04Xh by the instruction at %s", bp.ID, what, v, addr, d.Syms.Label(d.curPC))})
	}
}

// BreakIOPort stops after an IN (out false) or OUT (out true) on port,
// with value (or any value if value < 0).
func (d *Debugger) BreakIOPort(port uint8, out bool, value int) *Breakpoint {
	dir := "in"
	if out {
		dir = "out"
	}
	desc := fmt.Sprintf("%s port %02Xh", dir, port)
	if value >= 0 {
		desc += fmt.Sprintf(" value %02Xh", value)
	}
	return d.add(&Breakpoint{Kind: BreakIO, Port: port, Out: out, Value: value, Desc: desc})
}

// BreakOnPhase stops when the bus enters phase p.
func (d *Debugger) BreakOnPhase(p scsi.Phase) *Breakpoint {
	return d.add(&Breakpoint{Kind: BreakPhase, Phase: p, Desc: "phase " + p.String()})
}

// BreakOnCDB stops when a CDB with opcode (-1: any) reaches target (-1:
// any), after the instruction that sent its last byte.
func (d *Debugger) BreakOnCDB(opcode, target int) *Breakpoint {
	desc := "CDB"
	if opcode >= 0 {
		desc += fmt.Sprintf(" opcode %02Xh", opcode)
	}
	if target >= 0 {
		desc += fmt.Sprintf(" to target %d", target)
	}
	return d.add(&Breakpoint{Kind: BreakCDB, Opcode: opcode, Target: target, Desc: desc})
}

// BreakOnSelect stops at every selection (target < 0) or at the CDB of a
// command to target.
func (d *Debugger) BreakOnSelect(target int) *Breakpoint {
	desc := "selection"
	if target >= 0 {
		desc += fmt.Sprintf(" of target %d", target)
	}
	return d.add(&Breakpoint{Kind: BreakSelect, Target: target, Desc: desc})
}

// BreakOnCounter stops when read's value changes (checked at every
// instruction boundary); desc names it ("tape reposition").
func (d *Debugger) BreakOnCounter(desc string, read func() uint64) *Breakpoint {
	bp := &Breakpoint{Kind: BreakCounter, Desc: desc}
	d.probes = append(d.probes, probe{bp: bp, read: read, last: read()})
	return d.add(bp)
}

// BreakOnLost stops after the instruction in which the 5380 loses a byte
// (a DACK read with nothing latched, a DACK write over an unsent byte: the
// chip's Stats counters).
func (d *Debugger) BreakOnLost() (*Breakpoint, error) {
	if d.lost == nil {
		return nil, errors.New("break lost: no 5380 on this machine")
	}
	bp := d.BreakOnCounter("5380 lost data or overwritten latch", d.lost)
	bp.Kind = BreakLost
	return bp, nil
}

// Delete removes breakpoint id.
func (d *Debugger) Delete(id int) error {
	for i, bp := range d.bps {
		if bp.ID == id {
			d.bps = append(d.bps[:i], d.bps[i+1:]...)
			for j, p := range d.probes {
				if p.bp == bp {
					d.probes = append(d.probes[:j], d.probes[j+1:]...)
					break
				}
			}
			d.rebuild()
			return nil
		}
	}
	return fmt.Errorf("no breakpoint %d", id)
}

// Enable turns breakpoint id on or off.
func (d *Debugger) Enable(id int, on bool) error {
	for _, bp := range d.bps {
		if bp.ID == id {
			bp.Enabled = on
			d.rebuild()
			return nil
		}
	}
	return fmt.Errorf("no breakpoint %d", id)
}
