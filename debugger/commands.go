package debugger

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/lbplus/lbplus/sched"
)

// TextCommand is one command of the text front-end: the table of them is what
// Exec runs, what help prints and what a prompt completes, so the three
// cannot disagree.
type TextCommand struct {
	// Names are the command's name and its aliases, in the order help
	// shows them ("ts | tstep").
	Names []string
	// Args is the argument synopsis ("ADDR [N]").
	Args string
	// Help says what the command does.
	Help string
	// Group is the heading help lists the command under.
	Group string
	run   func(x *Text, c *call) error
}

// call is one command line as a command's function sees it.
type call struct {
	name string   // the name typed, lower case
	args []string // the words after it
	rest string   // the line after the name, spaces kept (type)
}

// count reads the optional count argument i (def without it).
func (c *call) count(i, def int) (int, error) {
	if len(c.args) <= i {
		return def, nil
	}
	v, err := strconv.Atoi(c.args[i])
	if err != nil {
		return 0, fmt.Errorf("%s: count %q", c.name, c.args[i])
	}
	return v, nil
}

// Synopsis is the command's names and arguments as help shows them.
func (c *TextCommand) Synopsis() string {
	s := strings.Join(c.Names, " | ")
	if c.Args != "" {
		s += " " + c.Args
	}
	return s
}

// The groups of help, in its order.
const (
	groupRun    = "run control"
	groupBreak  = "breakpoints"
	groupEdit   = "editing"
	groupLook   = "looking"
	groupDevice = "devices and the bus"
	groupState  = "state and console"
	groupMisc   = "session"
)

var groupOrder = []string{groupRun, groupBreak, groupEdit, groupLook, groupDevice, groupState, groupMisc}

// commands is the table; byName indexes it by every name (init: the help
// command reads the table it is in).
var (
	commands []TextCommand
	byName   map[string]*TextCommand
)

func init() {
	commands = commandTable()
	byName = map[string]*TextCommand{}
	for i := range commands {
		for _, n := range commands[i].Names {
			if byName[n] != nil {
				panic("debugger: command name " + n + " twice in the table")
			}
			byName[n] = &commands[i]
		}
	}
}

// TextCommands returns the text front-end's commands, in help's order.
func TextCommands() []TextCommand { return slices.Clone(commands) }

func lookup(name string) *TextCommand { return byName[strings.ToLower(name)] }

// CommandNamed returns the command one of whose names is name (any case).
func CommandNamed(name string) (TextCommand, bool) {
	if c := lookup(name); c != nil {
		return *c, true
	}
	return TextCommand{}, false
}

// Complete returns the command names (aliases included) that start with
// prefix, sorted: a prompt's Tab completion.
func Complete(prefix string) []string {
	prefix = strings.ToLower(prefix)
	var out []string
	for n := range byName {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// helpSynopsisW is the width of help's synopsis column; a longer synopsis
// puts its help on the next line.
const (
	helpSynopsisW = 28
	helpWidth     = 80
)

// HelpText is the help command's text, made from the table: each group
// with its commands' synopses and help, wrapped at word boundaries.
func HelpText() string {
	var b strings.Builder
	for _, g := range groupOrder {
		fmt.Fprintf(&b, "%s:\n", g)
		for i := range commands {
			c := &commands[i]
			if c.Group != g {
				continue
			}
			syn := "  " + c.Synopsis()
			lines := wrapWords(c.Help, helpWidth-helpSynopsisW-2)
			if len(syn) > helpSynopsisW {
				b.WriteString(syn + "\n")
				syn = ""
			}
			for _, l := range lines {
				fmt.Fprintf(&b, "%-*s  %s\n", helpSynopsisW, syn, l)
				syn = ""
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// wrapWords breaks s into lines of at most n characters at spaces (a word
// longer than n stands alone on its line).
func wrapWords(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func commandTable() []TextCommand {
	step := func(f func(d *Debugger) func() (*Stop, error)) func(x *Text, c *call) error {
		return func(x *Text, c *call) error { return x.step(f(x.D)) }
	}
	return []TextCommand{
		{Names: []string{"c", "continue", "run"}, Args: "[DURATION]", Group: groupRun,
			Help: "run until a breakpoint (default 30 s of simulated time)", run: (*Text).continueCmd},
		{Names: []string{"s", "step", "si"}, Args: "[N]", Group: groupRun,
			Help: "one instruction (N times)", run: (*Text).stepCmd},
		{Names: []string{"cycles"}, Group: groupRun,
			Help: "one instruction, shown machine cycle by machine cycle (T-states from optable) with the bus edges in each",
			run:  func(x *Text, _ *call) error { return x.cycles() }},
		{Names: []string{"ts", "tstep"}, Args: "[N]", Group: groupRun,
			Help: "move the T-state cursor N T-states (default 1) through the instruction about to execute: machine cycle, " +
				"T-state, address, data, control pins, the accesses and bus edges in it; the registers are as at the " +
				"instruction's start; past its last T-state the machine stands at the next instruction",
			run: (*Text).tstepCmd},
		{Names: []string{"n", "next", "over"}, Group: groupRun,
			Help: "step over a CALL, RST, DJNZ or repeating block instruction", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepOver })},
		{Names: []string{"finish", "out"}, Group: groupRun,
			Help: "run until the current routine returns", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepOut })},
		{Names: []string{"edge"}, Group: groupRun,
			Help: "run to the next SCSI bus edge", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepEdge })},
		{Names: []string{"byte"}, Group: groupRun,
			Help: "run to the next byte on the SCSI bus", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepByte })},
		{Names: []string{"phase"}, Group: groupRun,
			Help: "run to the next SCSI bus phase", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepPhase })},
		{Names: []string{"command", "cmd"}, Group: groupRun,
			Help: "run to the next SCSI command", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepCommand })},
		{Names: []string{"busfree"}, Group: groupRun,
			Help: "run to the next bus free", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepBusFree })},
		{Names: []string{"fdcmd"}, Group: groupRun,
			Help: "run to the next WD1772 command", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepFloppyCommand })},
		{Names: []string{"index"}, Group: groupRun,
			Help: "run to the next floppy index pulse", run: step(func(d *Debugger) func() (*Stop, error) { return d.StepIndex })},

		{Names: []string{"b", "break", "bp"}, Args: "ADDR [if EXPR]", Group: groupBreak,
			Help: "execute breakpoint; EXPR in assembler syntax with registers, symbols, PEEK(addr). Also: " +
				"break in|out PORT [VALUE] (I/O port); break phase NAME (COMMAND, DATAIN, DATAOUT, STATUS, MSGIN, " +
				"MSGOUT, SELECTION, BUSFREE); break cdb OPCODE [target ID]; break select [ID]; break reposition; break lost",
			run: func(x *Text, c *call) error { return x.breakCmd(c.args) }},
		{Names: []string{"watch"}, Args: "FROM [TO]", Group: groupBreak,
			Help: "stop after a write of a byte in FROM..TO", run: (*Text).watchCmd},
		{Names: []string{"rwatch"}, Args: "FROM [TO]", Group: groupBreak,
			Help: "stop after a read of a byte in FROM..TO", run: (*Text).watchCmd},
		{Names: []string{"awatch"}, Args: "FROM [TO]", Group: groupBreak,
			Help: "stop after a read or write of a byte in FROM..TO", run: (*Text).watchCmd},
		{Names: []string{"breaks", "info"}, Group: groupBreak,
			Help: "list the breakpoints", run: func(x *Text, _ *call) error {
				for _, bp := range x.D.Breakpoints() {
					fmt.Fprintln(x.Out, bp)
				}
				return nil
			}},
		{Names: []string{"delete"}, Args: "ID", Group: groupBreak, Help: "remove breakpoint ID", run: (*Text).breakIDCmd},
		{Names: []string{"enable"}, Args: "ID", Group: groupBreak, Help: "switch breakpoint ID on", run: (*Text).breakIDCmd},
		{Names: []string{"disable"}, Args: "ID", Group: groupBreak, Help: "switch breakpoint ID off", run: (*Text).breakIDCmd},

		{Names: []string{"poke"}, Args: "ADDR BYTE...", Group: groupEdit,
			Help: "write memory (RAM, also beneath the ROM)", run: (*Text).pokeCmd},
		{Names: []string{"set"}, Args: "REGISTER EXPR", Group: groupEdit,
			Help: "set a register (A, HL, SP, PC, AF', ...)", run: (*Text).setCmd},

		{Names: []string{"regs", "r"}, Group: groupLook, Help: "the CPU's registers", run: (*Text).regsCmd},
		{Names: []string{"dis", "d", "u"}, Args: "[ADDR] [N]", Group: groupLook,
			Help: "disassemble N instructions (default 10) from ADDR (default PC); ADDR is a symbol, a hex number or an " +
				"expression: pc, sp+2, peekw(sp)", run: (*Text).disCmd},
		{Names: []string{"mem", "m", "x"}, Args: "ADDR [N]", Group: groupLook,
			Help: "dump N bytes (default 64) of memory from ADDR", run: (*Text).memCmd},
		{Names: []string{"stack"}, Args: "[N]", Group: groupLook, Help: "the N words (default 8) at SP", run: (*Text).stackCmd},
		{Names: []string{"bt", "backtrace"}, Group: groupLook, Help: "the calls that led here", run: (*Text).btCmd},
		{Names: []string{"history"}, Args: "[N]", Group: groupLook,
			Help: "the last N instructions executed (default 16)", run: (*Text).historyCmd},
		{Names: []string{"print", "p", "eval"}, Args: "EXPR", Group: groupLook,
			Help: "the value of EXPR in hexadecimal and decimal", run: (*Text).printCmd},
		{Names: []string{"time"}, Group: groupLook, Help: "the simulated time and T-state", run: func(x *Text, _ *call) error {
			now := x.D.m.Now()
			fmt.Fprintf(x.Out, "%s (T-state %d)\n", FormatTime(now), now/sched.TState)
			return nil
		}},

		{Names: []string{"devices", "dev"}, Group: groupDevice,
			Help: "the device panels: ACB-4000, MCD-403, WD1772", run: (*Text).devicesCmd},
		{Names: []string{"ncr", "5380"}, Group: groupDevice, Help: "the 5380's registers, bit by bit", run: (*Text).ncrCmd},
		{Names: []string{"bus"}, Group: groupDevice, Help: "the SCSI lines and the current phase", run: (*Text).busCmd},
		{Names: []string{"phases"}, Args: "[N]", Group: groupDevice,
			Help: "the last N decoded bus phases (default 8)", run: (*Text).phasesCmd},
		{Names: []string{"commands"}, Args: "[N]", Group: groupDevice,
			Help: "the last N decoded SCSI commands (default 8)", run: (*Text).commandsCmd},
		{Names: []string{"timeline", "tl"}, Args: "[SPAN] [COLS]", Group: groupDevice,
			Help: "logic-analyser rows for the last SPAN (default 200us) in COLS columns (default 100)", run: (*Text).timelineCmd},
		{Names: []string{"measure"}, Args: "SIGNAL [AT]", Group: groupDevice,
			Help: "cursors on two consecutive rising edges of SIGNAL at or after AT (without AT: the last two so far)",
			run:  (*Text).measureCmd},

		{Names: []string{"save"}, Args: "FILE", Group: groupState,
			Help: "save the machine's state (docs/STATE.md)", run: (*Text).saveLoadCmd},
		{Names: []string{"load"}, Args: "FILE", Group: groupState,
			Help: "load the machine's state (docs/STATE.md)", run: (*Text).saveLoadCmd},
		{Names: []string{"type"}, Args: "TEXT", Group: groupState,
			Help: `type on the machine's terminal (\r for Return)`, run: (*Text).typeCmd},
		{Names: []string{"console"}, Group: groupState, Help: "print what the machine printed", run: (*Text).consoleCmd},

		{Names: []string{"help", "h", "?"}, Group: groupMisc, Help: "this list", run: func(x *Text, _ *call) error {
			fmt.Fprintln(x.Out, HelpText())
			return nil
		}},
		{Names: []string{"quit", "q", "exit"}, Group: groupMisc, Help: "end the session",
			run: func(*Text, *call) error { return ErrQuit }},
	}
}

func (x *Text) continueCmd(c *call) error {
	d := x.D
	budget := ContinueLimit
	if len(c.args) > 0 {
		t, err := ParseDuration(c.args[0])
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
	return nil
}

// positive reads the optional count argument 0 of a stepping command,
// which must be at least 1.
func (c *call) positive() (int, error) {
	if len(c.args) == 0 {
		return 1, nil
	}
	v, err := strconv.Atoi(c.args[0])
	if err != nil || v < 1 {
		return 0, fmt.Errorf("%s %s: want a count", c.name, c.args[0])
	}
	return v, nil
}

func (x *Text) stepCmd(c *call) error {
	c.name = "step"
	n, err := c.positive()
	if err != nil {
		return err
	}
	var st *Stop
	for i := 0; i < n; i++ {
		if st, err = x.D.StepInstruction(); err != nil {
			return err
		}
	}
	x.report(st)
	x.showNext()
	return nil
}

func (x *Text) tstepCmd(c *call) error {
	c.name = "tstep"
	n, err := c.positive()
	if err != nil {
		return err
	}
	return x.tstep(n)
}

func (x *Text) watchCmd(c *call) error {
	d := x.D
	if len(c.args) < 1 {
		return fmt.Errorf("%s FROM [TO]", c.name)
	}
	from, err := d.Address(c.args[0])
	if err != nil {
		return err
	}
	to := from
	if len(c.args) > 1 {
		if to, err = d.Address(c.args[1]); err != nil {
			return err
		}
	}
	bp, err := d.WatchMem(from, to, c.name != "watch", c.name != "rwatch")
	if err != nil {
		return err
	}
	fmt.Fprintf(x.Out, "breakpoint %s\n", bp)
	return nil
}

func (x *Text) breakIDCmd(c *call) error {
	if len(c.args) != 1 {
		return fmt.Errorf("%s ID", c.name)
	}
	id, err := strconv.Atoi(c.args[0])
	if err != nil {
		return fmt.Errorf("%s %s: want a breakpoint number", c.name, c.args[0])
	}
	if c.name == "delete" {
		return x.D.Delete(id)
	}
	return x.D.Enable(id, c.name == "enable")
}

func (x *Text) regsCmd(*call) error {
	if c := x.D.Cursor(); c != nil {
		fmt.Fprintln(x.Out, RegsText(c.Regs))
		fmt.Fprintln(x.Out, "(as at the start of the instruction under the T-state cursor: the CPU model has none inside it)")
		return nil
	}
	fmt.Fprintln(x.Out, RegsText(x.D.m.Regs()))
	return nil
}

func (x *Text) disCmd(c *call) error {
	d := x.D
	addr, n := d.PC(), 10
	if len(c.args) > 0 {
		a, err := d.Address(c.args[0])
		if err != nil {
			return err
		}
		addr = a
	}
	if len(c.args) > 1 {
		v, err := strconv.Atoi(c.args[1])
		if err != nil {
			return fmt.Errorf("dis: count %q", c.args[1])
		}
		n = v
	}
	for _, l := range d.Disassemble(addr, n) {
		fmt.Fprintln(x.Out, l)
	}
	return nil
}

func (x *Text) memCmd(c *call) error {
	if len(c.args) < 1 {
		return errors.New("mem ADDR [N]")
	}
	addr, err := x.D.Address(c.args[0])
	if err != nil {
		return err
	}
	c.name = "mem"
	n, err := c.count(1, 64)
	if err != nil {
		return err
	}
	x.dump(addr, n)
	return nil
}

func (x *Text) stackCmd(c *call) error {
	c.name = "stack"
	n, err := c.count(0, 8)
	if err != nil {
		return err
	}
	d := x.D
	sp := d.m.Regs().SP
	for i := 0; i < n; i++ {
		a := sp + uint16(2*i)
		w := uint16(d.m.Peek(a)) | uint16(d.m.Peek(a+1))<<8
		fmt.Fprintf(x.Out, "%04X  %04X  %s\n", a, w, d.Syms.Label(w))
	}
	return nil
}

func (x *Text) btCmd(*call) error {
	d := x.D
	fmt.Fprintf(x.Out, "#0  %s\n", d.Syms.Label(d.PC()))
	for i, f := range d.Backtrace(16, 256) {
		fmt.Fprintf(x.Out, "#%d  %s  (called %s; return address at SP %04X)\n", i+1, d.Syms.Label(f.Call), d.Syms.Label(f.Target), f.SP)
	}
	return nil
}

func (x *Text) historyCmd(c *call) error {
	n, err := c.count(0, 16)
	if err != nil {
		return err
	}
	for _, h := range x.D.History(n) {
		fmt.Fprintf(x.Out, "T=%-12d %s\n", h.T, x.D.Syms.Label(h.PC))
	}
	return nil
}

func (x *Text) pokeCmd(c *call) error {
	if len(c.args) < 2 {
		return errors.New("poke ADDR BYTE...")
	}
	addr, err := x.D.Address(c.args[0])
	if err != nil {
		return err
	}
	var p []byte
	for _, a := range c.args[1:] {
		v, err := parseByte(a)
		if err != nil {
			return err
		}
		p = append(p, v)
	}
	if err := x.D.Poke(addr, p); err != nil {
		return err
	}
	x.dump(addr, len(p))
	return nil
}

func (x *Text) setCmd(c *call) error {
	if len(c.args) < 2 {
		return errors.New("set REGISTER EXPR")
	}
	v, err := x.D.Eval(strings.Join(c.args[1:], " "))
	if err != nil {
		return err
	}
	if err := x.D.SetReg(c.args[0], v); err != nil {
		return err
	}
	fmt.Fprintln(x.Out, RegsText(x.D.m.Regs()))
	return nil
}

func (x *Text) printCmd(c *call) error {
	v, err := x.D.Eval(strings.Join(c.args, " "))
	if err != nil {
		return err
	}
	fmt.Fprintf(x.Out, "%04Xh %d\n", v, v)
	return nil
}

func (x *Text) saveLoadCmd(c *call) error {
	if len(c.args) != 1 {
		return fmt.Errorf("%s FILE", c.name)
	}
	d := x.D
	if c.name == "save" {
		return saveState(d, c.args[0])
	}
	f, err := os.Open(c.args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	if err := d.LoadState(f, c.args[0]); err != nil {
		return err
	}
	fmt.Fprintf(x.Out, "loaded %s: %s\n", c.args[0], FormatTime(d.m.Now()))
	return nil
}

func (x *Text) devicesCmd(*call) error {
	if len(x.Panels) == 0 {
		return errors.New("no device panels on this machine")
	}
	c := x.D.Cursor()
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
	return nil
}

func (x *Text) ncrCmd(*call) error {
	if x.Chip == nil {
		return errors.New("no 5380 on this machine")
	}
	regs := Chip5380(x.Chip)
	if c := x.D.Cursor(); c != nil && c.Chip() != nil {
		regs = c.Chip()
		fmt.Fprintf(x.Out, "(at the T-state cursor, %s)\n", FormatTime(c.Time()))
	}
	for _, r := range regs {
		fmt.Fprintln(x.Out, r)
	}
	return nil
}

func (x *Text) busCmd(*call) error {
	d := x.D
	if c := d.Cursor(); c != nil {
		sig, data := c.Signals()
		fmt.Fprintf(x.Out, "%s  db=%02X  (at the T-state cursor, %s)\n", sig, data, FormatTime(c.Time()))
		return nil
	}
	sig, data := d.Rec.Signals()
	ph := "BUS FREE"
	if c := d.Rec.Current(); c != nil {
		ph = c.Phase.String()
	}
	fmt.Fprintf(x.Out, "%s  db=%02X  phase %s\n", sig, data, ph)
	return nil
}

func (x *Text) phasesCmd(c *call) error {
	n, err := c.count(0, 8)
	if err != nil {
		return err
	}
	segs := x.D.Rec.Segments(0, sched.MaxTime)
	for _, s := range segs[max(0, len(segs)-n):] {
		fmt.Fprintln(x.Out, x.D.SegmentLine(&s))
	}
	return nil
}

func (x *Text) commandsCmd(c *call) error {
	n, err := c.count(0, 8)
	if err != nil {
		return err
	}
	cmds := x.D.Rec.Commands(0, sched.MaxTime)
	for _, cmd := range cmds[max(0, len(cmds)-n):] {
		fmt.Fprintln(x.Out, x.D.CommandLine(&cmd))
	}
	return nil
}

func (x *Text) timelineCmd(c *call) error {
	d := x.D
	span, cols := 200*sched.Microsecond, 100
	if len(c.args) > 0 {
		t, err := ParseDuration(c.args[0])
		if err != nil {
			return err
		}
		span = t
	}
	if len(c.args) > 1 {
		v, err := strconv.Atoi(c.args[1])
		if err != nil || v < 10 || v > 1000 {
			return fmt.Errorf("timeline: columns %q (10-1000)", c.args[1])
		}
		cols = v
	}
	tl := NewTimeline(d.m.Now(), span)
	tl.WriteText(x.Out, d.Rec, d.kind, cols)
	return nil
}

func (x *Text) measureCmd(c *call) error {
	d := x.D
	if len(c.args) < 1 {
		return errors.New("measure SIGNAL [AT]")
	}
	s, err := ParseSignal(c.args[0])
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
	if len(c.args) > 1 {
		if at, err = ParseDuration(c.args[1]); err != nil {
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
	return nil
}

func (x *Text) typeCmd(c *call) error {
	if x.ConsoleIn == nil {
		return errors.New("no console")
	}
	text := strings.NewReplacer(`\r`, "\r", `\n`, "\n", `\\`, `\`).Replace(c.rest)
	x.ConsoleIn([]byte(text))
	return nil
}

func (x *Text) consoleCmd(*call) error {
	if x.ConsoleOut == nil {
		return errors.New("no console")
	}
	fmt.Fprintf(x.Out, "%s\n", strings.ReplaceAll(string(x.ConsoleOut()), "\r", ""))
	return nil
}
