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
	"bytes"
	"fmt"
	"image"
	"image/color"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Size of the window's canvas in pixels.
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
}

// New returns a paused window on d.
func New(d *debugger.Debugger, opt Options) *Window {
	return &Window{d: d, opt: opt, TL: debugger.NewTimeline(d.Machine().Now(), 200*sched.Microsecond),
		Term: NewTerminal(80, 24), MemAddr: 0x8000, dirty: true}
}

// Console takes the machine's terminal output (the board's ConsoleOut).
func (w *Window) Console(b byte) { w.Term.Write([]byte{b}) }

// Speed returns the run speed.
func (w *Window) Speed() Speed { return w.speed }

// SetSpeed sets the run speed (Paused stops).
func (w *Window) SetSpeed(s Speed) { w.speed = s }

// Frames counts Update calls.
func (w *Window) Frames() uint64 { return w.frames }

// Run opens the window and runs until it is closed.
func Run(w *Window) error {
	ebiten.SetWindowSize(Width, Height)
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

// Layout fixes the canvas size; ebiten scales it to the window.
func (w *Window) Layout(int, int) (int, int) { return Width, Height }

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

// inputSeen reports whether the user did anything this frame: a key, a
// character, a mouse button, the wheel or the pointer moving.
func (w *Window) inputSeen() bool {
	x, y := ebiten.CursorPosition()
	moved := x != w.mouseX || y != w.mouseY
	w.mouseX, w.mouseY = x, y
	if moved || len(inpututil.AppendJustPressedKeys(nil)) > 0 || len(inpututil.AppendJustReleasedKeys(nil)) > 0 ||
		len(ebiten.AppendInputChars(nil)) > 0 {
		return true
	}
	if dx, dy := ebiten.Wheel(); dx != 0 || dy != 0 {
		return true
	}
	for b := ebiten.MouseButton0; b <= ebiten.MouseButtonMax; b++ {
		if inpututil.IsMouseButtonJustPressed(b) || inpututil.IsMouseButtonJustReleased(b) {
			return true
		}
	}
	return false
}

// Tick runs the machine for one frame at the current speed; at maximum
// speed with the runner it makes sure the runner runs. Update calls it
// with the lock held (tests without the runner call it directly).
func (w *Window) Tick() {
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
	w.TL.Follow = true
	w.TL.Update(w.d.Machine().Now())
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

// Key acts on one key press, as the keyboard does (tests call it).
func (w *Window) Key(k ebiten.Key, shift bool) {
	d := w.d
	switch k {
	case ebiten.KeyF5:
		if w.speed == Paused {
			w.speed = Realtime
			w.Status = "running"
		} else {
			w.speed = Paused
			w.Status = "paused at " + debugger.FormatTime(d.Machine().Now())
		}
	case ebiten.KeyF2:
		if w.speed == Max {
			w.speed = Realtime
		} else {
			w.speed = Max
		}
	case ebiten.KeyF10:
		w.step(d.StepOver)
	case ebiten.KeyF11:
		if shift {
			w.step(d.StepOut)
		} else {
			w.step(d.StepInstruction)
		}
	case ebiten.KeyF9:
		if w.Selected < len(w.disLines) {
			d.ToggleExec(w.disLines[w.Selected].Addr)
		}
	case ebiten.KeyF3, ebiten.KeyF4:
		path := w.opt.StateFile
		if path == "" {
			path = "lbplus-debug.state"
		}
		w.speed = Paused
		if k == ebiten.KeyF3 {
			if err := debugger.SaveStateFile(d, path); err != nil {
				w.Status = "error: " + err.Error()
				return
			}
			w.Status = "saved the machine to " + path + " at " + debugger.FormatTime(d.Machine().Now())
			return
		}
		if err := loadState(d, path); err != nil {
			w.Status = "error: " + err.Error()
			return
		}
		w.Status = "loaded " + path + ": " + debugger.FormatTime(d.Machine().Now())
		w.TL.Follow = true
		w.TL.Update(d.Machine().Now())
	case ebiten.KeyF6:
		w.step(d.StepPhase)
	case ebiten.KeyF7:
		if shift {
			w.step(d.StepFloppyCommand)
		} else {
			w.step(d.StepCommand)
		}
	case ebiten.KeyF8:
		if shift {
			w.step(d.StepIndex)
		} else {
			w.step(d.StepByte)
		}
	case ebiten.KeyTab:
		w.ConsoleFocus = !w.ConsoleFocus
	case ebiten.KeyEqual, ebiten.KeyKPAdd:
		w.TL.Zoom(0.5, w.TL.From+w.TL.Span/2)
	case ebiten.KeyMinus, ebiten.KeyKPSubtract:
		w.TL.Zoom(2, w.TL.From+w.TL.Span/2)
	case ebiten.KeyArrowLeft:
		w.TL.Pan(-0.25)
	case ebiten.KeyArrowRight:
		w.TL.Pan(0.25)
	case ebiten.KeyHome:
		w.TL.Follow = true
		w.TL.Update(d.Machine().Now())
	case ebiten.KeyPageUp:
		w.MemAddr -= 0x80
	case ebiten.KeyPageDown:
		w.MemAddr += 0x80
	}
}

var keys = []ebiten.Key{ebiten.KeyF2, ebiten.KeyF3, ebiten.KeyF4, ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7, ebiten.KeyF8, ebiten.KeyF9,
	ebiten.KeyF10, ebiten.KeyF11, ebiten.KeyTab, ebiten.KeyEqual, ebiten.KeyKPAdd, ebiten.KeyMinus,
	ebiten.KeyKPSubtract, ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyHome, ebiten.KeyPageUp, ebiten.KeyPageDown}

func (w *Window) input() {
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	if ebiten.IsKeyPressed(ebiten.KeyControl) && inpututil.IsKeyJustPressed(ebiten.KeyF11) {
		w.TStep()
		return
	}
	if w.MemEdit {
		for _, r := range ebiten.AppendInputChars(nil) {
			w.MemKey(r)
		}
		for _, k := range []struct {
			k ebiten.Key
			d int
		}{{ebiten.KeyArrowLeft, -1}, {ebiten.KeyArrowRight, 1}, {ebiten.KeyArrowUp, -16}, {ebiten.KeyArrowDown, 16}} {
			if inpututil.IsKeyJustPressed(k.k) {
				w.EditMemory(w.MemCursor + uint16(k.d))
			}
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyEnter) {
			w.MemEdit = false
		}
		for _, k := range []ebiten.Key{ebiten.KeyF2, ebiten.KeyF3, ebiten.KeyF4, ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7,
			ebiten.KeyF8, ebiten.KeyF9, ebiten.KeyF10, ebiten.KeyF11} {
			if inpututil.IsKeyJustPressed(k) {
				w.Key(k, shift)
			}
		}
	} else if w.ConsoleFocus {
		var typed []byte
		for _, r := range ebiten.AppendInputChars(nil) {
			if r < 0x80 {
				typed = append(typed, byte(r))
			}
		}
		for _, k := range []struct {
			k ebiten.Key
			b byte
		}{{ebiten.KeyEnter, '\r'}, {ebiten.KeyBackspace, 8}, {ebiten.KeyEscape, 27}} {
			if inpututil.IsKeyJustPressed(k.k) {
				typed = append(typed, k.b)
			}
		}
		w.Type(typed)
		for _, k := range []ebiten.Key{ebiten.KeyTab, ebiten.KeyF2, ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7,
			ebiten.KeyF8, ebiten.KeyF9, ebiten.KeyF10, ebiten.KeyF11} {
			if inpututil.IsKeyJustPressed(k) {
				w.Key(k, shift)
			}
		}
	} else {
		for _, k := range keys {
			if inpututil.IsKeyJustPressed(k) {
				w.Key(k, shift)
			}
		}
	}
	x, y := ebiten.CursorPosition()
	p := image.Pt(x, y)
	if p.In(timelineArea) {
		tx := x - timelineArea.Min.X - labelW
		tw := timelineArea.Dx() - labelW
		if tx >= 0 {
			t := w.TL.TimeAt(tx, tw)
			if _, dy := ebiten.Wheel(); dy != 0 {
				f := 0.8
				if dy < 0 {
					f = 1.25
				}
				w.TL.Follow = false
				w.TL.Zoom(f, t)
			}
			for _, b := range []ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight} {
				if inpututil.IsMouseButtonJustPressed(b) {
					w.SetCursor(b == ebiten.MouseButtonRight, t, shift)
				}
			}
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		w.MemEdit = false
		if p.In(memArea) {
			row := (y - memArea.Min.Y - 18) / lineH
			col := int(float64(x-memArea.Min.X-6) / charW)
			for j := 0; j < 16; j++ {
				if row >= 0 && row < memRows && col >= memCol(j) && col < memCol(j)+2 {
					w.EditMemory(w.MemAddr + uint16(16*row+j))
				}
			}
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && p.In(disArea) {
		w.Selected = (y - disArea.Min.Y - 18) / lineH
		w.selectedSet = true
	}
}

func loadState(d *debugger.Debugger, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return d.LoadState(f, path)
}

// Type sends typed characters to the machine's terminal input (the
// console panel has the keyboard).
func (w *Window) Type(p []byte) {
	if len(p) > 0 && w.opt.ConsoleIn != nil {
		w.opt.ConsoleIn(p)
	}
}

// SetCursor sets cursor A (or B) at t, or with snap at the next ACK rising
// edge after t.
func (w *Window) SetCursor(b bool, t sched.Time, snap bool) {
	if snap {
		if e, ok := debugger.SnapRising(w.d.Rec, debugger.Signal(scsi.ACK), t); ok {
			t = e
		}
	}
	if b {
		w.TL.B = t
	} else {
		w.TL.A = t
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
		w.img = ebiten.NewImage(Width, Height)
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
	w.drawConsole(c)
	w.drawTimeline(c)
}

// The panels' places on the canvas.
var (
	topArea      = image.Rect(0, 0, Width, 24)
	regsArea     = image.Rect(4, 28, 520, 92)
	disArea      = image.Rect(4, 96, 520, 440)
	stackArea    = image.Rect(4, 444, 520, 580)
	chipArea     = image.Rect(524, 28, 1000, 190)
	busArea      = image.Rect(524, 194, 1000, 250)
	memArea      = image.Rect(524, 254, 1000, 384)
	panelsArea   = image.Rect(524, 388, 1000, 580)
	consoleArea  = image.Rect(1004, 28, Width-4, 440)
	statusArea   = image.Rect(1004, 444, Width-4, 580)
	timelineArea = image.Rect(4, 584, Width-4, Height-4)
)

// Areas names every panel's rectangle (the screenshot tests crop them).
func Areas() map[string]image.Rectangle {
	return map[string]image.Rectangle{
		"top": topArea, "regs": regsArea, "disasm": disArea, "stack": stackArea, "ncr5380": chipArea,
		"bus": busArea, "memory": memArea, "devices": panelsArea, "console": consoleArea,
		"breakpoints": statusArea, "timeline": timelineArea,
	}
}

// Colours.
var (
	colBG     = color.RGBA{0x16, 0x18, 0x1d, 0xff}
	colPanel  = color.RGBA{0x20, 0x23, 0x2b, 0xff}
	colBorder = color.RGBA{0x3a, 0x3f, 0x4b, 0xff}
	colText   = color.RGBA{0xd8, 0xdc, 0xe4, 0xff}
	colDim    = color.RGBA{0x80, 0x88, 0x96, 0xff}
	colTitle  = color.RGBA{0x8c, 0xb4, 0xff, 0xff}
	colOn     = color.RGBA{0x5c, 0xe0, 0x7a, 0xff}
	colOff    = color.RGBA{0x3a, 0x40, 0x4a, 0xff}
	colPC     = color.RGBA{0x33, 0x4a, 0x2a, 0xff}
	colBreak  = color.RGBA{0xe0, 0x4c, 0x4c, 0xff}
	colSel    = color.RGBA{0x2c, 0x34, 0x48, 0xff}
	colCurA   = color.RGBA{0xff, 0xd0, 0x40, 0xff}
	colCurB   = color.RGBA{0x40, 0xd8, 0xff, 0xff}
	colWave   = color.RGBA{0x6c, 0xe8, 0x8c, 0xff}
	colData   = color.RGBA{0xe8, 0xc8, 0x6c, 0xff}
	colHigh   = color.RGBA{0x24, 0x4a, 0x30, 0xff}
)

var phaseColors = map[scsi.Phase]color.RGBA{
	scsi.DataOut: {0x8a, 0x5a, 0x20, 0xff}, scsi.DataIn: {0x2a, 0x6a, 0x9a, 0xff},
	scsi.Command: {0x8a, 0x3a, 0x8a, 0xff}, scsi.Status: {0x2a, 0x8a, 0x5a, 0xff},
	scsi.MsgOut: {0x7a, 0x7a, 0x2a, 0xff}, scsi.MsgIn: {0x3a, 0x7a, 0x7a, 0xff},
	scsi.BusFree: {0x30, 0x34, 0x3c, 0xff}, scsi.Selection: {0x9a, 0x4a, 0x3a, 0xff},
}

// Text.
const (
	fontSize = 12
	lineH    = 15
	labelW   = 56
)

var face = func() *text.GoTextFace {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gomono.TTF))
	if err != nil {
		panic("window: Go Mono font: " + err.Error()) // embedded data; cannot fail
	}
	return &text.GoTextFace{Source: src, Size: fontSize}
}()

var charW = text.Advance("M", face)

func print(dst *canvas, x, y int, s string, c color.Color) { dst.text(x, y, s, c) }

func rect(dst *canvas, r image.Rectangle, c color.Color) {
	dst.fillRect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), c, false)
}

func panel(dst *canvas, r image.Rectangle, title string) {
	rect(dst, r, colPanel)
	dst.strokeRect(float32(r.Min.X)+0.5, float32(r.Min.Y)+0.5, float32(r.Dx())-1, float32(r.Dy())-1, 1, colBorder, false)
	print(dst, r.Min.X+6, r.Min.Y+2, title, colTitle)
}

func (w *Window) drawTop(c *canvas) {
	rect(c, topArea, colPanel)
	m := w.d.Machine()
	focus := ""
	if w.ConsoleFocus {
		focus = "  [keyboard -> console, Tab to leave]"
	}
	s := fmt.Sprintf("%-9s  %s  T=%d%s", w.speedText(), debugger.FormatTime(m.Now()), m.Now()/sched.TState, focus)
	print(c, 8, 4, s, colText)
	print(c, 520, 4, "F5 run/pause  F10 over  F11 into  S-F11 out  C-F11 T-state  F9 break  F6 phase  F7 cmd  F8 byte  S-F7 fdc cmd  S-F8 index  F2 speed  F3/F4 save/load  Tab console", colDim)
}

func (w *Window) drawRegs(c *canvas) {
	r := w.d.Machine().Regs()
	if cur := w.d.Cursor(); cur != nil {
		panel(c, regsArea, "CPU (as at the start of the instruction under the T-state cursor)")
		r = cur.Regs
	} else {
		panel(c, regsArea, "CPU")
	}
	lines := strings.Split(debugger.RegsText(r), "\n")
	lines[0], _, _ = strings.Cut(lines[0], "  F=") // the flags are lamps below
	for i, l := range lines {
		print(c, regsArea.Min.X+6, regsArea.Min.Y+18+i*lineH, l, colText)
	}
	// Flags as lamps.
	x := regsArea.Min.X + 6
	y := regsArea.Min.Y + 18 + 2*lineH + 2
	for i, n := range "SZYHXPNC" {
		on := uint8(r.AF)&(0x80>>i) != 0
		col := colOff
		if on {
			col = colOn
		}
		rect(c, image.Rect(x+i*22, y, x+i*22+18, y+12), col)
		print(c, x+i*22+5, y-2, string(n), colBG)
	}
}

func (w *Window) drawDis(c *canvas) {
	panel(c, disArea, "Disassembly")
	n := (disArea.Dy() - 22) / lineH
	pc := w.d.PC()
	cur := w.d.Cursor()
	if cur != nil {
		pc = cur.PC
	}
	w.disLines = w.d.DisassembleAround(pc, n)
	for i := range w.disLines {
		w.disLines[i].PC = w.disLines[i].Addr == pc
	}
	if !w.selectedSet {
		for i, l := range w.disLines {
			if l.PC {
				w.Selected = i
			}
		}
	}
	for i, l := range w.disLines {
		y := disArea.Min.Y + 18 + i*lineH
		row := image.Rect(disArea.Min.X+2, y, disArea.Max.X-2, y+lineH)
		switch {
		case l.PC:
			rect(c, row, colPC)
		case i == w.Selected:
			rect(c, row, colSel)
		}
		if l.Break {
			c.filledCircle(float32(disArea.Min.X+10), float32(y+lineH/2), 5, colBreak, true)
		}
		var hex strings.Builder
		for _, b := range l.Bytes {
			fmt.Fprintf(&hex, "%02X", b)
		}
		col := colText
		if l.Label != "" {
			print(c, disArea.Min.X+20, y, fmt.Sprintf("%04X %-8s %s:", l.Addr, hex.String(), l.Label), colTitle)
			y2 := disArea.Min.X + 20 + int(charW*float64(15+len(l.Label)+2))
			print(c, y2, y, l.Text, col)
			continue
		}
		print(c, disArea.Min.X+20, y, fmt.Sprintf("%04X %-8s   %s", l.Addr, hex.String(), l.Text), col)
	}
}

func (w *Window) drawStack(c *canvas) {
	panel(c, stackArea, "Stack")
	m := w.d.Machine()
	sp := m.Regs().SP
	if cur := w.d.Cursor(); cur != nil {
		sp = cur.Regs.SP
	}
	for i := 0; i < (stackArea.Dy()-22)/lineH; i++ {
		a := sp + uint16(2*i)
		v := uint16(w.d.PeekView(a)) | uint16(w.d.PeekView(a+1))<<8
		print(c, stackArea.Min.X+6, stackArea.Min.Y+18+i*lineH, fmt.Sprintf("%04X  %04X  %s", a, v, w.d.Syms.Label(v)), colText)
	}
}

func (w *Window) drawChip(c *canvas) {
	panel(c, chipArea, "NCR 5380")
	if w.opt.Chip == nil {
		print(c, chipArea.Min.X+6, chipArea.Min.Y+20, "no 5380", colDim)
		return
	}
	regs := debugger.Chip5380(w.opt.Chip)
	if cur := w.d.Cursor(); cur != nil && cur.Chip() != nil {
		regs = cur.Chip()
	}
	for i, r := range regs {
		y := chipArea.Min.Y + 20 + i*20
		print(c, chipArea.Min.X+6, y, fmt.Sprintf("%-20s %02X", r.Name, r.Value), colText)
		for b, n := range r.Bits {
			x := chipArea.Min.X + 200 + b*34
			if n == "" {
				continue
			}
			col := colOff
			if r.Set(7 - b) {
				col = colOn
			}
			rect(c, image.Rect(x, y, x+32, y+15), col)
			print(c, x+2, y, n, colBG)
		}
	}
}

func (w *Window) drawBus(c *canvas) {
	panel(c, busArea, "SCSI bus")
	sig, data := w.d.Rec.Signals()
	ph := scsi.BusFree
	if s := w.d.Rec.Current(); s != nil {
		ph = s.Phase
	}
	if cur := w.d.Cursor(); cur != nil {
		sig, data = cur.Signals()
		if s := w.d.Rec.Segments(cur.Time()-1, cur.Time()); len(s) > 0 {
			ph = s[len(s)-1].Phase
		}
	}
	for i, s := range debugger.Rows[:9] {
		x := busArea.Min.X + 6 + i*42
		col := colOff
		if sig&s != 0 {
			col = colOn
		}
		rect(c, image.Rect(x, busArea.Min.Y+20, x+40, busArea.Min.Y+35), col)
		print(c, x+4, busArea.Min.Y+20, s.Name(), colBG)
	}
	print(c, busArea.Min.X+6+9*42+4, busArea.Min.Y+20, fmt.Sprintf("DB %02X", data), colData)
	extra := ""
	if sig&debugger.DRQ != 0 {
		extra += " DRQ"
	}
	if sig&debugger.IRQ != 0 {
		extra += " IRQ"
	}
	print(c, busArea.Min.X+6, busArea.Min.Y+37, "phase "+ph.String()+extra, colText)
}

// memCol is the text column of byte j (0-15) in a memory line: "8000  "
// then the bytes in pairs, "XXXX ".
func memCol(j int) int { return 6 + j/2*5 + j%2*2 }

func (w *Window) drawMem(c *canvas) {
	title := fmt.Sprintf("Memory %04Xh (PgUp/PgDn; click a byte to edit)", w.MemAddr)
	if w.MemEdit {
		title = fmt.Sprintf("Memory: editing %04Xh (hex digits, arrows, Esc)", w.MemCursor)
	}
	panel(c, memArea, title)
	for i := 0; i < memRows; i++ {
		a := w.MemAddr + uint16(16*i)
		var hex, asc strings.Builder
		for j := 0; j < 16; j++ {
			v := w.d.PeekView(a + uint16(j))
			// Bytes in pairs: sixteen a line fit the panel's width.
			fmt.Fprintf(&hex, "%02X", v)
			if j%2 == 1 {
				hex.WriteByte(' ')
			}
			if v >= 0x20 && v < 0x7F {
				asc.WriteByte(v)
			} else {
				asc.WriteByte('.')
			}
			if w.MemEdit && a+uint16(j) == w.MemCursor {
				x := memArea.Min.X + 6 + int(float64(memCol(j))*charW)
				y := memArea.Min.Y + 18 + i*lineH
				rect(c, image.Rect(x-1, y+1, x+int(2*charW)+1, y+lineH), colSel)
			}
		}
		print(c, memArea.Min.X+6, memArea.Min.Y+18+i*lineH, fmt.Sprintf("%04X  %s %s", a, hex.String(), asc.String()), colText)
	}
}

// memRows is how many lines the memory panel shows.
var memRows = (memArea.Dy() - 22) / lineH

// EditMemory starts editing memory at addr (a click on its byte).
func (w *Window) EditMemory(addr uint16) {
	w.MemEdit, w.MemCursor, w.memNibble = true, addr, 0
	if addr < w.MemAddr || addr >= w.MemAddr+uint16(16*memRows) {
		w.MemAddr = addr &^ 0xF
	}
}

// MemKey is a key typed while editing memory: a hex digit sets the high,
// then the low half of the byte under the cursor (written through the
// core, as a Z80 write would be) and moves on.
func (w *Window) MemKey(r rune) {
	v, err := strconv.ParseUint(string(r), 16, 8)
	if err != nil {
		return
	}
	if w.memNibble == 0 {
		w.memHi, w.memNibble = byte(v), 1
		return
	}
	if err := w.d.Poke(w.MemCursor, []byte{w.memHi<<4 | byte(v)}); err != nil {
		w.Status = "error: " + err.Error()
	}
	w.memNibble = 0
	w.EditMemory(w.MemCursor + 1)
}

func (w *Window) drawPanels(c *canvas) {
	panel(c, panelsArea, "Devices")
	y := panelsArea.Min.Y + 18
	if len(w.opt.Panels) == 0 {
		print(c, panelsArea.Min.X+6, y, "no device panels", colDim)
	}
	room := func() bool { return y+lineH <= panelsArea.Max.Y }
	cur := w.d.Cursor()
	for i, p := range w.opt.Panels {
		if !room() {
			break
		}
		lines := p.Lines()
		if cur != nil && len(cur.Panels()) == len(w.opt.Panels) {
			lines = cur.Panels()[i]
		}
		print(c, panelsArea.Min.X+6, y, p.Title(), colTitle)
		y += lineH
		// A line wider than the panel is cut at its edge (ending in
		// ">"), not drawn over the next panel.
		width := int(float64(panelsArea.Max.X-panelsArea.Min.X-22) / charW)
		for _, l := range lines {
			if !room() {
				break
			}
			if len(l) > width {
				l = l[:width-1] + ">"
			}
			print(c, panelsArea.Min.X+16, y, l, colText)
			y += lineH
		}
	}
}

func (w *Window) drawConsole(c *canvas) {
	title := "Console (Tab: type here)"
	if w.ConsoleFocus {
		title = "Console (keyboard goes to the DART; Tab: leave)"
	}
	panel(c, consoleArea, title)
	if w.ConsoleFocus {
		c.strokeRect(float32(consoleArea.Min.X)+1, float32(consoleArea.Min.Y)+1, float32(consoleArea.Dx())-2, float32(consoleArea.Dy())-2, 2, colCurA, false)
	}
	t := w.Term
	for y := 0; y < t.Rows; y++ {
		print(c, consoleArea.Min.X+6, consoleArea.Min.Y+20+y*16, strings.TrimRight(t.Line(y), " "), colOn)
	}
	cx := consoleArea.Min.X + 6 + int(float64(t.X)*charW)
	cy := consoleArea.Min.Y + 20 + t.Y*16
	rect(c, image.Rect(cx, cy+13, cx+int(charW), cy+15), colOn)
}

func (w *Window) drawStatus(c *canvas) {
	panel(c, statusArea, "Stop and breakpoints")
	y := statusArea.Min.Y + 18
	for _, l := range wrap(w.Status, int(float64(statusArea.Dx()-12)/charW)) {
		print(c, statusArea.Min.X+6, y, l, colText)
		y += lineH
	}
	if cur := w.d.Cursor(); cur != nil {
		// The T-state under the cursor, as the text front-end lists it.
		for _, l := range strings.Split(cur.Line(cur.K), "\n") {
			l = strings.Join(strings.Fields(l), " ")
			for _, part := range wrap(l, int(float64(statusArea.Dx()-12)/charW)) {
				print(c, statusArea.Min.X+6, y, part, colCurA)
				y += lineH
			}
		}
	}
	for _, bp := range w.d.Breakpoints() {
		if y > statusArea.Max.Y-lineH {
			break
		}
		print(c, statusArea.Min.X+6, y, bp.String(), colDim)
		y += lineH
	}
}

func wrap(s string, n int) []string {
	var out []string
	for len(s) > n && n > 0 {
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func (w *Window) drawTimeline(c *canvas) {
	w.drawStatus(c)
	r := timelineArea
	tl := w.TL
	panel(c, r, fmt.Sprintf("Timeline %s .. %s  (%s, wheel/+/- zoom, arrows pan, Home follow)",
		debugger.FormatTime(tl.From), debugger.FormatTime(tl.To()), debugger.FormatDuration(tl.Span)))
	x0 := r.Min.X + labelW
	tw := r.Dx() - labelW - 4
	const rowH = 20
	y0 := r.Min.Y + 20
	grid := tl.Sample(w.d.Rec, debugger.Rows, tw)
	for i, s := range debugger.Rows {
		y := y0 + i*rowH
		print(c, r.Min.X+6, y+2, s.Name(), colDim)
		hi, lo := float32(y+3), float32(y+rowH-3)
		// One rectangle per run of a level, a vertical line per change:
		// asserted is high with the band under it filled.
		cols := grid[i]
		for x := 0; x < len(cols); {
			if cols[x].Changed {
				fx := float32(x0+x) + 0.5
				c.strokeLine(fx, hi, fx, lo, 1, colWave, false)
				x++
				continue
			}
			run := x
			for run < len(cols) && !cols[run].Changed && cols[run].High == cols[x].High {
				run++
			}
			fx, fw := float32(x0+x), float32(run-x)
			if cols[x].High {
				c.fillRect(fx, hi, fw, lo-hi, colHigh, false)
				c.fillRect(fx, hi, fw, 1.5, colWave, false)
			} else {
				c.fillRect(fx, lo-1, fw, 1.5, colWave, false)
			}
			x = run
		}
	}
	// Data bytes where they fit.
	yd := y0 + len(debugger.Rows)*rowH
	print(c, r.Min.X+6, yd+2, "DATA", colDim)
	// Labels only where a few fit: the edges in the window bound the
	// bytes, and a count is cheap where a list is not.
	var trs []debugger.Transfer
	if w.d.Rec.Count(tl.From, tl.To()) < 8*tw {
		trs = w.d.Rec.Transfers(tl.From, tl.To())
	}
	lastX := -100
	for _, t := range trs {
		x := tl.XAt(t.T, tw)
		if x-lastX < int(charW*2.5) {
			continue
		}
		print(c, x0+x, yd+2, fmt.Sprintf("%02X", t.Data), colData)
		lastX = x
	}
	// Phase band and decoded commands.
	yp := yd + rowH
	print(c, r.Min.X+6, yp+2, "PHASE", colDim)
	segs := w.d.Rec.Segments(tl.From, tl.To())
	for _, s := range segs {
		a := max(0, tl.XAt(s.Start, tw))
		b := tw
		if s.End != 0 {
			b = min(tw, tl.XAt(s.End, tw))
		}
		if b <= a {
			b = a + 1
		}
		rect(c, image.Rect(x0+a, yp+2, x0+b, yp+rowH-2), phaseColors[s.Phase])
		if label := s.Phase.String(); float64(b-a) > charW*float64(len(label)+1) {
			print(c, x0+a+2, yp+2, label, colText)
		}
	}
	yc := yp + rowH
	print(c, r.Min.X+6, yc+2, "CMD", colDim)
	// Each command overlapping the window is labelled from its COMMAND
	// phase (or the window's left edge) on, so a long DATA IN still says
	// which command it belongs to.
	for _, cmd := range w.d.Rec.Commands(tl.From, tl.To()) {
		if cmd.CDBLen == 0 {
			continue
		}
		x := max(0, tl.XAt(cmd.Start, tw))
		print(c, x0+x, yc+2, w.d.CommandLine(&cmd), colTitle)
	}
	// Cursors and the measurement.
	for _, cur := range []struct {
		t   sched.Time
		col color.Color
		n   string
	}{{tl.A, colCurA, "A"}, {tl.B, colCurB, "B"}} {
		if cur.t == 0 {
			continue
		}
		x := tl.XAt(cur.t, tw)
		if x < 0 || x >= tw {
			continue
		}
		fx := float32(x0+x) + 0.5
		c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, cur.col, false)
		print(c, x0+x+2, y0-16, cur.n, cur.col)
	}
	// The T-state cursor's time.
	if cur := w.d.Cursor(); cur != nil {
		if x := tl.XAt(cur.Time(), tw); x >= 0 && x < tw {
			fx := float32(x0+x) + 0.5
			c.strokeLine(fx, float32(y0), fx, float32(yc+rowH), 1, colBreak, false)
			print(c, x0+x+2, y0-16, "T", colBreak)
		}
	}
	ym := yc + rowH + 2
	if tl.A != 0 || tl.B != 0 {
		print(c, r.Min.X+6, ym, fmt.Sprintf("A %s   B %s   B-A %s", debugger.FormatTime(tl.A), debugger.FormatTime(tl.B),
			debugger.FormatDuration(tl.Delta())), colText)
	}
}
