package debugger

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/z80host"
	"github.com/lbplus/lbplus/z80host/disasm"
	"github.com/lbplus/lbplus/z80host/optable"
)

// Machine is what the debugger drives. It is kept small so that the
// machine's own observation API can replace the Board adapter without
// touching the rest of the debugger.
type Machine interface {
	// Now is the simulated time (the CPU's, at an instruction boundary when
	// the machine is paused).
	Now() sched.Time
	// Step runs one instruction and the events due by its end.
	Step() (int, error)
	// RunFor runs for d of simulated time, or less if Stop is called from
	// an observer or the CPU hook returns true.
	RunFor(d sched.Time) error
	// Stop ends the current RunFor after the instruction in progress.
	Stop()
	// Regs returns the CPU's registers.
	Regs() z80host.Regs
	// Peek reads memory as the CPU sees it (ROM overlay included) without
	// any side effect.
	Peek(addr uint16) uint8
	// AddHook adds h to the machine's instruction-boundary observers until
	// remove is called; when h asks to stop, the machine stops before the
	// instruction.
	AddHook(h z80host.Hook) (remove func())
}

// Stop says why the machine stopped.
type Stop struct {
	Why  string     // "breakpoint", "step", "phase", ...
	T    sched.Time // when the condition happened (a bus edge's own time)
	PC   uint16     // the instruction that was executing or is next
	Text string     // a line for the user
	// Ended is, for a phase stop, the segment that ended at T: the phase
	// the bus left, with its bytes.
	Ended *Segment
}

func (s *Stop) String() string {
	return fmt.Sprintf("%s  %s", FormatTime(s.T), s.Text)
}

// FormatTime renders simulated time in microseconds with nanosecond
// digits, the unit the story measures in.
func FormatTime(t sched.Time) string {
	ns := int64(t / sched.Nanosecond)
	return fmt.Sprintf("%d.%03d us", ns/1000, ns%1000)
}

// HistoryLen is how many executed instructions the history keeps.
const HistoryLen = 1 << 12

// HistEntry is one executed instruction: its address and the T-state it
// began at.
type HistEntry struct {
	PC uint16
	T  uint64
}

// stepMode is a one-shot stop condition set by a step command.
type stepMode uint8

const (
	stepNone stepMode = iota
	stepEdge
	stepByte
	stepPhase
	stepCommand
	stepBusFree
	stepOver
	stepOut
	stepFloppy
	stepIndex
)

// Debugger is the debugger core: run control, breakpoints, history and the
// signal recorder, without any user interface. It runs on the machine's
// goroutine; nothing in it reads the wall clock.
type Debugger struct {
	m   Machine
	Rec *Recorder
	// Syms names addresses in disassembly and resolves names in
	// breakpoint expressions.
	Syms *Symbols
	// Kinds tells the decoder which targets are tapes (default disk).
	Kinds map[int]Kind

	bps    []*Breakpoint
	nextID int
	exec   [1024]uint64 // bitmap of addresses with an execute breakpoint
	slow   bool         // a per-instruction check besides exec is active

	hist     [HistoryLen]HistEntry
	histN    uint64
	curPC    uint16 // the instruction in progress (or next, when paused)
	resumePC uint16 // skip the exec breakpoint here once when resuming
	resumeT  uint64
	resuming bool

	stop    *Stop
	mode    stepMode
	target  uint16 // step over: return address
	sp0     uint16 // step over/out: SP at the start
	lastRet bool   // the previous instruction was a return
	probes  []probe

	dsyms    *disasm.Symbols // Syms for the disassembler, rebuilt when Syms grows
	dsymsN   int
	dsymsKey uint64 // which labels held when dsyms was built

	memRemove func() // the memory observer, while a watchpoint needs it
	// Chip and Panels are what the T-state cursor records of the chips
	// at each change inside its instruction (Attach sets them).
	Chip    RegisterReader
	Panels  []Panel
	cur     *TCursor // the T-state cursor, nil at a boundary
	capture *capture // the cursor's record, while its instruction runs

	// lost counts the 5380's lost bytes (stale DACK reads and overwritten
	// output latches); nil without a 5380.
	lost func() uint64

	// dest follows where a DATA IN's bytes go in memory (transfer.go).
	dest destTrace

	// detach removes the observers New and Attach added (Detach).
	detach []func()
}

// probe is a counter checked at instruction boundaries (tape repositions,
// lost DMA bytes): a change stops the machine.
type probe struct {
	bp   *Breakpoint
	read func() uint64
	last uint64
}

// New returns a debugger for m recording into rec. It adds itself to the
// CPU's instruction observers; the caller connects rec to the machine's
// signals (see Attach). Detach removes both.
func New(m Machine, rec *Recorder) *Debugger {
	d := &Debugger{m: m, Rec: rec, Syms: NewSymbols(), Kinds: map[int]Kind{}}
	d.Syms.SetPeek(m.Peek)
	rec.dec.l = d
	d.detach = append(d.detach, m.AddHook(d))
	return d
}

// Detach removes every observer the debugger added to the machine (the
// instruction hook, the signals Attach connected, the memory observer of
// a watchpoint or of a transfer's destination being traced): afterwards
// the machine runs as if it had never been debugged, on its fast paths,
// and none of the debugger's code runs. The recorder and the breakpoints
// stay readable; the debugger must not be used to run the machine again.
func (d *Debugger) Detach() {
	for i := len(d.detach) - 1; i >= 0; i-- {
		d.detach[i]()
	}
	d.detach = nil
	if d.memRemove != nil {
		d.memRemove()
		d.memRemove = nil
	}
	if d.dest.remove != nil { // a DATA IN's destination being traced
		d.dest.remove()
	}
	d.dest = destTrace{}
}

// Machine returns the machine the debugger drives.
func (d *Debugger) Machine() Machine { return d.m }

// BeforeInstruction is the CPU hook (z80host.Hook): it keeps the history
// and checks execute breakpoints and step targets.
func (d *Debugger) BeforeInstruction(pc uint16, t uint64) bool {
	prevPC := d.curPC
	d.curPC = pc
	if d.resuming {
		d.resuming = false
		if pc == d.resumePC && t == d.resumeT {
			d.record(pc, t)
			return false
		}
	}
	if d.exec[pc>>6]&(1<<(pc&63)) != 0 && d.checkExec(pc) {
		return true
	}
	if d.slow && d.slowChecks(prevPC, pc) {
		return true
	}
	// Recorded only once it is sure to execute: a stopped instruction is
	// recorded when the run resumes.
	d.record(pc, t)
	return false
}

func (d *Debugger) record(pc uint16, t uint64) {
	d.hist[d.histN%HistoryLen] = HistEntry{pc, t}
	d.histN++
}

func (d *Debugger) checkExec(pc uint16) bool {
	for _, bp := range d.bps {
		if bp.Kind != BreakExec || bp.Addr != pc || !bp.Enabled {
			continue
		}
		if bp.Cond != nil {
			v, err := bp.Cond.Eval(d.env())
			if err != nil {
				d.halt(&Stop{Why: "error", T: d.m.Now(), PC: pc, Text: err.Error()})
				return true
			}
			if v == 0 {
				continue
			}
		}
		bp.Hits++
		d.stop = &Stop{Why: "breakpoint", T: d.m.Now(), PC: pc, Text: fmt.Sprintf("breakpoint %d: execute %s", bp.ID, d.Syms.Label(pc))}
		return true
	}
	return false
}

// slowChecks runs the per-instruction conditions: step over/out targets,
// memory watchpoints and counter probes.
func (d *Debugger) slowChecks(prevPC, pc uint16) bool {
	if d.destActive() {
		d.destStep()
	}
	switch d.mode {
	case stepOver:
		if pc == d.target && d.m.Regs().SP >= d.sp0 {
			d.stop = &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "stepped over to " + d.Syms.Label(pc)}
			return true
		}
	case stepOut:
		if d.lastRet && d.m.Regs().SP > d.sp0 {
			d.stop = &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "stepped out to " + d.Syms.Label(pc)}
			return true
		}
		d.lastRet = isReturn(d.code(pc))
	}
	for _, bp := range d.bps {
		if bp.Kind != BreakMem || !bp.Enabled || d.memRemove != nil {
			continue
		}
		for a := int(bp.Addr); a <= int(bp.End); a++ {
			v := d.m.Peek(uint16(a))
			if v != bp.shadow[a-int(bp.Addr)] {
				bp.shadow[a-int(bp.Addr)] = v
				bp.Hits++
				d.stop = &Stop{Why: "watchpoint", T: d.m.Now(), PC: prevPC,
					Text: fmt.Sprintf("watchpoint %d: %04Xh changed to %02Xh by the instruction at %s", bp.ID, a, v, d.Syms.Label(prevPC))}
				return true
			}
		}
	}
	for i := range d.probes {
		p := &d.probes[i]
		if v := p.read(); v != p.last {
			p.last = v
			if p.bp.Enabled {
				p.bp.Hits++
				d.stop = &Stop{Why: "breakpoint", T: d.m.Now(), PC: prevPC,
					Text: fmt.Sprintf("breakpoint %d: %s (count %d) during the instruction at %s", p.bp.ID, p.bp.Desc, v, d.Syms.Label(prevPC))}
				return true
			}
		}
	}
	return false
}

// code returns the 4 bytes at addr.
func (d *Debugger) code(addr uint16) []byte {
	return []byte{d.m.Peek(addr), d.m.Peek(addr + 1), d.m.Peek(addr + 2), d.m.Peek(addr + 3)}
}

// isReturn: RET, RET cc, RETI, RETN.
func isReturn(c []byte) bool {
	switch {
	case c[0] == 0xC9, c[0]&0xC7 == 0xC0:
		return true
	case c[0] == 0xED && c[1]&0xC7 == 0x45:
		return true
	}
	return false
}

// isCall: CALL, CALL cc, RST, and the repeating block instructions and
// DJNZ, which step over treats as one step too.
func isCall(c []byte) bool {
	switch {
	case c[0] == 0xCD, c[0]&0xC7 == 0xC4, c[0]&0xC7 == 0xC7, c[0] == 0x10:
		return true
	case c[0] == 0xED && c[1]&0xF4 == 0xB0:
		return true
	}
	return false
}

// halt records a stop and asks the machine to stop after the instruction
// in progress.
func (d *Debugger) halt(s *Stop) {
	if d.stop == nil {
		d.stop = s
	}
	d.m.Stop()
}

// The decoder's listener: one-shot step conditions and bus breakpoints.

func (d *Debugger) edge(now sched.Time) {
	if d.mode == stepEdge {
		sig, data := d.Rec.Signals()
		d.halt(&Stop{Why: "edge", T: now, PC: d.curPC, Text: fmt.Sprintf("bus edge: %s db=%02X", sig, data)})
	}
}

func (d *Debugger) segmentStarted(s *Segment) {
	d.destPhase(s)
	switch {
	case d.mode == stepPhase:
		d.halt(d.phaseStop("phase", s))
	case d.mode == stepCommand && s.Phase == scsi.Command:
		d.halt(d.phaseStop("command", s))
	case d.mode == stepBusFree && s.Phase == scsi.BusFree:
		d.halt(d.phaseStop("bus free", s))
	}
	for _, bp := range d.bps {
		if !bp.Enabled {
			continue
		}
		if (bp.Kind == BreakPhase && bp.Phase == s.Phase) ||
			(bp.Kind == BreakSelect && s.Phase == scsi.Selection) {
			bp.Hits++
			st := d.phaseStop("breakpoint", s)
			st.Text = fmt.Sprintf("breakpoint %d: %s", bp.ID, st.Text)
			d.halt(st)
		}
	}
}

// phaseStop reports entering segment s, with the segment that ended.
func (d *Debugger) phaseStop(why string, s *Segment) *Stop {
	prev := d.Rec.Previous()
	text := fmt.Sprintf("%s entered", s.Phase)
	if s.Phase == scsi.Selection {
		text = "SELECTION entered (arbitration/selection)"
	}
	return &Stop{Why: why, T: s.Start, PC: d.curPC, Text: text, Ended: &prev}
}

// SegmentLine renders a segment as the text front-end prints it: start
// time, phase, what it carried and how long it lasted.
func (d *Debugger) SegmentLine(s *Segment) string { return segmentLine(s, d.kind) }

// FormatDuration renders a span with a unit that suits it
// (sched.FormatDuration).
func FormatDuration(t sched.Time) string { return sched.FormatDuration(t) }

func (d *Debugger) floppyCommand(now sched.Time) {
	if d.mode == stepFloppy {
		d.halt(&Stop{Why: "floppy", T: now, PC: d.curPC, Text: "WD1772 command started (BUSY) by the instruction at " + d.Syms.Label(d.curPC)})
	}
}

func (d *Debugger) indexPulse(now sched.Time, drive int) {
	if d.mode == stepIndex {
		d.halt(&Stop{Why: "index", T: now, PC: d.curPC, Text: fmt.Sprintf("index pulse of floppy drive %d", drive)})
	}
}

func (d *Debugger) transfer(now sched.Time, p scsi.Phase, b uint8) {
	if d.mode == stepByte {
		d.halt(&Stop{Why: "byte", T: now, PC: d.curPC, Text: fmt.Sprintf("%s byte %02Xh", p, b)})
	}
}

func (d *Debugger) commandReady(c *Command) {
	for _, bp := range d.bps {
		if !bp.Enabled {
			continue
		}
		switch bp.Kind {
		case BreakCDB:
			if bp.Opcode >= 0 && c.Opcode() != bp.Opcode {
				continue
			}
			if bp.Target >= 0 && c.Target != bp.Target {
				continue
			}
		case BreakSelect:
			// A selection breakpoint on a given target stops once the
			// target is known, at its CDB.
			if bp.Target < 0 || c.Target != bp.Target {
				continue
			}
		default:
			continue
		}
		bp.Hits++
		d.halt(&Stop{Why: "breakpoint", T: d.m.Now(), PC: d.curPC,
			Text: fmt.Sprintf("breakpoint %d: target %d %s, CDB sent by the instruction at %s", bp.ID, c.Target, DecodeCDB(c.Bytes(), d.kind(c.Target)), d.Syms.Label(d.curPC))})
	}
}

func (d *Debugger) kind(target int) Kind { return d.Kinds[target] }

// IO is the machine's I/O observer: every IN and OUT after the device
// handled it (t is the T-state the I/O cycle starts).
func (d *Debugger) IO(t uint64, port uint16, v uint8, out bool) {
	d.destIO(v, out)
	if c := d.capture; c != nil {
		kind := "IOR"
		if out {
			kind = "IOW"
		}
		c.acc = append(c.acc, tAccess{t, kind, port, v})
		// After the access: the state from the device's access on.
		at := sched.Time(t+emu.IOAccessOffset) * sched.TState
		if d.Rec.tap != nil {
			d.Rec.tap(at)
		}
	}
	for _, bp := range d.bps {
		if bp.Kind != BreakIO || !bp.Enabled || uint8(port) != bp.Port || out != bp.Out {
			continue
		}
		if bp.Value >= 0 && int(v) != bp.Value {
			continue
		}
		bp.Hits++
		dir := "IN from"
		if out {
			dir = "OUT to"
		}
		d.halt(&Stop{Why: "breakpoint", T: sched.Time(t) * sched.TState, PC: d.curPC,
			Text: fmt.Sprintf("breakpoint %d: %s port %02Xh value %02Xh by the instruction at %s", bp.ID, dir, uint8(port), v, d.Syms.Label(d.curPC))})
	}
}

// Paused state and run control.

// PC is the address of the next instruction.
func (d *Debugger) PC() uint16 { return d.m.Regs().PC }

// Continue runs until a breakpoint or step condition stops the machine or
// budget of simulated time has passed; it returns the stop, or nil when the
// budget ran out (the window calls it once a frame).
func (d *Debugger) Continue(budget sched.Time) (*Stop, error) {
	return d.run(budget)
}

func (d *Debugger) run(budget sched.Time) (*Stop, error) {
	d.leaveCursor()
	d.stop = nil
	r := d.m.Regs()
	d.resuming, d.resumePC, d.resumeT = true, r.PC, uint64(d.m.Now()/sched.TState)
	end := d.m.Now() + budget
	for d.stop == nil {
		now := d.m.Now()
		if now >= end {
			break
		}
		if err := d.m.RunFor(min(end-now, haltCheck)); err != nil {
			return nil, err
		}
		if r := d.m.Regs(); d.stop == nil && r.Halted && !r.IFF1 {
			d.stop = &Stop{Why: "halt", T: d.m.Now(), PC: r.PC,
				Text: "the CPU is halted with interrupts off (DI; HALT): only a reset or an NMI goes on"}
		}
	}
	s := d.stop
	d.stop, d.mode, d.resuming = nil, stepNone, false
	d.updateSlow()
	return s, nil
}

// haltCheck is how often a run looks for a CPU halted with interrupts
// off, which nothing but a reset or an NMI ends (BACKUP's end, a monitor
// that gave up): the run stops there rather than spinning on HALT for the
// rest of its time, which at full speed leaves the bus activity far
// behind in the recording.
const haltCheck = 10 * sched.Millisecond

// ContinueLimit is how much simulated time `continue` without a duration
// runs at most [A]: the boot ROM's floppy attempt on a board with no drive
// cabled (about 9 s, docs/BOOT.md) and a SCSI boot into CP/M fit in it.
const ContinueLimit = 30 * sched.Second

// stepLimit bounds a step that waits for the bus or a return: [A] ten
// seconds of simulated time, far beyond any command on this board.
const stepLimit = 10 * sched.Second

func (d *Debugger) runMode(m stepMode) (*Stop, error) {
	d.mode = m
	d.updateSlow()
	s, err := d.run(stepLimit)
	if err == nil && s == nil {
		s = &Stop{Why: "limit", T: d.m.Now(), PC: d.PC(), Text: "no stop within " + FormatTime(stepLimit)}
	}
	return s, err
}

// StepInstruction runs one instruction. With the T-state cursor inside
// an instruction it finishes that one: the machine already stands at its
// end.
func (d *Debugger) StepInstruction() (*Stop, error) {
	if d.cur != nil {
		d.leaveCursor()
		pc := d.PC()
		return &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "at " + d.Syms.Label(pc)}, nil
	}
	r := d.m.Regs()
	d.record(r.PC, uint64(d.m.Now()/sched.TState))
	if _, err := d.m.Step(); err != nil {
		return nil, err
	}
	pc := d.PC()
	d.curPC = pc
	return &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "at " + d.Syms.Label(pc)}, nil
}

// StepOver runs a CALL, RST, DJNZ or repeating block instruction to the
// instruction after it (the same stack level); otherwise it is
// StepInstruction.
func (d *Debugger) StepOver() (*Stop, error) {
	if c := d.cur; c != nil {
		return d.stepOverCursor(c)
	}
	r := d.m.Regs()
	c := d.code(r.PC)
	if !isCall(c) {
		return d.StepInstruction()
	}
	d.target = r.PC + uint16(optable.Lookup(c).Len)
	d.sp0 = r.SP
	return d.runMode(stepOver)
}

// StepOut runs until a return instruction takes the stack above its level
// now.
func (d *Debugger) StepOut() (*Stop, error) {
	if c := d.cur; c != nil {
		// From inside an instruction: the level is the one it started
		// at, and the instruction itself may be the return.
		d.leaveCursor()
		d.sp0 = c.Regs.SP
		if !c.Interrupt && isReturn(c.code()) && d.m.Regs().SP > d.sp0 {
			pc := d.PC()
			return &Stop{Why: "step", T: d.m.Now(), PC: pc, Text: "stepped out to " + d.Syms.Label(pc)}, nil
		}
		d.lastRet = false
		return d.runMode(stepOut)
	}
	d.sp0 = d.m.Regs().SP
	d.lastRet = false
	return d.runMode(stepOut)
}

// StepEdge runs to the next change of any SCSI line or the data bus.
func (d *Debugger) StepEdge() (*Stop, error) { return d.runMode(stepEdge) }

// StepByte runs to the next byte moved on the SCSI bus.
func (d *Debugger) StepByte() (*Stop, error) { return d.runMode(stepByte) }

// StepPhase runs to the next bus phase (selection, an information phase
// at its first REQ, bus free).
func (d *Debugger) StepPhase() (*Stop, error) { return d.runMode(stepPhase) }

// StepCommand runs to the next COMMAND phase.
func (d *Debugger) StepCommand() (*Stop, error) { return d.runMode(stepCommand) }

// StepBusFree runs to the next bus free.
func (d *Debugger) StepBusFree() (*Stop, error) { return d.runMode(stepBusFree) }

// StepFloppyCommand runs to the start of the next WD1772 command.
func (d *Debugger) StepFloppyCommand() (*Stop, error) { return d.runMode(stepFloppy) }

// StepIndex runs to the next index pulse of a floppy drive.
func (d *Debugger) StepIndex() (*Stop, error) { return d.runMode(stepIndex) }

// Editor is a Machine whose memory and registers the user may change.
type Editor interface {
	Poke(addr uint16, p []byte)
	SetRegs(r z80host.Regs)
}

// Poke writes bytes to memory (RAM; a write under the ROM overlay lands
// in the RAM beneath, as the Z80's would).
func (d *Debugger) Poke(addr uint16, p []byte) error {
	e, ok := d.m.(Editor)
	if !ok {
		return errors.New("this machine's memory cannot be edited")
	}
	d.leaveCursor()
	e.Poke(addr, p)
	return nil
}

// SetReg sets one register by name (A, F, BC, HL, IX, SP, PC, I, R, ...).
func (d *Debugger) SetReg(name string, v uint16) error {
	e, ok := d.m.(Editor)
	if !ok {
		return errors.New("this machine's registers cannot be edited")
	}
	r := d.m.Regs()
	hi := func(p *uint16) { *p = *p&0x00FF | v<<8 }
	lo := func(p *uint16) { *p = *p&0xFF00 | v&0xFF }
	switch strings.ToUpper(name) {
	case "AF":
		r.AF = v
	case "BC":
		r.BC = v
	case "DE":
		r.DE = v
	case "HL":
		r.HL = v
	case "IX":
		r.IX = v
	case "IY":
		r.IY = v
	case "SP":
		r.SP = v
	case "PC":
		r.PC = v
	case "AF'":
		r.AltAF = v
	case "BC'":
		r.AltBC = v
	case "DE'":
		r.AltDE = v
	case "HL'":
		r.AltHL = v
	case "A":
		hi(&r.AF)
	case "F":
		lo(&r.AF)
	case "B":
		hi(&r.BC)
	case "C":
		lo(&r.BC)
	case "D":
		hi(&r.DE)
	case "E":
		lo(&r.DE)
	case "H":
		hi(&r.HL)
	case "L":
		lo(&r.HL)
	case "I":
		r.I = uint8(v)
	case "R":
		r.R = uint8(v)
	default:
		return fmt.Errorf("set: unknown register %q", name)
	}
	d.leaveCursor()
	e.SetRegs(r)
	d.curPC = r.PC
	return nil
}

// StateSaver is a Machine that can save and load its whole state.
type StateSaver interface {
	SaveState(w io.Writer) error
	LoadState(r io.Reader, name string) error
}

// SaveState writes the machine's state (paused: at an instruction
// boundary).
func (d *Debugger) SaveState(w io.Writer) error {
	s, ok := d.m.(StateSaver)
	if !ok {
		return errors.New("this machine cannot save its state")
	}
	return s.SaveState(w)
}

// LoadState puts the machine in a saved state. The recorder and the
// history, which describe the run that was left, are cleared.
func (d *Debugger) LoadState(r io.Reader, name string) error {
	s, ok := d.m.(StateSaver)
	if !ok {
		return errors.New("this machine cannot load a state")
	}
	if err := s.LoadState(r, name); err != nil {
		return err
	}
	d.leaveCursor()
	d.Rec.Reset()
	if d.destActive() { // its command is gone with the recording
		d.dest.arm, d.dest.done = false, true
	}
	d.histN = 0
	d.curPC = d.PC()
	return nil
}

// History returns the last n executed instructions, oldest first.
func (d *Debugger) History(n int) []HistEntry {
	n = min(n, HistoryLen, int(d.histN))
	out := make([]HistEntry, n)
	for i := range out {
		out[i] = d.hist[(d.histN-uint64(n)+uint64(i))%HistoryLen]
	}
	return out
}

// updateSlow turns the per-instruction checks on only while something
// needs them, so the hook costs one bitmap test otherwise.
func (d *Debugger) updateSlow() {
	d.slow = d.mode == stepOver || d.mode == stepOut || len(d.probes) > 0 || d.destActive()
	for _, bp := range d.bps {
		if bp.Kind == BreakMem && bp.Enabled && d.memRemove == nil {
			d.slow = true
		}
	}
}

// env is the expression environment: registers, then symbols, memory.
func (d *Debugger) env() asm.ExprEnv { return exprEnv{d} }

type exprEnv struct{ d *Debugger }

func (e exprEnv) Peek(a uint16) uint8 { return e.d.m.Peek(a) }

func (e exprEnv) Symbol(name string) (int64, bool) {
	if v, ok := RegValue(e.d.m.Regs(), strings.ToUpper(name)); ok {
		return int64(v), true
	}
	if v, ok := e.d.Syms.Lookup(name); ok {
		return int64(v), true
	}
	return 0, false
}

// Eval evaluates an expression (registers, symbols, PEEK) now.
func (d *Debugger) Eval(src string) (uint16, error) {
	x, err := asm.ParseExpr(src)
	if err != nil {
		return 0, err
	}
	return x.Eval(d.env())
}

// Address parses an address as the commands take it: a symbol or a
// hexadecimal number, optionally "+n" (Symbols.Address), or else an
// expression with registers and symbols (Eval: PC, SP, HL+2, PEEKW(SP);
// BC, DE and A read as hexadecimal numbers, (BC) as the register).
func (d *Debugger) Address(t string) (uint16, error) {
	v, err := d.Syms.Address(t)
	if err == nil {
		return v, nil
	}
	if v, err2 := d.Eval(t); err2 == nil {
		return v, nil
	}
	return 0, err
}

// RegValue returns a register by its upper-case name.
func RegValue(r z80host.Regs, name string) (uint16, bool) {
	switch name {
	case "AF":
		return r.AF, true
	case "BC":
		return r.BC, true
	case "DE":
		return r.DE, true
	case "HL":
		return r.HL, true
	case "IX":
		return r.IX, true
	case "IY":
		return r.IY, true
	case "SP":
		return r.SP, true
	case "PC":
		return r.PC, true
	case "AF'":
		return r.AltAF, true
	case "A":
		return r.AF >> 8, true
	case "F":
		return r.AF & 0xFF, true
	case "B":
		return r.BC >> 8, true
	case "C":
		return r.BC & 0xFF, true
	case "D":
		return r.DE >> 8, true
	case "E":
		return r.DE & 0xFF, true
	case "H":
		return r.HL >> 8, true
	case "L":
		return r.HL & 0xFF, true
	case "IXH":
		return r.IX >> 8, true
	case "IXL":
		return r.IX & 0xFF, true
	case "IYH":
		return r.IY >> 8, true
	case "IYL":
		return r.IY & 0xFF, true
	case "I":
		return uint16(r.I), true
	case "R":
		return uint16(r.R), true
	}
	return 0, false
}
