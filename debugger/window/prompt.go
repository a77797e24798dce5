package window

// The command line: every command of the text front-end (the same
// debugger.Text and its command table), typed at a prompt opened with ':'
// or '`', with a history (Up/Down), completion of command names (Tab) and
// the output in a scrolling pane over the console panel. `mem ADDR` and
// `dis ADDR` also move the memory and disassembly panels there ('m' and
// 'd' open the prompt with them typed). Scripts run through it too
// (RunScript).

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"io"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

// Bounds of what the command line keeps.
const (
	paneLines   = 4000    // output lines the pane keeps for scrolling back
	historyLen  = 500     // command lines the history keeps
	consoleKeep = 1 << 16 // bytes of the machine's output `console` can show
)

// commandLine is the prompt's state.
type commandLine struct {
	x      *debugger.Text
	open   bool
	line   string
	hist   []string
	histAt int    // the history line shown; len(hist) is the line being typed
	typed  string // the line being typed while the history is browsed
	out    []string
	part   string // output not yet ended by a newline
	scroll int    // lines scrolled back from the newest
	// tee also receives the output while a script's line runs (stdout).
	tee io.Writer
	// console is the machine's terminal output since `console` last
	// read it (Window.Console).
	console []byte
	// dis is the address `dis ADDR` put the disassembly panel at, until
	// the next stop (disSet).
	dis    uint16
	disSet bool
	script *script
}

// script is a script's commands waiting to run, one a frame.
type script struct {
	name  string
	lines []string
	next  int
	tee   io.Writer
}

// paneWriter is the Text's output: the pane, and tee while a script runs.
type paneWriter struct{ c *commandLine }

func (p paneWriter) Write(b []byte) (int, error) {
	c := p.c
	if c.tee != nil {
		c.tee.Write(b)
	}
	s := c.part + string(b)
	lines := strings.Split(s, "\n")
	c.part = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		c.out = append(c.out, strings.ReplaceAll(l, "\t", "    "))
	}
	if n := len(c.out) - paneLines; n > 0 {
		c.out = append(c.out[:0], c.out[n:]...)
	}
	c.scroll = 0
	return len(b), nil
}

// text is the window's text front-end: Options.Text, or one made from
// the options' chip, console and panels. Its output goes to the pane.
func (w *Window) text() *debugger.Text {
	c := &w.cmd
	if c.x == nil {
		c.x = w.opt.Text
		if c.x == nil {
			c.x = &debugger.Text{D: w.d, Chip: w.opt.Chip, ConsoleIn: w.opt.ConsoleIn, Panels: w.opt.Panels}
		}
		c.x.Out = paneWriter{c}
		c.x.Echo = true
		c.x.OnStop = w.stopped
		if c.x.ConsoleOut == nil {
			c.x.ConsoleOut = func() []byte { p := c.console; c.console = nil; return p }
		}
	}
	return c.x
}

// withText fills the options' chip, console input and panels from Text
// when they are not set: a window made with Options{Text: ...} shows what
// its commands see.
func (o Options) withText() Options {
	if o.Text == nil {
		return o
	}
	if o.Chip == nil {
		o.Chip = o.Text.Chip
	}
	if o.ConsoleIn == nil {
		o.ConsoleIn = o.Text.ConsoleIn
	}
	if o.Panels == nil {
		o.Panels = o.Text.Panels
	}
	return o
}

// wrapLine breaks an output line into pane rows of at most n characters
// at spaces (wrap), going on with the line's indentation: help's
// continuation lines and a disassembly keep their columns.
func wrapLine(s string, n int) []string {
	body := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(body)]
	if len(indent) > n/2 {
		indent, body = "", s
	}
	rows := wrap(body, n-len(indent))
	if len(rows) == 0 {
		return []string{""} // an empty line is a row too
	}
	for i := range rows {
		rows[i] = indent + rows[i]
	}
	return rows
}

// consoleSeen keeps the machine's output for the `console` command.
func (w *Window) consoleSeen(b byte) {
	c := &w.cmd
	c.console = append(c.console, b)
	if n := len(c.console) - consoleKeep; n > 0 {
		c.console = append(c.console[:0], c.console[n:]...)
	}
}

// PromptOpen reports whether the prompt has the keyboard.
func (w *Window) PromptOpen() bool { return w.cmd.open }

// PromptLine is what is typed at the prompt.
func (w *Window) PromptLine() string { return w.cmd.line }

// PaneLines is the command pane's output, oldest first.
func (w *Window) PaneLines() []string { return append([]string(nil), w.cmd.out...) }

// OpenPrompt gives the keyboard to the prompt with text typed at it.
func (w *Window) OpenPrompt(text string) {
	c := &w.cmd
	w.text()
	c.open, c.line, c.histAt, c.typed = true, text, len(c.hist), ""
	w.ConsoleFocus, w.MemEdit, w.gotoActive = false, false, false
}

// PromptType types s at the prompt.
func (w *Window) PromptType(s string) {
	for _, r := range s {
		if r >= 0x20 && r < 0x7F {
			w.cmd.line += string(r)
		}
	}
}

// PromptKey acts on a key pressed while the prompt is open.
func (w *Window) PromptKey(k ebiten.Key) {
	c := &w.cmd
	switch k {
	case ebiten.KeyEnter, ebiten.KeyNumpadEnter:
		line := c.line
		c.line = ""
		w.Command(line)
	case ebiten.KeyBackspace:
		if c.line != "" {
			c.line = c.line[:len(c.line)-1]
		}
	case ebiten.KeyEscape:
		c.open = false
	case ebiten.KeyArrowUp:
		if c.histAt > 0 {
			if c.histAt == len(c.hist) {
				c.typed = c.line
			}
			c.histAt--
			c.line = c.hist[c.histAt]
		}
	case ebiten.KeyArrowDown:
		if c.histAt < len(c.hist) {
			c.histAt++
			c.line = c.typed
			if c.histAt < len(c.hist) {
				c.line = c.hist[c.histAt]
			}
		}
	case ebiten.KeyTab:
		w.complete()
	case ebiten.KeyPageUp:
		c.scroll = min(c.scroll+paneRows()/2, max(0, len(c.out)-paneRows()))
	case ebiten.KeyPageDown:
		c.scroll = max(0, c.scroll-paneRows()/2)
	}
}

// complete completes the command name being typed: the one name that
// fits, or the longest prefix the names that fit share, listing them.
func (w *Window) complete() {
	c := &w.cmd
	if strings.Contains(strings.TrimLeft(c.line, " "), " ") {
		return // past the name: arguments are not completed
	}
	prefix := strings.TrimLeft(c.line, " ")
	names := debugger.Complete(prefix)
	switch len(names) {
	case 0:
		return
	case 1:
		c.line = names[0] + " "
		return
	}
	common := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	c.line = common
	fmt.Fprintln(paneWriter{c}, strings.Join(names, "  "))
}

// Command runs one command line as the text front-end does, on the paused
// machine, with its output in the pane; `mem ADDR` and `dis ADDR` also
// move their panels to ADDR, `quit` closes the window.
func (w *Window) Command(line string) {
	c := &w.cmd
	x := w.text()
	if t := strings.TrimSpace(line); t != "" && (len(c.hist) == 0 || c.hist[len(c.hist)-1] != t) {
		c.hist = append(c.hist, t)
		if len(c.hist) > historyLen {
			c.hist = c.hist[1:]
		}
	}
	c.histAt, c.typed = len(c.hist), ""
	w.speed = Paused
	now := w.d.Machine().Now()
	err := x.Exec(line)
	switch {
	case errors.Is(err, debugger.ErrQuit):
		w.quit = ebiten.Termination
	case err != nil:
		fmt.Fprintln(x.Out, "error:", err)
	default:
		w.goTo(line)
	}
	w.finishCommand(now)
}

// goTo moves the memory or disassembly panel to the address `mem ADDR` or
// `dis ADDR` showed.
func (w *Window) goTo(line string) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return
	}
	cmd, ok := debugger.CommandNamed(f[0])
	if !ok {
		return
	}
	switch cmd.Names[0] {
	case "mem", "dis":
		a, err := w.d.Address(f[1])
		if err != nil {
			return
		}
		if cmd.Names[0] == "mem" {
			w.MemAddr = a
			return
		}
		w.cmd.dis, w.cmd.disSet = a, true
		w.selectedSet = false
	}
}

// finishCommand brings the panels up to a command that moved the machine
// (before: the time it started at).
func (w *Window) finishCommand(before sched.Time) {
	if now := w.d.Machine().Now(); now != before {
		w.TL.Follow = true
		w.TL.Update(now)
	}
	w.dirty = true
}

// disCentre is the address the disassembly panel shows around: where
// `dis ADDR` put it, else pc.
func (w *Window) disCentre(pc uint16) uint16 {
	if w.cmd.disSet {
		return w.cmd.dis
	}
	return pc
}

// RunScript runs a script's commands (one a line, # comments) in the
// window, one a frame while the machine is paused, as `debug --script`
// does on a terminal: each echoed with its output in the pane and in tee
// (stdout; nil: the pane only); at an error the script ends with its line
// number. Its breakpoints stop the machine with the window open, and the
// window stays open after its last line.
func (w *Window) RunScript(r io.Reader, name string, tee io.Writer) error {
	var lines []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text()
	w.cmd.script = &script{name: name, lines: lines, tee: tee}
	w.cmd.open = true
	return nil
}

// ScriptRunning reports whether a script has lines left to run.
func (w *Window) ScriptRunning() bool { return w.cmd.script != nil }

// scriptStep runs the script's next line, when the machine is paused
// (Tick).
func (w *Window) scriptStep() {
	c := &w.cmd
	s := c.script
	if s == nil || w.speed != Paused {
		return
	}
	if s.next >= len(s.lines) {
		c.script = nil
		fmt.Fprintf(paneWriter{c}, "(end of %s)\n", s.name)
		w.dirty = true
		return
	}
	ln := s.next + 1
	line := s.lines[s.next]
	s.next++
	c.tee = s.tee
	defer func() { c.tee = nil }()
	x := w.text()
	now := w.d.Machine().Now()
	err := x.Exec(line)
	switch {
	case errors.Is(err, debugger.ErrQuit):
		c.script = nil
		w.quit = ebiten.Termination
	case err != nil:
		c.script = nil
		fmt.Fprintf(x.Out, "debugger: %s: line %d: %v\n", s.name, ln, err)
	default:
		w.goTo(line)
	}
	w.finishCommand(now)
}

// promptInput handles the keyboard for the command line: the keys that
// open it, and while it is open every key (F-keys still run the machine).
// It reports whether it took the keyboard this frame.
func (w *Window) promptInput() bool {
	c := &w.cmd
	if !c.open {
		if w.ConsoleFocus || w.MemEdit {
			return false
		}
		for _, r := range ebiten.AppendInputChars(nil) {
			switch r {
			case ':', '`':
				w.OpenPrompt("")
				return true
			case 'm':
				w.OpenPrompt("mem ")
				return true
			case 'd':
				w.OpenPrompt("dis ")
				return true
			}
		}
		return false
	}
	var typed []rune
	typed = ebiten.AppendInputChars(typed)
	w.PromptType(string(typed))
	for _, k := range []ebiten.Key{ebiten.KeyEnter, ebiten.KeyNumpadEnter, ebiten.KeyBackspace, ebiten.KeyEscape,
		ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyTab, ebiten.KeyPageUp, ebiten.KeyPageDown} {
		if inpututil.IsKeyJustPressed(k) || repeating(k) {
			w.PromptKey(k)
		}
	}
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	for _, k := range []ebiten.Key{ebiten.KeyF2, ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7, ebiten.KeyF8, ebiten.KeyF9,
		ebiten.KeyF10, ebiten.KeyF11} {
		if inpututil.IsKeyJustPressed(k) {
			w.Key(k, shift)
		}
	}
	return true
}

// repeating reports a held Backspace or arrow repeating: after half a
// second, every third frame.
func repeating(k ebiten.Key) bool {
	switch k {
	case ebiten.KeyBackspace, ebiten.KeyArrowUp, ebiten.KeyArrowDown:
		d := inpututil.KeyPressDuration(k)
		return d > 30 && d%3 == 0
	}
	return false
}

// paneRows is how many output lines the pane shows above the prompt.
func paneRows() int { return (consoleArea.Dy() - 22 - lineH - 4) / lineH }

// paneCols is how many characters a pane line holds.
func paneCols() int { return int(float64(consoleArea.Dx()-12) / charW) }

// drawPrompt draws the command pane in the console panel's place while
// the prompt is open (build).
func (w *Window) drawPrompt(c *canvas) {
	cl := &w.cmd
	title := "Commands"
	for _, t := range []string{"Commands (Enter, Up/Down history, Tab completes, PgUp/PgDn, Esc)",
		"Commands (Up/Down history, Tab completes, Esc)"} {
		if len(t) <= paneCols() {
			title = t
			break
		}
	}
	panel(c, consoleArea, title)
	c.strokeRect(float32(consoleArea.Min.X)+1, float32(consoleArea.Min.Y)+1, float32(consoleArea.Dx())-2, float32(consoleArea.Dy())-2, 2, colTitle, false)
	var rows []string
	for _, l := range cl.out {
		rows = append(rows, wrapLine(l, paneCols())...)
	}
	if cl.part != "" {
		rows = append(rows, wrapLine(cl.part, paneCols())...)
	}
	n := paneRows()
	end := max(0, len(rows)-cl.scroll)
	start := max(0, end-n)
	y := consoleArea.Min.Y + 18
	for _, l := range rows[start:end] {
		col := colText
		switch {
		case strings.HasPrefix(l, "> "):
			col = colTitle
		case strings.HasPrefix(l, "error:") || strings.HasPrefix(l, "debugger: "):
			col = colBreak
		}
		print(c, consoleArea.Min.X+6, y, l, col)
		y += lineH
	}
	py := consoleArea.Max.Y - lineH - 6
	rect(c, image.Rect(consoleArea.Min.X+2, py-2, consoleArea.Max.X-2, consoleArea.Max.Y-2), colSel)
	shown := "> " + cl.line
	if cols := paneCols() - 1; len(shown) > cols {
		shown = shown[len(shown)-cols:]
	}
	print(c, consoleArea.Min.X+6, py, shown, colOn)
	cx := consoleArea.Min.X + 6 + int(float64(len(shown))*charW)
	rect(c, image.Rect(cx, py+2, cx+int(charW), py+lineH-1), colOn)
	if cl.script != nil {
		s := fmt.Sprintf("script %s: line %d of %d", cl.script.name, cl.script.next, len(cl.script.lines))
		if len(shown)+2+len(s) <= paneCols() {
			print(c, consoleArea.Max.X-6-int(float64(len(s))*charW), py, s, colDim)
		}
	}
}
