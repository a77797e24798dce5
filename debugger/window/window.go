// Package window is the debugger's window (ebiten): registers and flags,
// disassembly with breakpoints and symbols, memory, stack, the 5380's
// registers bit by bit, the SCSI lines and phase, device panels, a console
// panel that is the machine's terminal, run controls with speed, and the
// timeline, a logic analyser of the bus with a phase band, decoded
// commands, zoom, pan and two cursors.
//
// The window adapts the debugger core (package debugger), it never owns
// the machine's state: every panel is drawn from the core's side-effect
// free views each frame, and every key is a core call. Keys: F5 run /
// pause, F10 step over, F11 step into, Shift+F11 step out, Ctrl+F11 one
// T-state (the T-state cursor), F9 breakpoint
// at the selected line, F6 step to the next phase, F7 to the next
// command, F8 to the next bus byte, Shift+F7 to the next WD1772 command,
// Shift+F8 to the next floppy index pulse, F2 speed (real time / maximum), F3
// save the machine's state and F4 load it, Tab
// keyboard to the console, + and - (or the wheel) zoom the timeline, the
// arrows pan it, Home follows the present; in the timeline a left click
// sets cursor A, a right click cursor B (with Shift: snapped to the next
// ACK).
package window

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
)

// Size of the window's canvas in pixels when it opens on a screen with
// room for it (Run fits it to smaller screens; a resized window reflows).
const (
	Width  = 1600
	Height = 920
)

// Speed is how the window runs the machine.
type Speed int

// Speeds.
const (
	Paused   Speed = iota
	Realtime       // 1/60 s of simulated time per frame at 60 frames/s
	Max            // as much as fits in a frame
)

func (s Speed) String() string {
	return [...]string{"paused", "real time", "maximum"}[s]
}

// Options connect the window to the machine around the core.
type Options struct {
	Title string
	// Chip reads the 5380's registers (nil without SCSI).
	Chip debugger.RegisterReader
	// ConsoleIn sends typed characters to the machine's terminal input.
	ConsoleIn func(p []byte)
	// Panels are the device panels.
	Panels []debugger.Panel
	// StateFile is where F3 saves the machine's state and F4 loads it
	// from (default lbplus-debug.state).
	StateFile string
	// Text is the text front-end the command line runs (prompt.go); nil:
	// one on Chip, ConsoleIn and Panels. The window takes its output.
	Text *debugger.Text
	// Runner: at maximum speed the machine runs on a goroutine of its
	// own, slice by slice, while the game thread handles input and
	// paints frames (the window; on a host with two cores the machine
	// keeps one to itself). Without it a frame at maximum speed runs
	// MaxFrameBudget of simulated time on the game thread (tests).
	Runner bool
}

// MaxFrameBudget is the simulated time a frame runs at maximum speed
// without the runner: 100 ms, 6x real time at 60 frames/s.
const MaxFrameBudget = 100 * sched.Millisecond

// RunSlice is the simulated time the runner runs with the window's lock
// held: 2 ms, about 8000 T-states, under 0.1 ms of host time at 100 M
// T-states/s, so input and a frame's display list never wait longer.
const RunSlice = 2 * sched.Millisecond

// Window is the debugger window; it is an ebiten.Game.
type Window struct {
	d   *debugger.Debugger
	opt Options
	// TL is the timeline's view model (tests read the cursors from it).
	TL    *debugger.Timeline
	Term  *Terminal
	speed Speed
	// Status is the last stop or error, shown in the top bar.
	Status string
	// Selected is the disassembly line F9 acts on (PC unless clicked).
	Selected    int
	selectedSet bool
	// MemAddr is the first address of the memory panel.
	MemAddr      uint16
	ConsoleFocus bool
	// MemEdit: the keyboard edits memory at MemCursor.
	MemEdit   bool
	MemCursor uint16
	memNibble int
	memHi     byte
	frames    uint64
	img       *ebiten.Image
	list      canvas
	quit      error
	disLines  []debugger.DisLine

	// mu guards the machine, the debugger and the window's state while
	// the runner runs: Update and the building of a frame's display list
	// hold it, the runner holds it for each slice.
	mu      sync.Mutex
	running bool          // the runner goroutine is running
	runDone chan struct{} // closed when it has ended

	// Redrawing only on change (Draw): dirty is set by input, by a
	// running machine and by simulated time having moved since the last
	// frame drawn (drawnAt), and cleared by drawing.
	dirty   bool
	drawnAt sched.Time
	// rate is the simulated time the machine achieved per second of the
	// game loop, smoothed (rateAt: simulated time at the last Update).
	rate   float64
	rateAt sched.Time
	mouseX int
	mouseY int
	// The canvas's size (Layout: the window's; the panels reflow).
	width, height int

	// SelCmd is the start of the selected SCSI command (0: none), the
	// one the command list opens and the transfer panel lays open;
	// selSeg the start of the selected phase of it (0: the whole).
	SelCmd sched.Time
	selSeg sched.Time
	// listScroll is how many of the list's newest lines are scrolled out
	// below; listShown the lines last drawn (for clicks).
	listScroll int
	listShown  []listEntry
	// viewMoved: the user put the timeline somewhere (pan, zoom with the
	// wheel, a click in the list, go to): it stays frozen there while
	// the machine runs until Home. Without it a running machine's
	// timeline follows the present.
	viewMoved bool
	// The go-to-time prompt (G): typed text, Enter goes, Esc leaves.
	gotoActive bool
	gotoText   string
	// xferScroll is the transfer panel's first line shown; xfer the
	// selected command laid open, kept while it cannot change.
	xferScroll int
	xfer       debugger.CommandTransfer
	// cmd is the command line and its pane (prompt.go).
	cmd commandLine
}

// New returns a paused window on d.
func New(d *debugger.Debugger, opt Options) *Window {
	opt = opt.withText() // prompt.go
	w := &Window{d: d, opt: opt, TL: debugger.NewTimeline(d.Machine().Now(), 200*sched.Microsecond),
		Term: NewTerminal(80, 24), MemAddr: 0x8000, dirty: true}
	w.Resize(Width, Height)
	return w
}

// Resize lays the panels out for a canvas of width x height pixels (at
// least MinWidth x MinHeight): panels grow or shrink and their text
// reflows; nothing is scaled.
func (w *Window) Resize(width, height int) {
	width, height = max(width, MinWidth), max(height, MinHeight)
	if width == w.width && height == w.height {
		return
	}
	w.width, w.height = width, height
	setLayout(width, height)
	if w.img != nil {
		w.img.Deallocate()
		w.img = nil
	}
	w.dirty = true
}

// Size is the canvas's size.
func (w *Window) Size() (width, height int) { return w.width, w.height }

// Console takes the machine's terminal output (the board's ConsoleOut).
func (w *Window) Console(b byte) {
	w.Term.Write([]byte{b})
	w.consoleSeen(b)
}

// Speed returns the run speed.
func (w *Window) Speed() Speed { return w.speed }

// SetSpeed sets the run speed (Paused stops).
func (w *Window) SetSpeed(s Speed) { w.speed = s }

// Frames counts Update calls.
func (w *Window) Frames() uint64 { return w.frames }

// Run opens the window and runs until it is closed. It opens at Width x
// Height, or at nine tenths of a smaller screen.
func Run(w *Window) error {
	var sw, sh int
	if mon := ebiten.Monitor(); mon != nil {
		sw, sh = mon.Size()
	}
	ebiten.SetWindowSize(openSize(sw, sh))
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	title := w.opt.Title
	if title == "" {
		title = "lbplus debugger"
	}
	ebiten.SetWindowTitle(title)
	// A paused window draws nothing new until something changes (Draw):
	// the screen keeps its last frame.
	ebiten.SetScreenClearedEveryFrame(false)
	err := ebiten.RunGame(w)
	w.Pause()
	if err == ebiten.Termination {
		return nil
	}
	return err
}

// openSize is the window's size on a screen of sw x sh (0: unknown):
// Width x Height, or nine tenths of a smaller screen.
func openSize(sw, sh int) (width, height int) {
	width, height = Width, Height
	if sw > 0 && sh > 0 {
		width, height = min(width, sw*9/10), min(height, sh*9/10)
	}
	return width, height
}

// Layout makes the canvas the window's size (in device-independent
// pixels): a resized window reflows its panels. Below MinWidth x
// MinHeight the canvas stays at that and ebiten scales it down.
func (w *Window) Layout(outsideWidth, outsideHeight int) (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.Resize(outsideWidth, outsideHeight)
	return w.width, w.height
}

// Update handles input and runs the machine for one frame.
func (w *Window) Update() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.frames++
	if w.inputSeen() {
		w.dirty = true
	}
	w.input()
	w.Tick()
	w.measureRate()
	if w.speed != Paused || w.d.Machine().Now() != w.drawnAt {
		w.dirty = true
	}
	return w.quit
}

// measureRate follows how fast the machine actually runs: the simulated
// time a frame advanced, times the frames ebiten actually runs a second
// (real time asks for 1/60 s a frame at 60 frames a second; a slow host
// or display gives fewer), smoothed over about a second. It reads no
// clock: ebiten counts the frames.
func (w *Window) measureRate() {
	now := w.d.Machine().Now()
	d := now - w.rateAt
	w.rateAt = now
	tps := ebiten.ActualTPS()
	if w.speed == Paused || tps <= 0 {
		w.rate = 0
		return
	}
	r := float64(d) / float64(sched.Second) * tps
	if w.rate == 0 {
		w.rate = r
	}
	w.rate += (r - w.rate) / 30
}

// speedText is the top bar's speed: PAUSED, or the speed asked with the
// rate achieved (REAL TIME 32% on a host that cannot keep up).
func (w *Window) speedText() string {
	s := strings.ToUpper(w.speed.String())
	switch {
	case w.rate <= 0:
	case w.speed == Realtime:
		s += fmt.Sprintf(" %.0f%%", w.rate*100)
	case w.speed == Max:
		s += fmt.Sprintf(" %.1fx", w.rate)
	}
	return s
}

// Tick runs the machine for one frame at the current speed; at maximum
// speed with the runner it makes sure the runner runs. Update calls it
// with the lock held (tests without the runner call it directly).
func (w *Window) Tick() {
	w.scriptStep()
	switch w.speed {
	case Realtime:
		w.run(sched.Second / 60)
	case Max:
		if !w.opt.Runner {
			w.run(MaxFrameBudget)
			break
		}
		if !w.running {
			w.running = true
			w.runDone = make(chan struct{})
			go w.runner(w.runDone)
		}
	}
	if w.speed != Paused && !w.viewMoved {
		w.TL.Follow = true
	}
	w.TL.Update(w.d.Machine().Now())
}

// runner runs the machine at maximum speed, RunSlice at a time with the
// lock held, until the speed changes (a key, a stop).
func (w *Window) runner(done chan struct{}) {
	defer close(done)
	if runnerHook != nil {
		runnerHook()
	}
	for {
		w.mu.Lock()
		if w.speed != Max {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.run(RunSlice)
		w.mu.Unlock()
	}
}

// runnerHook, if set, runs on the runner's goroutine as it starts (a
// benchmark pins it to its thread to read that thread's CPU time).
var runnerHook func()

// Pause stops the machine and waits for the runner to end: after it
// returns nothing runs the machine until the window does again.
func (w *Window) Pause() {
	w.mu.Lock()
	w.speed = Paused
	done := w.runDone
	w.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Locked runs f with the window's lock held: while the runner runs, the
// machine may be looked at only so.
func (w *Window) Locked(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
}

func (w *Window) run(budget sched.Time) {
	st, err := w.d.Continue(budget)
	if err != nil {
		w.Status = "error: " + err.Error()
		w.speed = Paused
		return
	}
	if st != nil {
		w.stopped(st)
	}
}

func (w *Window) stopped(st *debugger.Stop) {
	w.speed = Paused
	w.selectedSet = false
	w.cmd.disSet = false // a stop shows PC again
	w.Status = st.String()
	if st.Ended != nil && st.Ended.End != 0 {
		w.Status = w.d.SegmentLine(st.Ended) + "  |  " + w.Status
	}
	if st.T < w.TL.From || st.T >= w.TL.To() {
		w.TL.Center(st.T)
	}
}

func (w *Window) step(f func() (*debugger.Stop, error)) {
	st, err := f()
	if err != nil {
		w.Status = "error: " + err.Error()
		return
	}
	w.stopped(st)
	w.follow()
}

// follow puts the timeline back to following the present (Home, a step,
// a state loaded): the user's view is given up.
func (w *Window) follow() {
	w.viewMoved = false
	w.TL.Follow = true
	w.TL.Update(w.d.Machine().Now())
}

// following is the timeline's state as its title shows it: "following"
// the present while the machine runs, or "frozen" where the user put it.
func (w *Window) following() string {
	if w.viewMoved {
		return "frozen"
	}
	return "following"
}

// TStep moves the T-state cursor one T-state (Ctrl+F11): the panels show
// the machine at that T-state (registers as at the instruction's start).
func (w *Window) TStep() {
	_, st, err := w.d.TStep(1)
	if err != nil {
		w.Status = "error: " + err.Error()
		return
	}
	if st != nil {
		w.stopped(st)
		return
	}
	w.speed = Paused
	w.selectedSet = false
	c := w.d.Cursor()
	w.Status = c.Header(w.d.Syms)
	if t := c.Time(); t < w.TL.From || t >= w.TL.To() {
		w.TL.Center(t)
	}
}

// Draw renders the window.
// Unless something changed since the last frame drawn (Update's dirty),
// it draws nothing: the screen keeps that frame, and a paused window
// costs next to no CPU.
func (w *Window) Draw(screen *ebiten.Image) {
	if !w.dirty && w.img != nil {
		return
	}
	screen.DrawImage(w.Render(), nil)
	w.dirty = false
	w.mu.Lock()
	w.drawnAt = w.d.Machine().Now()
	w.mu.Unlock()
}

// Render draws every panel onto the window's image and returns it: the
// display list is built with the lock held, then painted without it.
func (w *Window) Render() *ebiten.Image {
	if w.img == nil {
		w.img = ebiten.NewImage(w.width, w.height)
	}
	w.mu.Lock()
	w.build()
	w.mu.Unlock()
	w.img.Fill(colBG)
	w.list.paint(w.img)
	return w.img
}

// build makes the frame's display list from the machine's state.
func (w *Window) build() {
	c := &w.list
	c.reset()
	w.drawTop(c)
	w.drawRegs(c)
	w.drawDis(c)
	w.drawStack(c)
	w.drawChip(c)
	w.drawBus(c)
	w.drawMem(c)
	w.drawPanels(c)
	if w.cmd.open {
		w.drawPrompt(c) // the command pane in the console's place (prompt.go)
	} else {
		w.drawConsole(c)
	}
	w.drawTimeline(c)
	w.drawCommands(c)
	w.drawTransfer(c)
}
