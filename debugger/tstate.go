package debugger

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/z80host"
	"github.com/lbplus/lbplus/z80host/optable"
)

// The T-state cursor (docs/DEBUGGER.md, "Stepping one T-state"). The CPU
// executes whole instructions, so a T-state step cannot stop the machine
// inside one. Instead the cursor's first step runs the instruction about
// to execute once, on the machine itself (exactly as `step` does, so a
// run stays identical to one never stepped), and records what happened
// in it: every memory and I/O cycle at its T-state, every recorded edge,
// and the 5380's registers and the device panels at each point where the
// machine changed. The cursor then moves through that record one T-state
// at a time. Passing the instruction's last T-state leaves the record:
// the machine stands at the next instruction boundary, where it has
// been since the cursor entered the instruction.

// TState is one T-state of the instruction under the cursor.
type TState struct {
	// Cycle is the machine cycle: M1 (opcode fetch), MR, MW (memory read
	// and write), IOR, IOW (I/O read and write), INTA (interrupt
	// acknowledge).
	Cycle string
	// N numbers the cycle (1 for the instruction's first).
	N int
	// Name is the T-state within the cycle: T1, T2, TW (a wait state),
	// T3, T4, and T4.. for internal T-states that follow the cycle.
	Name string
	// Start is the T-state's first picosecond.
	Start sched.Time
	// Addr is on the address bus (HasAddr); in T3 and T4 of an M1 cycle
	// it is the refresh address (Refresh), which the cursor does not give.
	Addr    uint16
	HasAddr bool
	Refresh bool
	// Data is the byte the cycle moves on the data bus (HasData).
	Data    uint8
	HasData bool
	// Pins are the CPU's control outputs asserted in (part of) this
	// T-state, derived from the cycle type [F Z80UM]: M1 MREQ IORQ RD WR
	// RFSH HALT, and the WAIT input while a device holds it.
	Pins string
	// Access is what a device or memory saw in this T-state (the I/O
	// access at T2 of an I/O cycle, a memory write).
	Access string
	// Edges are the recorded signal changes that fell in this T-state.
	Edges []Edge
}

// TCursor is the T-state cursor inside one instruction (or interrupt
// acknowledge, or HALT cycle).
type TCursor struct {
	PC   uint16
	Text string // the instruction, disassembled
	// Regs are the registers at the start of the instruction: the CPU
	// model does not expose them between its start and its end.
	Regs      z80host.Regs
	T0, T1    sched.Time // the instruction's boundaries
	States    []TState
	K         int  // the cursor's T-state, an index into States
	Interrupt bool // an interrupt acknowledge, not an instruction

	before []Edge // the recorded state just before T0
	mem    []byte // memory (as the CPU sees it) at T0
	writes []tWrite
	looks  []tLook
}

type tWrite struct {
	k    int // the T-state from which memory holds the byte (T2 of the write: WR active)
	addr uint16
	v    uint8
}

// tLook is the chips' state from time T on (until the next look).
type tLook struct {
	T      sched.Time
	chip   []ChipRegister
	panels [][]string
}

// Current returns the T-state under the cursor.
func (c *TCursor) Current() *TState { return &c.States[c.K] }

// Time is the end of the cursor's T-state: what the cursor shows is the
// machine as it is then, with every change before that picosecond.
func (c *TCursor) Time() sched.Time { return c.States[c.K].Start + sched.TState }

// Signals returns the recorded signals and DB0-7 at the cursor's time.
func (c *TCursor) Signals() (Signal, uint8) {
	e := c.before[0]
	end := c.Time()
	for _, s := range c.States[:c.K+1] {
		for _, x := range s.Edges {
			if x.T < end {
				e = x
			}
		}
	}
	return e.Sig, e.Data
}

// Peek reads memory as it is at the cursor's time: a byte the instruction
// writes reads as written from its write cycle's T2 (WR asserted) on.
func (c *TCursor) Peek(addr uint16) uint8 {
	v := c.mem[addr]
	for _, w := range c.writes {
		if w.addr == addr && w.k <= c.K {
			v = w.v
		}
	}
	return v
}

func (c *TCursor) look() *tLook {
	end := c.Time()
	l := &c.looks[0]
	for i := range c.looks {
		if c.looks[i].T < end {
			l = &c.looks[i]
		}
	}
	return l
}

// Chip returns the 5380's registers at the cursor's time (nil without a
// 5380).
func (c *TCursor) Chip() []ChipRegister { return c.look().chip }

// Panels returns the device panels' lines at the cursor's time.
func (c *TCursor) Panels() [][]string { return c.look().panels }

// Line renders T-state k as the text front-end lists it.
func (c *TCursor) Line(k int) string {
	s := &c.States[k]
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-3s %-4s %s", s.Cycle, fmt.Sprint(s.N), s.Name, FormatTime(s.Start))
	switch {
	case s.Refresh:
		b.WriteString("  A=refresh")
	case s.HasAddr:
		fmt.Fprintf(&b, "  A=%04X", s.Addr)
	default:
		b.WriteString("        ")
	}
	if s.HasData {
		fmt.Fprintf(&b, " D=%02X", s.Data)
	} else {
		b.WriteString("     ")
	}
	pins := s.Pins
	if pins == "" {
		pins = "-"
	}
	fmt.Fprintf(&b, "  %-16s", pins)
	if s.Access != "" {
		b.WriteString(" " + s.Access)
	}
	out := strings.TrimRight(b.String(), " ")
	for _, e := range s.Edges {
		out += fmt.Sprintf("\n      +%-8s %s db=%02X", FormatDuration(e.T-s.Start), e.Sig, e.Data)
	}
	return out
}

// Header describes the cursor's position: the instruction, the T-state
// and the time the views show (the T-state's end).
func (c *TCursor) Header(syms *Symbols) string {
	what := c.Text
	if c.Interrupt {
		what = "interrupt acknowledge"
	}
	s := c.Current()
	return fmt.Sprintf("%s: %s %s of %s (T-state %d of %d, machine cycle %d); the machine as at %s", syms.Label(c.PC), what, s.Name, s.Cycle, c.K+1, len(c.States), s.N, FormatTime(c.Time()))
}

// Cursor returns the T-state cursor, or nil when the machine stands at an
// instruction boundary with no cursor inside an instruction.
func (d *Debugger) Cursor() *TCursor { return d.cur }

// PeekView reads memory as the views show it: at the T-state cursor's
// time while there is one, else as the machine stands.
func (d *Debugger) PeekView(addr uint16) uint8 {
	if d.cur != nil {
		return d.cur.Peek(addr)
	}
	return d.m.Peek(addr)
}

// CycleWatcher is a Machine that reports every memory cycle, opcode
// fetches included, and every scheduler event (the T-state cursor's
// record of an instruction).
type CycleWatcher interface {
	WatchCycles(fn func(t uint64, addr uint16, v uint8, kind emu.MemAccess)) (remove func())
	WatchEvents(fn func(now sched.Time)) (remove func())
}

// capture is the record being taken while the cursor's instruction runs.
type capture struct {
	acc   []tAccess
	lastT sched.Time
}

type tAccess struct {
	t    uint64
	kind string // M1 MR MW IOR IOW
	addr uint16
	v    uint8
}

// TStep moves the T-state cursor n T-states on. Entering an instruction
// runs it (see the package's T-state cursor); passing its last T-state
// leaves the cursor at the next boundary, where the returned stop is as
// `step`'s. It returns the T-states and boundaries it passed through, for
// listing.
func (d *Debugger) TStep(n int) (passed []TStatePos, st *Stop, err error) {
	for i := 0; i < n; i++ {
		if d.cur == nil {
			if err := d.enterCursor(); err != nil {
				return passed, nil, err
			}
		} else if d.cur.K+1 < len(d.cur.States) {
			d.cur.K++
		} else {
			d.cur = nil
			pc := d.PC()
			st = &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "at " + d.Syms.Label(pc)}
			passed = append(passed, TStatePos{Boundary: st})
			continue
		}
		st = nil
		passed = append(passed, TStatePos{C: d.cur, K: d.cur.K})
	}
	return passed, st, nil
}

// TStatePos is one position a TStep passed through: T-state K of C, or
// (C nil) the instruction boundary it stopped at on the way.
type TStatePos struct {
	C        *TCursor
	K        int
	Boundary *Stop
}

// code returns the 4 bytes at the cursor's instruction as they were when
// it started.
func (c *TCursor) code() []byte {
	return []byte{c.mem[c.PC], c.mem[uint16(c.PC+1)], c.mem[uint16(c.PC+2)], c.mem[uint16(c.PC+3)]}
}

// stepOverCursor is StepOver from inside the cursor's instruction: a
// CALL, RST, DJNZ or repeating block instruction under the cursor (or an
// interrupt acknowledge: its handler) is run to the instruction after it
// at the stack level it started at; any other instruction is finished.
func (d *Debugger) stepOverCursor(c *TCursor) (*Stop, error) {
	d.leaveCursor()
	code := c.code()
	switch {
	case c.Interrupt:
		d.target, d.sp0 = c.PC, c.Regs.SP
	case isCall(code):
		d.target, d.sp0 = c.PC+uint16(optable.Lookup(code).Len), c.Regs.SP
	default:
		pc := d.PC()
		return &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "at " + d.Syms.Label(pc)}, nil
	}
	if pc := d.PC(); pc == d.target && d.m.Regs().SP >= d.sp0 {
		return &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "stepped over to " + d.Syms.Label(pc)}, nil
	}
	return d.runMode(stepOver)
}

// leaveCursor drops the cursor: the machine already stands at the end of
// its instruction, which is where every other command goes on from.
func (d *Debugger) leaveCursor() { d.cur = nil }

func (d *Debugger) enterCursor() error {
	w, ok := d.m.(CycleWatcher)
	if !ok {
		return errors.New("tstep: this machine does not report its bus cycles")
	}
	r := d.m.Regs()
	t0 := d.m.Now()
	c := &TCursor{PC: r.PC, Regs: r, T0: t0, Text: d.Disassemble(r.PC, 1)[0].Text}
	c.mem = make([]byte, 1<<16)
	for a := range c.mem {
		c.mem[a] = d.m.Peek(uint16(a))
	}
	code := d.code(r.PC)
	cp := &capture{lastT: t0}
	look := func(at sched.Time) {
		l := tLook{T: at}
		if d.Chip != nil {
			l.chip = Chip5380(d.Chip)
		}
		for _, p := range d.Panels {
			l.panels = append(l.panels, p.Lines())
		}
		c.looks = append(c.looks, l)
	}
	look(t0)
	names := map[emu.MemAccess]string{emu.MemFetch: "M1", emu.MemRead: "MR", emu.MemWrite: "MW"}
	removes := []func(){w.WatchCycles(func(t uint64, addr uint16, v uint8, kind emu.MemAccess) {
		cp.acc = append(cp.acc, tAccess{t, names[kind], addr, v})
	}), w.WatchEvents(func(now sched.Time) {
		// Before an event runs: the state since the last change.
		look(cp.lastT)
		cp.lastT = now
	})}
	d.capture = cp
	d.Rec.tap = func(now sched.Time) {
		look(now)
		cp.lastT = now
	}
	_, err := d.StepInstruction()
	d.capture, d.Rec.tap = nil, nil
	for _, rm := range removes {
		rm()
	}
	if err != nil {
		return err
	}
	c.T1 = d.m.Now()
	look(cp.lastT)
	edges := d.Rec.Edges(t0, c.T1)
	c.before = edges[:1]
	c.layout(code, r, d.PC(), cp.acc, edges[1:])
	d.cur = c
	return nil
}

// layout places the recorded cycles T-state by T-state. The cycles'
// starts are the recorded accesses' (each at the T-state its machine
// cycle starts); optable's cycle list tells internal T-states from wait
// states in an I/O cycle.
func (c *TCursor) layout(code []byte, r z80host.Regs, pcAfter uint16, acc []tAccess, edges []Edge) {
	n := int((c.T1 - c.T0) / sched.TState)
	t0 := uint64(c.T0 / sched.TState)
	// An interrupt acknowledge starts with no memory cycle (its M1 cycle
	// reads the daisy chain, not memory); a HALT cycle fetches at PC.
	c.Interrupt = len(acc) == 0 || acc[0].kind != "M1" || acc[0].t != t0
	halted := r.Halted && !c.Interrupt
	if halted {
		c.Text = "halted: an M1 cycle of HALT"
	}
	// The table's cycle lengths for the path taken, to tell waits.
	var tab []optable.Cycle
	if !c.Interrupt && !halted {
		info := optable.Lookup(code)
		tab = info.Cycles
		alt := info.NAlt > 0 && info.NAlt < len(tab) &&
			(info.Cond == optable.Repeat && pcAfter != c.PC || info.Cond != optable.Repeat && n == info.TAlt)
		if alt {
			tab = tab[:info.NAlt]
		}
	}
	type cyc struct {
		kind       string
		start, len int
		a          *tAccess
		tabLen     int
	}
	var cs []cyc
	if c.Interrupt {
		first := n
		if len(acc) > 0 {
			first = int(acc[0].t - t0)
		}
		cs = append(cs, cyc{kind: "INTA", start: 0, len: first})
	}
	for i := range acc {
		a := &acc[i]
		x := cyc{kind: a.kind, start: int(a.t - t0), a: a}
		if j := len(cs); !c.Interrupt && j < len(tab) {
			x.tabLen = int(tab[j].Len)
		}
		cs = append(cs, x)
	}
	for i := range cs {
		end := n
		if i+1 < len(cs) {
			end = cs[i+1].start
		}
		cs[i].len = end - cs[i].start
	}
	c.States = make([]TState, 0, n)
	for i, x := range cs {
		base := map[string]int{"M1": 4, "MR": 3, "MW": 3, "IOR": 4, "IOW": 4, "INTA": 6}[x.kind]
		waits := 0
		if (x.kind == "IOR" || x.kind == "IOW") && x.tabLen > 0 && x.len > x.tabLen {
			waits = x.len - x.tabLen
		}
		names := cycleNames(x.kind, waits)
		for k := 0; k < x.len; k++ {
			s := TState{Cycle: x.kind, N: i + 1, Start: c.T0 + sched.Time(x.start+k)*sched.TState}
			inCycle := k < len(names) && k < base+waits
			if inCycle {
				s.Name = names[k]
			} else {
				// Internal T-states go on from the cycle's last T-state.
				s.Name = fmt.Sprintf("T%d", lastT(names)+k-len(names)+1)
			}
			if inCycle {
				s.Pins = pins(x.kind, s.Name, k, halted, waits)
				if x.a != nil {
					s.Addr, s.HasAddr = x.a.addr, true
					s.Data, s.HasData = x.a.v, true
				}
				if x.kind == "IOR" && k == 0 {
					s.HasData = false // no RD yet: nothing drives the data bus
				}
				if x.kind == "M1" && k >= 2 {
					s.Refresh, s.HasData = true, false
				}
				if x.kind == "INTA" {
					s.HasAddr = k < 4
					s.Addr = c.PC
					s.Refresh = k >= 4
				}
			}
			c.States = append(c.States, s)
		}
		if x.a == nil {
			continue
		}
		switch x.kind {
		case "MW":
			k := x.start + 1
			c.writes = append(c.writes, tWrite{k, x.a.addr, x.a.v})
			c.States[k].Access = fmt.Sprintf("memory %04Xh written %02Xh", x.a.addr, x.a.v)
		case "IOR", "IOW":
			k := x.start + emu.IOAccessOffset
			dir := "read"
			if x.kind == "IOW" {
				dir = "written"
			}
			c.States[k].Access = fmt.Sprintf("%s (port %02Xh) %s %02Xh", PortName(uint8(x.a.addr), x.kind == "IOW"), uint8(x.a.addr), dir, x.a.v)
		}
	}
	for _, e := range edges {
		k := int((e.T - c.T0) / sched.TState)
		if k >= 0 && k < len(c.States) {
			c.States[k].Edges = append(c.States[k].Edges, e)
		}
	}
}

// cycleNames are the T-states of a machine cycle [F Z80UM]: an I/O
// cycle is T1 T2 TW T3 (the automatic wait), with any wait states a
// device adds after TW; the interrupt acknowledge is an M1 cycle with two
// automatic waits.
func cycleNames(kind string, waits int) []string {
	switch kind {
	case "M1":
		return []string{"T1", "T2", "T3", "T4"}
	case "MR", "MW":
		return []string{"T1", "T2", "T3"}
	case "IOR", "IOW":
		out := []string{"T1", "T2", "TW"}
		for i := 0; i < waits; i++ {
			out = append(out, "TW")
		}
		return append(out, "T3")
	case "INTA":
		return []string{"T1", "T2", "TW", "TW", "T3", "T4"}
	}
	return nil
}

// lastT is the number of the last T-state in names (T4 of an M1 cycle,
// T3 of an I/O cycle, whatever its waits).
func lastT(names []string) int {
	n := 0
	for _, x := range names {
		if x != "TW" {
			n++
		}
	}
	return n
}

// pins are the control outputs asserted in (part of) T-state k of a
// cycle, from the timing diagrams of the Z80 CPU User Manual [F Z80UM]:
// an M1 cycle has M1, MREQ and RD in T1-T2 and RFSH with MREQ in T3-T4;
// a memory read MREQ and RD in T1-T3; a memory write MREQ in T1-T3 and
// WR in T2-T3; an I/O cycle IORQ with RD or WR from T2 to T3 (wait
// states included); the interrupt acknowledge M1 in T1 to the second
// wait, IORQ in the two waits, then RFSH and MREQ. HALT is asserted
// while the CPU is halted. WAIT (an input) is listed in the wait states
// of an I/O cycle that a device stretched (waits > 0): the automatic
// wait state alone is the CPU's own and needs no WAIT.
func pins(kind, name string, k int, halted bool, waits int) string {
	var p []string
	switch kind {
	case "M1":
		if k < 2 {
			p = []string{"M1", "MREQ", "RD"}
		} else {
			p = []string{"MREQ", "RFSH"}
		}
	case "MR":
		p = []string{"MREQ", "RD"}
	case "MW":
		p = []string{"MREQ"}
		if k > 0 {
			p = append(p, "WR")
		}
	case "IOR", "IOW":
		if k > 0 {
			p = []string{"IORQ", map[string]string{"IOR": "RD", "IOW": "WR"}[kind]}
		}
	case "INTA":
		switch {
		case k < 2:
			p = []string{"M1"}
		case k < 4:
			p = []string{"M1", "IORQ"}
		default:
			p = []string{"MREQ", "RFSH"}
		}
	}
	if name == "TW" && waits > 0 {
		// The WAIT input, held low by the board: sampled low in the
		// automatic wait state and each added one but the last, and
		// released within that one.
		p = append(p, "WAIT")
	}
	if halted {
		p = append(p, "HALT")
	}
	return strings.Join(p, " ")
}

// PortName names what the board decodes at an I/O port (docs/HARDWARE.md:
// the 5380's registers by their read and write names, DACK, the CTC, the
// DART, the WD1772, the latch).
func PortName(p uint8, write bool) string {
	rd := []string{"CSD", "ICR", "MR", "TCR", "CSB", "BSR", "IDR", "RPI"}
	wr := []string{"ODR", "ICR", "MR", "TCR", "SER", "SDS", "SDT", "SDI"}
	switch {
	case p == 0x00 && write:
		return "latch"
	case p >= 0x01 && p <= 0x03 && write:
		return "printer"
	case p >= 0x20 && p <= 0x27:
		if write {
			return "5380 " + wr[p&7]
		}
		return "5380 " + rd[p&7]
	case p == 0x28:
		return "5380 DACK"
	case p == 0x29 && !write:
		return "jumpers"
	case p >= 0x40 && p <= 0x7F:
		return fmt.Sprintf("CTC channel %d", p>>4&3)
	case p >= 0x80 && p <= 0x8F:
		ch := "A"
		if p&8 != 0 {
			ch = "B"
		}
		if p&4 != 0 {
			return "DART " + ch + " control"
		}
		return "DART " + ch + " data"
	case p >= 0xC0 && p <= 0xC3 && write, p >= 0xC4 && p <= 0xC7 && !write:
		return fmt.Sprintf("WD1772 register %d", p&3)
	}
	return "no device"
}
