package window

// The keyboard and the mouse: keys are core calls, clicks select.

import (
	"image"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

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
		w.follow()
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
		w.viewMoved = true
		w.TL.Pan(-0.25)
	case ebiten.KeyArrowRight:
		w.viewMoved = true
		w.TL.Pan(0.25)
	case ebiten.KeyHome:
		w.follow()
	case ebiten.KeyBracketRight:
		w.stepCommand(1)
	case ebiten.KeyBracketLeft:
		w.stepCommand(-1)
	case ebiten.KeyG:
		w.gotoActive, w.gotoText = true, ""
	case ebiten.KeyPageUp:
		w.MemAddr -= 0x80
	case ebiten.KeyPageDown:
		w.MemAddr += 0x80
	}
}

var keys = []ebiten.Key{ebiten.KeyF2, ebiten.KeyF3, ebiten.KeyF4, ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7, ebiten.KeyF8, ebiten.KeyF9,
	ebiten.KeyF10, ebiten.KeyF11, ebiten.KeyTab, ebiten.KeyEqual, ebiten.KeyKPAdd, ebiten.KeyMinus,
	ebiten.KeyKPSubtract, ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyHome, ebiten.KeyPageUp, ebiten.KeyPageDown,
	ebiten.KeyBracketLeft, ebiten.KeyBracketRight, ebiten.KeyG}

func (w *Window) input() {
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	if ebiten.IsKeyPressed(ebiten.KeyControl) && inpututil.IsKeyJustPressed(ebiten.KeyF11) {
		w.TStep()
		return
	}
	if w.gotoActive {
		w.GotoType(string(ebiten.AppendInputChars(nil)))
		for _, k := range []ebiten.Key{ebiten.KeyEnter, ebiten.KeyKPEnter, ebiten.KeyEscape, ebiten.KeyBackspace} {
			if inpututil.IsKeyJustPressed(k) {
				w.GotoKey(k)
			}
		}
	} else if w.promptInput() {
		// The command line has the keyboard (prompt.go).
	} else if w.MemEdit {
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
	if _, dy := ebiten.Wheel(); dy != 0 {
		w.Wheel(p, dy)
	}
	for _, b := range []ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight} {
		if inpututil.IsMouseButtonJustPressed(b) {
			w.Click(p, b == ebiten.MouseButtonRight, shift)
		}
	}
}

// Wheel acts on the mouse wheel at p: it zooms the timeline about the
// time under the pointer, or scrolls the command list.
func (w *Window) Wheel(p image.Point, dy float64) {
	switch {
	case p.In(timelineArea):
		x0, tw := timelineView()
		if p.X < x0 {
			return
		}
		f := 0.8
		if dy < 0 {
			f = 1.25
		}
		w.viewMoved = true
		w.TL.Follow = false
		w.TL.Zoom(f, w.TL.TimeAt(p.X-x0, tw))
	case p.In(transferArea):
		step := 3
		if dy > 0 {
			step = -3
		}
		w.xferScroll = max(0, w.xferScroll+step)
	case p.In(cmdsArea):
		step := 3
		if dy < 0 {
			step = -3
		}
		w.listScroll = max(0, w.listScroll+step)
	}
}

// Click acts on a mouse click at p (right: the right button; shift held).
func (w *Window) Click(p image.Point, right, shift bool) {
	x, y := p.X, p.Y
	if p.In(timelineArea) {
		if x0, tw := timelineView(); x >= x0 {
			w.SetCursor(right, w.TL.TimeAt(x-x0, tw), shift)
		}
	}
	if right {
		return
	}
	w.MemEdit = false
	if p.In(memArea) {
		row := (y - memArea.Min.Y - 18) / lineH
		col := int(float64(x-memArea.Min.X-6) / charW)
		for j := 0; j < 16; j++ {
			if row >= 0 && row < memRows() && col >= memCol(j) && col < memCol(j)+2 {
				w.EditMemory(w.MemAddr + uint16(16*row+j))
			}
		}
	}
	if p.In(disArea) {
		w.Selected = (y - disArea.Min.Y - 18) / lineH
		w.selectedSet = true
	}
	if p.In(cmdsArea) {
		w.clickList(y)
	}
}

// GotoType adds typed characters to the go-to-time prompt.
func (w *Window) GotoType(s string) {
	for _, r := range s {
		if r > ' ' && r < 0x7F {
			w.gotoText += string(r)
		}
	}
}

// GotoKey is Enter (go), Escape (leave) or Backspace in the go-to-time
// prompt: the time is simulated time from power-on, as the timeline
// shows it (250ns, 15us, 10ms, 2s, or microseconds).
func (w *Window) GotoKey(k ebiten.Key) {
	switch k {
	case ebiten.KeyBackspace:
		if n := len(w.gotoText); n > 0 {
			w.gotoText = w.gotoText[:n-1]
		}
	case ebiten.KeyEscape:
		w.gotoActive = false
	case ebiten.KeyEnter, ebiten.KeyKPEnter:
		w.gotoActive = false
		t, err := debugger.ParseDuration(w.gotoText)
		if err != nil {
			w.Status = "go to: " + err.Error()
			return
		}
		w.GoTo(t)
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
