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
	// OnStop, if set, is told of every stop a command reports (the
	// window shows it in its panels).
	OnStop func(*Stop)

	tl *Timeline
}

// ErrQuit is returned by Exec for "quit".
var ErrQuit = errors.New("quit")

// Exec runs one command line: its first word names a command of the
// table (TextCommands), the rest are the command's arguments.
func (x *Text) Exec(line string) error {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return nil
	}
	if x.Echo {
		fmt.Fprintf(x.Out, "> %s\n", line)
	}
	f := strings.Fields(line)
	c := lookup(f[0])
	if c == nil {
		return fmt.Errorf("unknown command %q (help lists them)", f[0])
	}
	return c.run(x, &call{name: strings.ToLower(f[0]), args: f[1:], rest: strings.TrimSpace(line[len(f[0]):])})
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
	if x.OnStop != nil {
		x.OnStop(st)
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
