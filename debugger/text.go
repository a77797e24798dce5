package debugger

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/z80host/optable"
)

// Text is the debugger's text front-end: one command a line, for SSH
// sessions and scripts (lbplus debug --text, --script FILE). It prints the
// same decoded phases as the window and a text rendering of the timeline.
type Text struct {
	D   *Debugger
	Out io.Writer
	// Chip reads the 5380's registers (nil without SCSI).
	Chip RegisterReader
	// ConsoleIn sends bytes to the machine's terminal input; ConsoleOut
	// returns what the machine printed since the last call.
	ConsoleIn  func(p []byte)
	ConsoleOut func() []byte
	// Repositions counts tape repositions (nil without a tape).
	Repositions func() uint64
	// Panels are the device panels the devices command prints.
	Panels []Panel
	// Echo prints each command before its output (scripts).
	Echo bool

	tl *Timeline
}

// ErrQuit is returned by Exec for "quit".
var ErrQuit = errors.New("quit")

// Help lists the commands.
const Help = `run control:
  c | continue [DURATION]     run until a breakpoint (default 30 s of simulated time)
  s | step [N]                one instruction (N times)
  cycles                      one instruction, shown machine cycle by machine cycle
                              (T-states from optable) with the bus edges in each
  ts | tstep [N]              move the T-state cursor N T-states (default 1) through the
                              instruction about to execute: machine cycle, T-state, address,
                              data, control pins, the accesses and bus edges in it; the
                              registers are as at the instruction's start; past its last
                              T-state the machine stands at the next instruction
  n | next                    step over a CALL, RST, DJNZ or repeating block instruction
  finish                      run until the current routine returns
  edge | byte | phase | command | busfree
                              run to the next SCSI bus edge, byte, phase, command, bus free
  fdcmd | index               run to the next WD1772 command, floppy index pulse
breakpoints:
  b | break ADDR [if EXPR]    execute breakpoint; EXPR in assembler syntax with registers, symbols, PEEK(addr)
  watch | rwatch | awatch FROM [TO]
                              stop after a write / read / either of a byte in FROM..TO
  break in|out PORT [VALUE]   I/O port breakpoint
  break phase NAME            COMMAND, DATAIN, DATAOUT, STATUS, MSGIN, MSGOUT, SELECTION, BUSFREE
  break cdb OPCODE [target ID] | break select [ID] | break reposition | break lost
  breaks | delete ID | enable ID | disable ID
editing:
  poke ADDR BYTE...           write memory (RAM, also beneath the ROM)
  set REGISTER EXPR           set a register (A, HL, SP, PC, AF', ...)
looking:
  regs | dis [ADDR] [N] | mem ADDR [N] | stack [N] | bt | history [N] | print EXPR | time
                              (ADDR: a symbol, hex number, or an expression: pc, sp+2, peekw(sp))
  devices                     the device panels: ACB-4000, MCD-403, WD1772
  ncr                         the 5380's registers, bit by bit
  bus                         the SCSI lines and the current phase
  phases [N] | commands [N]   decoded bus phases and commands
  timeline [SPAN] [COLS]      logic-analyser rows for the last SPAN (e.g. 200us)
  measure SIGNAL [AT]         cursors on two consecutive rising edges of SIGNAL at or after AT
                              (without AT: the last two so far)
console:
  save FILE | load FILE       the machine's state (docs/STATE.md)
  type TEXT                   type on the machine's terminal (\r for Return)
  console                     print what the machine printed
quit`

// Exec runs one command line.
func (x *Text) Exec(line string) error {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return nil
	}
	if x.Echo {
		fmt.Fprintf(x.Out, "> %s\n", line)
	}
	f := strings.Fields(line)
	cmd, args := strings.ToLower(f[0]), f[1:]
	d := x.D
	switch cmd {
	case "quit", "q", "exit":
		return ErrQuit
	case "help", "h", "?":
		fmt.Fprintln(x.Out, Help)
	case "c", "continue", "run":
		budget := ContinueLimit
		if len(args) > 0 {
			t, err := ParseDuration(args[0])
			if err != nil {
				return err
			}
			budget = t
		}
		st, err := d.Continue(budget)
		if err != nil {
			return err
		}
		if st == nil {
			fmt.Fprintf(x.Out, "%s  running (no stop within %s)\n", FormatTime(d.m.Now()), FormatDuration(budget))
		} else {
			x.report(st)
		}
	case "s", "step", "si":
		n := 1
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil || v < 1 {
				return fmt.Errorf("step %s: want a count", args[0])
			}
			n = v
		}
		var st *Stop
		for i := 0; i < n; i++ {
			var err error
			if st, err = d.StepInstruction(); err != nil {
				return err
			}
		}
		x.report(st)
		x.showNext()
	case "cycles":
		return x.cycles()
	case "ts", "tstep":
		n := 1
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil || v < 1 {
				return fmt.Errorf("tstep %s: want a count", args[0])
			}
			n = v
		}
		return x.tstep(n)
	case "n", "next", "over":
		return x.step(d.StepOver)
	case "finish", "out":
		return x.step(d.StepOut)
	case "edge":
		return x.step(d.StepEdge)
	case "byte":
		return x.step(d.StepByte)
	case "phase":
		return x.step(d.StepPhase)
	case "command", "cmd":
		return x.step(d.StepCommand)
	case "busfree":
		return x.step(d.StepBusFree)
	case "fdcmd":
		return x.step(d.StepFloppyCommand)
	case "index":
		return x.step(d.StepIndex)
	case "b", "break", "bp":
		return x.breakCmd(args)
	case "watch", "rwatch", "awatch":
		if len(args) < 1 {
			return fmt.Errorf("%s FROM [TO]", cmd)
		}
		from, err := d.Address(args[0])
		if err != nil {
			return err
		}
		to := from
		if len(args) > 1 {
			if to, err = d.Address(args[1]); err != nil {
				return err
			}
		}
		bp, err := d.WatchMem(from, to, cmd != "watch", cmd != "rwatch")
		if err != nil {
			return err
		}
		fmt.Fprintf(x.Out, "breakpoint %s\n", bp)
	case "breaks", "info":
		for _, bp := range d.Breakpoints() {
			fmt.Fprintln(x.Out, bp)
		}
	case "delete", "enable", "disable":
		if len(args) != 1 {
			return fmt.Errorf("%s ID", cmd)
		}
		id, err := strconv.Atoi(args[0])
		if err != nil {
			return fmt.Errorf("%s %s: want a breakpoint number", cmd, args[0])
		}
		if cmd == "delete" {
			return d.Delete(id)
		}
		return d.Enable(id, cmd == "enable")
	case "regs", "r":
		if c := d.Cursor(); c != nil {
			fmt.Fprintln(x.Out, RegsText(c.Regs))
			fmt.Fprintln(x.Out, "(as at the start of the instruction under the T-state cursor: the CPU model has none inside it)")
			break
		}
		fmt.Fprintln(x.Out, RegsText(d.m.Regs()))
	case "dis", "d", "u":
		addr, n := d.PC(), 10
		if len(args) > 0 {
			a, err := d.Address(args[0])
			if err != nil {
				return err
			}
			addr = a
		}
		if len(args) > 1 {
			v, err := strconv.Atoi(args[1])
			if err != nil {
				return fmt.Errorf("dis: count %q", args[1])
			}
			n = v
		}
		for _, l := range d.Disassemble(addr, n) {
			fmt.Fprintln(x.Out, l)
		}
	case "mem", "m", "x":
		if len(args) < 1 {
			return errors.New("mem ADDR [N]")
		}
		addr, err := d.Address(args[0])
		if err != nil {
			return err
		}
		n := 64
		if len(args) > 1 {
			if n, err = strconv.Atoi(args[1]); err != nil {
				return fmt.Errorf("mem: count %q", args[1])
			}
		}
		x.dump(addr, n)
	case "stack":
		n := 8
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil {
				return fmt.Errorf("stack: count %q", args[0])
			}
			n = v
		}
		sp := d.m.Regs().SP
		for i := 0; i < n; i++ {
			a := sp + uint16(2*i)
			w := uint16(d.m.Peek(a)) | uint16(d.m.Peek(a+1))<<8
			fmt.Fprintf(x.Out, "%04X  %04X  %s\n", a, w, d.Syms.Label(w))
		}
	case "bt", "backtrace":
		fmt.Fprintf(x.Out, "#0  %s\n", d.Syms.Label(d.PC()))
		for i, f := range d.Backtrace(16, 256) {
			fmt.Fprintf(x.Out, "#%d  %s  (called %s; return address at SP %04X)\n", i+1, d.Syms.Label(f.Call), d.Syms.Label(f.Target), f.SP)
		}
	case "history":
		n := 16
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil {
				return fmt.Errorf("history: count %q", args[0])
			}
			n = v
		}
		for _, h := range d.History(n) {
			fmt.Fprintf(x.Out, "T=%-12d %s\n", h.T, d.Syms.Label(h.PC))
		}
	case "poke":
		if len(args) < 2 {
			return errors.New("poke ADDR BYTE...")
		}
		addr, err := d.Address(args[0])
		if err != nil {
			return err
		}
		var p []byte
		for _, a := range args[1:] {
			v, err := parseByte(a)
			if err != nil {
				return err
			}
			p = append(p, v)
		}
		if err := d.Poke(addr, p); err != nil {
			return err
		}
		x.dump(addr, len(p))
	case "set":
		if len(args) < 2 {
			return errors.New("set REGISTER EXPR")
		}
		v, err := d.Eval(strings.Join(args[1:], " "))
		if err != nil {
			return err
		}
		if err := d.SetReg(args[0], v); err != nil {
			return err
		}
		fmt.Fprintln(x.Out, RegsText(d.m.Regs()))
	case "print", "p", "eval":
		v, err := d.Eval(strings.Join(args, " "))
		if err != nil {
			return err
		}
		fmt.Fprintf(x.Out, "%04Xh %d\n", v, v)
	case "save", "load":
		if len(args) != 1 {
			return fmt.Errorf("%s FILE", cmd)
		}
		if cmd == "save" {
			return saveState(d, args[0])
		}
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		if err := d.LoadState(f, args[0]); err != nil {
			return err
		}
		fmt.Fprintf(x.Out, "loaded %s: %s\n", args[0], FormatTime(d.m.Now()))
	case "time":
		fmt.Fprintf(x.Out, "%s (T-state %d)\n", FormatTime(d.m.Now()), d.m.Now()/sched.TState)
	case "devices", "dev":
		if len(x.Panels) == 0 {
			return errors.New("no device panels on this machine")
		}
		c := d.Cursor()
		if c != nil && len(c.Panels()) == len(x.Panels) {
			fmt.Fprintf(x.Out, "(at the T-state cursor, %s)\n", FormatTime(c.Time()))
		}
		for i, p := range x.Panels {
			fmt.Fprintln(x.Out, p.Title())
			lines := p.Lines()
			if c != nil && len(c.Panels()) == len(x.Panels) {
				lines = c.Panels()[i]
			}
			for _, l := range lines {
				fmt.Fprintln(x.Out, "  "+l)
			}
		}
	case "ncr", "5380":
		if x.Chip == nil {
			return errors.New("no 5380 on this machine")
		}
		regs := Chip5380(x.Chip)
		if c := d.Cursor(); c != nil && c.Chip() != nil {
			regs = c.Chip()
			fmt.Fprintf(x.Out, "(at the T-state cursor, %s)\n", FormatTime(c.Time()))
		}
		for _, r := range regs {
			fmt.Fprintln(x.Out, r)
		}
	case "bus":
		if c := d.Cursor(); c != nil {
			sig, data := c.Signals()
			fmt.Fprintf(x.Out, "%s  db=%02X  (at the T-state cursor, %s)\n", sig, data, FormatTime(c.Time()))
			break
		}
		sig, data := d.Rec.Signals()
		ph := "BUS FREE"
		if c := d.Rec.Current(); c != nil {
			ph = c.Phase.String()
		}
		fmt.Fprintf(x.Out, "%s  db=%02X  phase %s\n", sig, data, ph)
	case "phases":
		n := 8
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil {
				return fmt.Errorf("phases: count %q", args[0])
			}
			n = v
		}
		segs := d.Rec.Segments(0, sched.MaxTime)
		for _, s := range segs[max(0, len(segs)-n):] {
			fmt.Fprintln(x.Out, d.SegmentLine(&s))
		}
	case "commands":
		n := 8
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil {
				return fmt.Errorf("commands: count %q", args[0])
			}
			n = v
		}
		cmds := d.Rec.Commands(0, sched.MaxTime)
		for _, c := range cmds[max(0, len(cmds)-n):] {
			fmt.Fprintln(x.Out, d.CommandLine(&c))
		}
	case "timeline", "tl":
		span, cols := 200*sched.Microsecond, 100
		if len(args) > 0 {
			t, err := ParseDuration(args[0])
			if err != nil {
				return err
			}
			span = t
		}
		if len(args) > 1 {
			v, err := strconv.Atoi(args[1])
			if err != nil || v < 10 || v > 1000 {
				return fmt.Errorf("timeline: columns %q (10-1000)", args[1])
			}
			cols = v
		}
		tl := NewTimeline(d.m.Now(), span)
		tl.WriteText(x.Out, d.Rec, d.kind, cols)
	case "measure":
		if len(args) < 1 {
			return errors.New("measure SIGNAL [AT]")
		}
		s, err := ParseSignal(args[0])
		if err != nil {
			return err
		}
		// Without AT: the last two edges so far, the handshake just seen.
		at := d.Rec.Oldest()
		now := d.m.Now()
		for span := 100 * sched.Microsecond; ; span *= 10 {
			from := max(d.Rec.Oldest(), now-min(now, span))
			if r := d.Rec.Rising(s, from, now+1); len(r) >= 2 {
				at = r[len(r)-2]
				break
			}
			if from == d.Rec.Oldest() {
				break
			}
		}
		if len(args) > 1 {
			if at, err = ParseDuration(args[1]); err != nil {
				return err
			}
		}
		if x.tl == nil {
			x.tl = NewTimeline(d.m.Now(), 100*sched.Microsecond)
		}
		dt, err := x.tl.CursorsOnConsecutive(d.Rec, s, at)
		if err != nil {
			return err
		}
		fmt.Fprintf(x.Out, "A %s  B %s  B-A %s\n", FormatTime(x.tl.A), FormatTime(x.tl.B), FormatDuration(dt))
	case "type":
		if x.ConsoleIn == nil {
			return errors.New("no console")
		}
		text := strings.TrimSpace(line[len(f[0]):])
		text = strings.NewReplacer(`\r`, "\r", `\n`, "\n", `\\`, `\`).Replace(text)
		x.ConsoleIn([]byte(text))
	case "console":
		if x.ConsoleOut == nil {
			return errors.New("no console")
		}
		fmt.Fprintf(x.Out, "%s\n", strings.ReplaceAll(string(x.ConsoleOut()), "\r", ""))
	default:
		return fmt.Errorf("unknown command %q (help lists them)", f[0])
	}
	return nil
}

// cycles runs one instruction and lists its machine cycles (optable's
// cycle pattern, placed at the T-state the instruction began) with the
// recorded edges that fell in each: the CPU executes whole instructions,
// and this is the finest view of one.
func (x *Text) cycles() error {
	d := x.D
	d.leaveCursor() // the instruction under a T-state cursor has run
	pc := d.PC()
	code := d.code(pc)
	t0 := d.m.Now()
	in := d.Disassemble(pc, 1)[0]
	if _, err := d.StepInstruction(); err != nil {
		return err
	}
	t1 := d.m.Now()
	n := int((t1 - t0) / sched.TState)
	info := optable.Lookup(code)
	cyc := info.Cycles
	if n < info.T && info.NAlt > 0 && info.NAlt < len(cyc) {
		cyc = cyc[:info.NAlt]
	}
	fmt.Fprintf(x.Out, "%s  %s: %d T-states (%s .. %s)\n", d.Syms.Label(pc), in.Text, n, FormatTime(t0), FormatTime(t1))
	edges := d.Rec.Edges(t0, t1)[1:]
	for i, c := range cyc {
		start := t0 + sched.Time(c.Start)*sched.TState
		end := t1
		if i+1 < len(cyc) {
			end = t0 + sched.Time(cyc[i+1].Start)*sched.TState
		}
		fmt.Fprintf(x.Out, "  T%-3d %-3s %s\n", c.Start, c.Kind, FormatTime(start))
		for _, e := range edges {
			if e.T >= start && e.T < end {
				fmt.Fprintf(x.Out, "         +%-8s %s db=%02X\n", FormatDuration(e.T-start), e.Sig, e.Data)
			}
		}
	}
	if n != info.T && n != info.TAlt {
		fmt.Fprintf(x.Out, "  (%d wait or interrupt T-states beyond the table's %d)\n", n-info.T, info.T)
	}
	return nil
}

// tstep moves the T-state cursor and lists each T-state it passed, with a
// heading for each instruction it entered, then where the cursor stands.
func (x *Text) tstep(n int) error {
	d := x.D
	passed, st, err := d.TStep(n)
	if err != nil {
		return err
	}
	for _, p := range passed {
		if p.C == nil {
			if p.Boundary != st {
				fmt.Fprintf(x.Out, "  %s  %s (instruction boundary)\n", FormatTime(p.Boundary.T), p.Boundary.Text)
			}
			continue
		}
		if p.K == 0 {
			what := p.C.Text
			if p.C.Interrupt {
				what = "interrupt acknowledge"
			}
			fmt.Fprintf(x.Out, "%s  %s: %d T-states (%s .. %s); registers as at its start\n", d.Syms.Label(p.C.PC), what,
				len(p.C.States), FormatTime(p.C.T0), FormatTime(p.C.T1))
		}
		fmt.Fprintf(x.Out, "  %s\n", p.C.Line(p.K))
	}
	if st != nil {
		x.report(st)
		x.showNext()
		return nil
	}
	if c := d.Cursor(); c != nil {
		sig, data := c.Signals()
		fmt.Fprintf(x.Out, "  cursor: %s; bus %s db=%02X\n", c.Header(d.Syms), sig, data)
	}
	return nil
}

func (x *Text) step(f func() (*Stop, error)) error {
	st, err := f()
	if err != nil {
		return err
	}
	x.report(st)
	return nil
}

// report prints a stop: for a phase stop, the phase that ended first.
func (x *Text) report(st *Stop) {
	if st == nil {
		return
	}
	if st.Ended != nil && st.Ended.End != 0 {
		fmt.Fprintln(x.Out, x.D.SegmentLine(st.Ended))
	}
	fmt.Fprintf(x.Out, "%14s  %s   [pc %s]\n", FormatTime(st.T), st.Text, x.D.Syms.Label(x.D.PC()))
}

func (x *Text) showNext() {
	for _, l := range x.D.Disassemble(x.D.PC(), 1) {
		fmt.Fprintln(x.Out, l)
	}
}

func (x *Text) dump(addr uint16, n int) {
	for i := 0; i < n; i += 16 {
		var hex, asc strings.Builder
		for j := 0; j < 16 && i+j < n; j++ {
			v := x.D.PeekView(addr + uint16(i+j))
			fmt.Fprintf(&hex, "%02X ", v)
			if v >= 0x20 && v < 0x7F {
				asc.WriteByte(v)
			} else {
				asc.WriteByte('.')
			}
		}
		fmt.Fprintf(x.Out, "%04X  %-48s %s\n", addr+uint16(i), hex.String(), asc.String())
	}
}

func (x *Text) breakCmd(args []string) error {
	d := x.D
	if len(args) == 0 {
		return errors.New("break ADDR [if EXPR] | in|out PORT [VALUE] | phase NAME | cdb OPCODE [target ID] | select [ID] | reposition | lost")
	}
	var bp *Breakpoint
	switch strings.ToLower(args[0]) {
	case "in", "out":
		if len(args) < 2 {
			return fmt.Errorf("break %s PORT [VALUE]", args[0])
		}
		port, err := parseByte(args[1])
		if err != nil {
			return err
		}
		val := -1
		if len(args) > 2 {
			v, err := parseByte(args[2])
			if err != nil {
				return err
			}
			val = int(v)
		}
		bp = d.BreakIOPort(port, strings.EqualFold(args[0], "out"), val)
	case "phase":
		if len(args) < 2 {
			return errors.New("break phase NAME")
		}
		p, err := ParsePhase(args[1])
		if err != nil {
			return err
		}
		bp = d.BreakOnPhase(p)
	case "cdb":
		if len(args) < 2 {
			return errors.New("break cdb OPCODE [target ID]")
		}
		op := -1
		if args[1] != "any" {
			v, err := parseByte(args[1])
			if err != nil {
				return err
			}
			op = int(v)
		}
		target := -1
		if len(args) > 3 && strings.EqualFold(args[2], "target") {
			v, err := strconv.Atoi(args[3])
			if err != nil || v < 0 || v > 7 {
				return fmt.Errorf("target %q: want 0-7", args[3])
			}
			target = v
		}
		bp = d.BreakOnCDB(op, target)
	case "select":
		target := -1
		if len(args) > 1 {
			v, err := strconv.Atoi(args[1])
			if err != nil || v < 0 || v > 7 {
				return fmt.Errorf("select %q: want a target ID 0-7", args[1])
			}
			target = v
		}
		bp = d.BreakOnSelect(target)
	case "reposition":
		if x.Repositions == nil {
			return errors.New("break reposition: no tape drive on this machine")
		}
		bp = d.BreakOnCounter("tape reposition", x.Repositions)
	case "lost":
		var err error
		if bp, err = d.BreakOnLost(); err != nil {
			return err
		}
	default:
		addr, err := d.Address(args[0])
		if err != nil {
			return err
		}
		cond := ""
		if len(args) > 1 {
			if !strings.EqualFold(args[1], "if") || len(args) < 3 {
				return errors.New("break ADDR [if EXPR]")
			}
			cond = strings.Join(args[2:], " ")
		}
		if bp, err = d.BreakExecAt(addr, cond); err != nil {
			return err
		}
	}
	fmt.Fprintf(x.Out, "breakpoint %s\n", bp)
	return nil
}

// CommandLine renders a decoded command.
func (d *Debugger) CommandLine(c *Command) string {
	s := fmt.Sprintf("%14s  target %d  %s", FormatTime(c.Start), c.Target, DecodeCDB(c.Bytes(), d.kind(c.Target)))
	if c.DataIn > 0 {
		s += fmt.Sprintf(", DATA IN %d bytes", c.DataIn)
	}
	if c.DataOut > 0 {
		s += fmt.Sprintf(", DATA OUT %d bytes", c.DataOut)
	}
	if c.Status >= 0 {
		s += ", " + StatusName(c.Status)
	}
	if c.End != 0 {
		s += "  (" + FormatDuration(c.End-c.Start) + ")"
	}
	return s
}

// Run reads commands from r until EOF or quit. Errors of single commands
// are printed and the session goes on, unless stopOnError (scripts): then
// the error is returned with its line number.
func (x *Text) Run(r io.Reader, prompt string, stopOnError bool) error {
	sc := bufio.NewScanner(r)
	for ln := 1; ; ln++ {
		if prompt != "" {
			fmt.Fprint(x.Out, prompt)
		}
		if !sc.Scan() {
			return sc.Err()
		}
		err := x.Exec(sc.Text())
		if errors.Is(err, ErrQuit) {
			return nil
		}
		if err != nil {
			if stopOnError {
				return fmt.Errorf("line %d: %w", ln, err)
			}
			fmt.Fprintln(x.Out, "error:", err)
		}
	}
}

// saveState writes the machine's state to path, durably: a temporary file
// synced and renamed over path, so a failed save never leaves half a file.
func saveState(d *Debugger, path string) error {
	// A unique temporary beside path: a fixed PATH.tmp could be a file of
	// the user's.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	tmp := f.Name()
	err = d.SaveState(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// SaveStateFile is saveState for the window.
func SaveStateFile(d *Debugger, path string) error { return saveState(d, path) }

func parseByte(s string) (uint8, error) {
	v, err := (&Symbols{}).Address(s)
	if err != nil || v > 0xFF {
		return 0, fmt.Errorf("%q: want a byte in hexadecimal (28, 28h, 0x28)", s)
	}
	return uint8(v), nil
}

// ParsePhase reads a phase name (COMMAND, DATAIN or "DATA IN", ...).
func ParsePhase(s string) (scsi.Phase, error) {
	u := strings.ToUpper(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s))
	for p := scsi.DataOut; p <= scsi.Selection; p++ {
		if strings.ReplaceAll(p.String(), " ", "") == u {
			return p, nil
		}
	}
	switch u {
	case "MSGIN":
		return scsi.MsgIn, nil
	case "MSGOUT":
		return scsi.MsgOut, nil
	}
	return 0, fmt.Errorf("unknown phase %q", s)
}

// ParseSignal reads a signal name (BSY, REQ, ACK, DRQ, ...).
func ParseSignal(s string) (Signal, error) {
	u := strings.ToUpper(s)
	for i := 0; i < 32; i++ {
		if sig := Signal(1) << i; sig.Name() == u {
			return sig, nil
		}
	}
	switch u {
	case "CD":
		return Signal(scsi.CD), nil
	case "IO":
		return Signal(scsi.IO), nil
	}
	return 0, fmt.Errorf("unknown signal %q", s)
}

// ParseDuration reads simulated time: 250ns, 15us, 10ms, 2s, or a bare
// number of microseconds.
func ParseDuration(s string) (sched.Time, error) {
	units := []struct {
		suf string
		u   sched.Time
	}{{"ns", sched.Nanosecond}, {"us", sched.Microsecond}, {"ms", sched.Millisecond}, {"s", sched.Second}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suf) {
			v, err := strconv.ParseFloat(strings.TrimSuffix(s, u.suf), 64)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("duration %q: want e.g. 250ns, 15us, 10ms, 2s", s)
			}
			return sched.Time(v * float64(u.u)), nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("duration %q: want e.g. 250ns, 15us, 10ms, 2s", s)
	}
	return sched.Time(v * float64(sched.Microsecond)), nil
}
