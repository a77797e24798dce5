//go:build window

// The window's tests need a display: make test runs them under xvfb-run
// (go test -tags window ./debugger/window). ebiten opens the display when
// the test binary starts, so without the tag they are not built at all.

package window

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/debugger/internal/debuggertest"
	"github.com/lbplus/lbplus/devices/acb4000"
	diskimage "github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// host runs the tests' calls on ebiten's game loop, where images can be
// drawn and read back; with a window attached, its frames are the
// window's (Update and Draw), as they are when the window is open.
type host struct {
	calls chan func()
	done  chan struct{}

	mu    sync.Mutex
	w     *Window
	draws int
}

func (h *host) Update() error {
	for {
		select {
		case f := <-h.calls:
			f()
		case <-h.done:
			return ebiten.Termination
		default:
			if w := h.window(); w != nil {
				return w.Update()
			}
			return nil
		}
	}
}

func (h *host) Draw(screen *ebiten.Image) {
	if w := h.window(); w != nil {
		w.Draw(screen)
		h.mu.Lock()
		h.draws++
		h.mu.Unlock()
	}
}

func (h *host) Layout(int, int) (int, int) { return 64, 64 }

func (h *host) window() *Window {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.w
}

// attach gives the game loop's frames to w (nil: back to the tests'
// calls) and returns the frames drawn so far.
func (h *host) attach(w *Window) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.w = w
	return h.draws
}

var theHost = &host{calls: make(chan func()), done: make(chan struct{})}

// TestMain runs the tests on a goroutine while ebiten's loop owns the
// main thread.
func TestMain(m *testing.M) {
	flag.Parse()
	code := 1
	go func() {
		code = m.Run()
		close(theHost.done)
	}()
	ebiten.SetWindowSize(64, 64)
	if err := ebiten.RunGame(theHost); err != nil && !errors.Is(err, ebiten.Termination) {
		fmt.Fprintln(os.Stderr, "window tests:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// onGame runs f on the game loop and waits for it.
func onGame(f func()) {
	done := make(chan struct{})
	theHost.calls <- func() {
		defer close(done)
		f()
	}
	<-done
}

// newWindow is the boot ROM with an ACB-4000 at SCSI ID 0 and the window
// on its debugger, paused at reset.
func newWindow(t *testing.T) (*Window, *emu.Board) {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	cfg := emu.DefaultConfig(rom)
	path := filepath.Join(t.TempDir(), "hd0.img")
	require.NoError(t, acb4000.Create(path, acb4000.Geometries["st125"], true, 3))
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	var w *Window
	cfg.ConsoleOut = func(_ sched.Time, b byte) { w.Console(b) }
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	d := debugger.ForBoard(b, debugger.NewRecorder(1<<18))
	res, err := monitor.Result()
	require.NoError(t, err)
	d.Syms.AddResult(res)
	w = New(d, Options{Chip: b.NCR5380(), ConsoleIn: b.ConsoleInput, Panels: debugger.DevicePanels(b)})
	return w, b
}

// newPIOWindow is the window on the tests' own program (testdata/
// pioread.asm, loaded at 0100h behind a stub ROM) printing a line on the
// console and reading block 0 of an ACB-4000 at SCSI ID 0 by programmed
// I/O, with an MCD-403 at ID 1 and a floppy drive (so that every device
// panel shows): the screenshots depend on nothing another package may
// change but the models' timing.
func newPIOWindow(t *testing.T) (*Window, *emu.Board) {
	t.Helper()
	prog, err := asm.Assemble(os.DirFS("testdata"), "pioread.asm", asm.Options{})
	require.NoError(t, err)
	cfg := emu.DefaultConfig(emu.StubROM(prog.Org))
	dir := t.TempDir()
	path, tape := filepath.Join(dir, "hd0.img"), filepath.Join(dir, "t.tape")
	require.NoError(t, acb4000.Create(path, acb4000.Geometries["st125"], true, 3))
	require.NoError(t, mcd403.Create(tape, 3))
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}, {ID: 1, Type: "mcd403", Images: []string{tape}}}
	cfg.Floppies = []emu.Floppy{{Drive: 0}}
	var w *Window
	cfg.ConsoleOut = func(_ sched.Time, c byte) { w.Console(c) }
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	b.LoadRAM(0, emu.Stub(prog.Org))
	b.LoadRAM(prog.Org, prog.Bytes)
	d := debugger.ForBoard(b, debugger.NewRecorder(1<<18))
	d.Syms.AddResult(prog)
	w = New(d, Options{Chip: b.NCR5380(), ConsoleIn: b.ConsoleInput, Panels: debugger.DevicePanels(b)})
	w.MemAddr = uint16(prog.Symbols["buffer"])
	return w, b
}

// midDataIn runs the machine to the middle of a READ of block 0, in its
// DATA IN phase, with the timeline's cursors on two consecutive
// ACKs, through the window's own keys.
func midDataIn(t *testing.T, w *Window) {
	t.Helper()
	w.d.BreakOnPhase(scsi.DataIn)
	w.Key(ebiten.KeyF5, false) // run
	require.Equal(t, Realtime, w.Speed())
	for i := 0; i < 60*10 && w.Speed() != Paused; i++ {
		w.Tick()
	}
	require.Equal(t, Paused, w.Speed(), "the DATA IN breakpoint stopped the run")
	require.Contains(t, w.Status, "DATA IN entered")
	require.NoError(t, w.d.Delete(1))
	for i := 0; i < 256; i++ {
		w.Key(ebiten.KeyF8, false) // next bus byte
	}
	require.Contains(t, w.Status, "DATA IN byte")
	tr := w.d.Rec.Transfers(0, sched.MaxTime)
	_, err := w.TL.CursorsOnConsecutive(w.d.Rec, debugger.Signal(scsi.ACK), tr[len(tr)-3].T)
	require.NoError(t, err)
	w.TL.Span = 600 * sched.Microsecond
	w.TL.Center(w.TL.A)
}

func TestWindowKeys(t *testing.T) {
	w, b := newWindow(t)
	onGame(func() {
		pc := w.d.PC()
		w.Render()
		w.Key(ebiten.KeyF9, false) // breakpoint at the selected line (PC)
		assert.True(t, w.d.HasExec(pc))
		w.Key(ebiten.KeyF11, false)
		assert.NotEqual(t, pc, w.d.PC(), "step into moved PC")
		w.Key(ebiten.KeyF9, false)
		w.Key(ebiten.KeyF2, false)
		assert.Equal(t, Max, w.Speed())
		w.Key(ebiten.KeyF5, false)
		assert.Equal(t, Paused, w.Speed())
		span := w.TL.Span
		w.Key(ebiten.KeyMinus, false)
		assert.Equal(t, 2*span, w.TL.Span, "zoom out")
		w.Key(ebiten.KeyEqual, false)
		assert.Equal(t, span, w.TL.Span, "zoom in")
		w.Key(ebiten.KeyArrowLeft, false)
		assert.False(t, w.TL.Follow)
		w.Key(ebiten.KeyHome, false)
		assert.True(t, w.TL.Follow)
		w.Key(ebiten.KeyTab, false)
		assert.True(t, w.ConsoleFocus)
		// Run to the boot banner: the console panel shows what the
		// terminal would.
		w.SetSpeed(Max)
		for i := 0; i < 20; i++ {
			w.Tick()
		}
		assert.Contains(t, w.Term.Line(1), "lbplus boot ROM")
		assert.Greater(t, b.Now(), sched.Second)
		// A key typed on the console panel during the boot reaches the
		// DART: the ROM enters its monitor and prompts.
		w.Type([]byte("x"))
		for i := 0; i < 10; i++ {
			w.Tick()
		}
		screen := ""
		for y := 0; y < w.Term.Rows; y++ {
			screen += w.Term.Line(y) + "\n"
		}
		assert.Contains(t, screen, "lbplus monitor")
		assert.Equal(t, "> ", w.Term.Line(w.Term.Y)[:2], "the cursor sits after the prompt")
	})
}

// F3 saves the machine's state, F4 loads it back.
func TestWindowSaveLoad(t *testing.T) {
	w, b := newWindow(t)
	w.opt.StateFile = filepath.Join(t.TempDir(), "w.state")
	onGame(func() {
		for i := 0; i < 100; i++ {
			w.Key(ebiten.KeyF11, false)
		}
		pc, now := w.d.PC(), b.Now()
		w.Key(ebiten.KeyF3, false)
		require.Contains(t, w.Status, "saved the machine")
		for i := 0; i < 100; i++ {
			w.Key(ebiten.KeyF11, false)
		}
		require.NotEqual(t, now, b.Now())
		w.Key(ebiten.KeyF4, false)
		require.Contains(t, w.Status, "loaded")
		assert.Equal(t, pc, w.d.PC())
		assert.Equal(t, now, b.Now())
		w.opt.StateFile = filepath.Join(t.TempDir(), "none", "x.state")
		w.Key(ebiten.KeyF4, false)
		assert.Contains(t, w.Status, "error:")
	})
}

// F10 over a CALL stops at the next line, the stack at its level; F11
// into the next CALL and Shift+F11 out of it stop there too.
func TestWindowStepOver(t *testing.T) {
	w, _ := newWindow(t)
	onGame(func() {
		// toCall steps with F11 to the next CALL nn.
		toCall := func() bool {
			for i := 0; i < 200000; i++ {
				if w.d.Machine().Peek(w.d.PC()) == 0xCD {
					return true
				}
				w.Key(ebiten.KeyF11, false)
			}
			t.Error("no CALL in 200000 instructions")
			return false
		}
		if !toCall() {
			return
		}
		r := w.d.Machine().Regs()
		w.Key(ebiten.KeyF10, false)
		assert.Equal(t, r.PC+3, w.d.PC(), "F10 ran the call and stopped after it")
		assert.Equal(t, r.SP, w.d.Machine().Regs().SP)

		if !toCall() {
			return
		}
		r = w.d.Machine().Regs()
		target := uint16(w.d.Machine().Peek(r.PC+1)) | uint16(w.d.Machine().Peek(r.PC+2))<<8
		w.Key(ebiten.KeyF11, false)
		assert.Equal(t, target, w.d.PC(), "F11 went into the call")
		assert.Equal(t, r.SP-2, w.d.Machine().Regs().SP)
		w.Key(ebiten.KeyF11, true)
		assert.Equal(t, r.PC+3, w.d.PC(), "Shift+F11 ran to the return")
		assert.Equal(t, r.SP, w.d.Machine().Regs().SP)
	})
}

// Screenshots of every panel in the middle of a DATA IN phase, compared
// with the golden image; -update rewrites it and docs/debugger.png.
func TestWindowScreenshots(t *testing.T) {
	w, _ := newPIOWindow(t)
	var got *image.RGBA
	onGame(func() {
		midDataIn(t, w)
		c := w.Render()
		got = image.NewRGBA(c.Bounds())
		c.ReadPixels(got.Pix)
	})
	// The view model the screenshot shows: the byte-mode handshake of
	// the programmed I/O loop, slower than BACKUP's 15 us.
	assert.Greater(t, w.TL.Delta(), 15*sched.Microsecond)
	path := filepath.Join("testdata", "window.png")
	if golden.Update() { // the screenshot, and docs/debugger.png from it
		require.NoError(t, writePNG(path, got))
		require.NoError(t, writePNG(filepath.Join("..", "..", "docs", "debugger.png"), got))
		return
	}
	want, err := readPNG(path)
	require.NoError(t, err, "run with -update to create %s", path)
	require.Equal(t, want.Bounds(), got.Bounds())
	for name, r := range Areas() {
		t.Run(name, func(t *testing.T) {
			n, bad := diff(want, got, r)
			// Tolerance: 0.5% of a panel's pixels may differ by more than
			// 48 in a channel (font rasterisation across Mesa versions).
			if bad > n/200 {
				t.Errorf("panel %s: %d of %d pixels differ; %s", name, bad, n, saveDiff(t, want, got))
			}
		})
	}
}

func diff(a, b *image.RGBA, r image.Rectangle) (n, bad int) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n++
			i := a.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				d := int(a.Pix[i+c]) - int(b.Pix[i+c])
				if d > 48 || d < -48 {
					bad++
					break
				}
			}
		}
	}
	return n, bad
}

// saveDiff writes the screenshot, and with ImageMagick's compare a diff
// image, for whoever looks into a failure.
func saveDiff(t *testing.T, want, got *image.RGBA) string {
	dir, err := os.MkdirTemp("", "lbplus-window-")
	if err != nil {
		return err.Error()
	}
	gotPath := filepath.Join(dir, "got.png")
	if err := writePNG(gotPath, got); err != nil {
		return err.Error()
	}
	if _, err := exec.LookPath("compare"); err == nil {
		wantPath := filepath.Join(dir, "want.png")
		if writePNG(wantPath, want) == nil {
			exec.Command("compare", wantPath, gotPath, filepath.Join(dir, "diff.png")).Run()
			return "screenshot and diff in " + dir
		}
	}
	return "screenshot in " + gotPath
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readPNG(path string) (*image.RGBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	return rgba, nil
}

// BenchmarkRender is one frame's drawing, every panel, in the middle of a
// DATA IN phase: the display list only (built with the lock held), the
// draw calls (Go's share of a frame), and flushed
// and read back (which waits for the GL driver: under Xvfb that is Mesa's
// software renderer). At 60 frames/s a frame has 16.7 ms.
func BenchmarkRender(b *testing.B) {
	for _, tc := range []struct {
		name               string
		flush, full, build bool
	}{{"build", false, false, true}, {"build-full-ring-10s", false, true, true},
		{"draw", false, false, false}, {"flushed", true, false, false}, {"full-ring-10s", false, true, false}} {
		flush := tc.flush
		b.Run(tc.name, func(b *testing.B) {
			t := &testing.T{}
			w, bd := newPIOWindow(t)
			onGame(func() { midDataIn(t, w) })
			if tc.full {
				// The recorder full (its default 1 Mi edges) and the
				// widest zoom: the timeline walks the whole ring.
				w.d.Rec = debugger.NewRecorder(0)
				now := bd.Now()
				for i := 0; i < debugger.DefaultEdges; i++ {
					w.d.Rec.Set(now+sched.Time(i)*8*sched.Microsecond, debugger.DRQ, i%2 == 0)
				}
				w.TL.Span = debugger.MaxSpan
				w.TL.Center(now + 4*sched.Second)
			}
			onGame(func() {
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if tc.build {
						// The display list alone: the time a frame
						// holds the lock the runner needs.
						w.Locked(w.build)
						continue
					}
					c := w.Render()
					if flush {
						c.At(0, 0)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/frame")
			})
		})
	}
}

// BenchmarkWindowMax runs the story's best backup row in the window at
// maximum speed, recording on: the runner runs the machine while ebiten's
// game loop calls the window's Update and Draw as it does when the window
// is open ("window"), or with no frames at all ("no-frames", the same
// runner alone, measured alongside for comparison on a loaded host). It
// reports the machine's speed in millions of T-states per second of host
// time (the target: at least 100), per second of the runner thread's CPU
// time (what the machine gets from a core of its own, which a loaded host
// does not give it), the share of host time the runner was on a CPU, and
// the frames drawn per second.
func BenchmarkWindowMax(b *testing.B) {
	for _, frames := range []bool{false, true} {
		name := "no-frames"
		if frames {
			name = "window"
		}
		b.Run(name, func(b *testing.B) { benchWindowMax(b, frames) })
	}
}

func benchWindowMax(b *testing.B, withFrames bool) {
	rows := bench.Rows(48)
	row := rows[len(rows)-1]
	var tid atomic.Int32
	var cpu0 atomic.Int64 // the thread's CPU time when the runner took it
	runnerHook = func() {
		runtime.LockOSThread() // the goroutine keeps the thread; it ends with it
		id := syscall.Gettid()
		c, _ := threadCPU(id)
		cpu0.Store(int64(c))
		tid.Store(int32(id))
	}
	defer func() { runnerHook = nil }()
	var tstates uint64
	var host, cpu time.Duration
	frames := 0
	for i := 0; i < b.N; i++ {
		_, err := bench.Run(row.Setup, bench.Options{Dir: b.TempDir(), OnStart: func(bd *emu.Board) {
			d := debugger.ForBoard(bd, debugger.NewRecorder(0))
			w := New(d, Options{Chip: bd.NCR5380(), Panels: debugger.DevicePanels(bd), Runner: true})
			t0 := bd.CPU().T()
			w.SetSpeed(Max)
			tid.Store(0)
			start := time.Now()
			f0 := 0
			if withFrames {
				f0 = theHost.attach(w)
			} else {
				w.Locked(w.Tick) // starts the runner
			}
			for end := false; !end; {
				time.Sleep(20 * time.Millisecond)
				w.Locked(func() { end = bd.Now() >= 20*sched.Second || w.Speed() != Max })
			}
			// The runner's thread ends with it: read its CPU time first.
			c, err := threadCPU(int(tid.Load()))
			require.NoError(b, err)
			c -= time.Duration(cpu0.Load())
			if withFrames {
				frames += theHost.attach(nil) - f0
			}
			w.Pause()
			host += time.Since(start)
			cpu += c
			tstates += bd.CPU().T() - t0
		}})
		require.NoError(b, err)
	}
	b.ReportMetric(float64(tstates)/host.Seconds()/1e6, "MT/s")
	b.ReportMetric(float64(tstates)/cpu.Seconds()/1e6, "MT/runner-cpu-s")
	b.ReportMetric(100*cpu.Seconds()/host.Seconds(), "runner-%")
	b.ReportMetric(float64(frames)/host.Seconds(), "frames/s")
}

// threadCPU is the CPU time of thread tid of this process so far (Linux:
// the first field of /proc/self/task/TID/schedstat, in nanoseconds).
func threadCPU(tid int) (time.Duration, error) {
	p, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/schedstat", tid))
	if err != nil {
		return 0, err
	}
	var ns int64
	if _, err := fmt.Sscan(string(p), &ns); err != nil {
		return 0, fmt.Errorf("schedstat %q: %w", p, err)
	}
	return time.Duration(ns), nil
}

// At maximum speed the runner runs the machine on a goroutine of its own
// while the game loop draws: a DATA IN breakpoint stops it where it stops
// a run without the runner, and F5 pauses it.
func TestWindowRunner(t *testing.T) {
	ref, _ := newPIOWindow(t)
	ref.d.BreakOnPhase(scsi.DataIn)
	ref.SetSpeed(Max)
	onGame(func() {
		for i := 0; i < 100 && ref.Speed() == Max; i++ {
			ref.Tick()
		}
	})
	require.Equal(t, Paused, ref.Speed())

	w, b := newPIOWindow(t)
	w.opt.Runner = true
	w.d.BreakOnPhase(scsi.DataIn)
	w.SetSpeed(Max)
	f0 := theHost.attach(w) // the game loop's frames: Update starts the runner
	stopped := false
	for i := 0; i < 2000 && !stopped; i++ {
		time.Sleep(5 * time.Millisecond)
		w.Locked(func() { stopped = w.Speed() == Paused })
	}
	require.True(t, stopped, "the breakpoint stopped the runner")
	// The game loop draws the window's frames meanwhile.
	for i := 0; i < 1000 && theHost.attach(w) == f0; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	assert.Greater(t, theHost.attach(nil), f0, "frames drawn")
	w.Pause()
	assert.Equal(t, ref.d.Machine().Now(), b.Now(), "stopped at the same T-state")
	assert.Equal(t, ref.d.PC(), w.d.PC())
	assert.Contains(t, w.Status, "DATA IN entered")

	// F5 at maximum speed pauses the runner; nothing runs after Pause.
	require.NoError(t, w.d.Delete(1))
	w.SetSpeed(Max)
	at := b.Now()
	theHost.attach(w)
	ran := false
	for i := 0; i < 2000 && !ran; i++ {
		time.Sleep(5 * time.Millisecond)
		w.Locked(func() { ran = b.Now() > at+RunSlice })
	}
	w.Locked(func() { w.Key(ebiten.KeyF5, false) })
	theHost.attach(nil)
	w.Pause()
	now := b.Now()
	assert.Greater(t, now, ref.d.Machine().Now(), "the runner ran on")
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, now, b.Now())
	assert.Equal(t, Paused, w.Speed())
}

// The memory panel is an editor: hex digits typed at the cursor write
// through the core and move the cursor on.
func TestWindowMemoryEditor(t *testing.T) {
	w, b := newPIOWindow(t)
	onGame(func() {
		w.EditMemory(0x9000)
		assert.Equal(t, uint16(0x9000), w.MemAddr, "the panel shows the byte")
		for _, r := range "a5x3C" { // x is not a digit: ignored
			w.MemKey(r)
		}
		assert.Equal(t, uint8(0xA5), b.RAM(0x9000))
		assert.Equal(t, uint8(0x3C), b.RAM(0x9001))
		assert.Equal(t, uint16(0x9002), w.MemCursor)
		w.Render()
	})
}

// F7 runs to the next COMMAND phase, F6 to the next phase, F8 to the next
// byte: the top bar reports each decoded phase as the text front-end does.
func TestWindowStepKeys(t *testing.T) {
	w, _ := newPIOWindow(t)
	onGame(func() {
		w.Key(ebiten.KeyF7, false)
		assert.Equal(t, scsi.Command, w.d.Rec.Current().Phase)
		assert.Contains(t, w.Status, "SELECTION")
		assert.Contains(t, w.Status, "arbitration/selection of target 0")
		w.Key(ebiten.KeyF6, false)
		assert.Equal(t, scsi.DataIn, w.d.Rec.Current().Phase)
		assert.Contains(t, w.Status, "READ(6) LUN 0 LBA 0 blocks 1")
		w.Key(ebiten.KeyF8, false)
		assert.Contains(t, w.Status, "DATA IN byte")
		w.Key(ebiten.KeyF6, false)
		assert.Equal(t, scsi.Status, w.d.Rec.Current().Phase)
		assert.Contains(t, w.Status, "512 bytes")
		for _, want := range []scsi.Phase{scsi.MsgIn, scsi.BusFree} {
			w.Key(ebiten.KeyF6, false)
			assert.Equal(t, want, w.d.Rec.Current().Phase)
		}
		assert.Contains(t, w.Status, "COMMAND COMPLETE")
		w.Render()
	})
}

// While CP/M runs, the console panel is its terminal: DIR typed on it
// reaches the CCP through the DART and the listing shows on the panel.
func TestWindowCPMConsole(t *testing.T) {
	sys, err := cpm.System()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "hd0.img")
	// One CP/M partition: the smallest disk that boots.
	blocks := cpmbios.PartTracks * cpmbios.TrackBlocks
	g := acb4000.Geometry{Name: "test", Heads: 4, Sectors: 17, SectorSize: 512, Cylinders: (blocks+67)/68 + 1}
	require.NoError(t, acb4000.Create(path, g, true, 3))
	var m acb4000.Meta
	f, err := diskimage.Open(path, &m, false)
	require.NoError(t, err)
	require.NoError(t, cpmbios.InstallHD(f, sys, cpmbios.HDConfig{Partitions: 1}, true))
	fs, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	require.NoError(t, fs.Write(0, "WINDOW.TXT", []byte("typed in the console panel\r\n\x1a")))
	require.NoError(t, f.Close())

	rom, err := monitor.Image()
	require.NoError(t, err)
	cfg := emu.DefaultConfig(rom)
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	var w *Window
	cfg.ConsoleOut = func(_ sched.Time, c byte) { w.Console(c) }
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	d := debugger.ForBoard(b, debugger.NewRecorder(1<<16))
	w = New(d, Options{Chip: b.NCR5380(), ConsoleIn: b.ConsoleInput, Panels: debugger.DevicePanels(b)})
	screen := func() string {
		s := ""
		for y := 0; y < w.Term.Rows; y++ {
			s += w.Term.Line(y) + "\n"
		}
		return s
	}
	// Frames at maximum speed (without a host clock each runs
	// MaxFrameBudget of simulated time), drawn as the window would.
	until := func(want string) {
		t.Helper()
		for i := 0; i < 300 && !strings.Contains(screen(), want); i++ {
			w.Tick()
			w.Render()
		}
		require.Contains(t, screen(), want)
	}
	onGame(func() {
		w.SetSpeed(Max)
		until("A>")
		w.Key(ebiten.KeyTab, false)
		require.True(t, w.ConsoleFocus)
		w.Type([]byte("DIR\r"))
		until("WINDOW  ")
		assert.Regexp(t, `A>DIR\s*\n.*WINDOW  +:? *TXT`, screen())
		assert.Equal(t, Max, w.Speed(), "CP/M runs on while the window draws")
	})
}

// The window on a backup bench's board: a breakpoint on the tape's WRITE
// CDB stops it, F6 steps into the DATA OUT phase, and the run goes on at
// maximum speed, drawing every frame, until shortly before BACKUP ends;
// the harness then runs it to its end. The result is the one without a
// window, to the T-state.
func TestWindowBackupRun(t *testing.T) {
	rows := bench.Rows(1)
	row := rows[len(rows)-1]
	plain, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	require.Empty(t, plain.Failed)
	frames, stops := 0, 0
	onStart := func(bd *emu.Board) {
		d := debugger.ForBoard(bd, debugger.NewRecorder(1<<16))
		prog, err := backup.Build()
		require.NoError(t, err)
		d.Syms.AddResult(prog)
		w := New(d, Options{Chip: bd.NCR5380(), Panels: debugger.DevicePanels(bd)})
		d.BreakOnCDB(0x0A, -1)
		w.SetSpeed(Max)
		for bd.Now() < plain.BoardTime-2*MaxFrameBudget {
			w.Tick()
			w.Render()
			frames++
			if w.Speed() == Paused {
				stops++
				assert.Contains(t, w.Status, "WRITE(6) LUN 0")
				require.NoError(t, d.Delete(1))
				w.Key(ebiten.KeyF6, false)
				assert.Equal(t, scsi.DataOut, d.Rec.Current().Phase)
				w.Render()
				w.SetSpeed(Max)
			}
		}
		assert.NotEmpty(t, d.Rec.Commands(0, bd.Now()), "the timeline has the run's commands")
	}
	var dbg bench.Result
	onGame(func() {
		dbg, err = bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), OnStart: onStart})
	})
	require.NoError(t, err)
	t.Logf("%d frames, BACKUP's run %s", frames, debugger.FormatDuration(plain.BoardTime))
	assert.Equal(t, 1, stops)
	assert.Greater(t, frames, 5)
	assert.Empty(t, dbg.Failed)
	assert.Equal(t, plain.TStates, dbg.TStates)
	assert.Equal(t, plain.TraceHash, dbg.TraceHash)
	assert.Equal(t, plain.Elapsed, dbg.Elapsed)
	assert.Equal(t, plain.Bytes, dbg.Bytes)
}

// Shift+F7 runs to the next WD1772 command, Shift+F8 to the next index
// pulse: the boot ROM tries floppy A first, and with a diskette in drive
// A the spindle turns once in 200 ms (300 rpm).
func TestWindowFloppyKeys(t *testing.T) {
	b := debuggertest.BlankFloppyBoard(t)
	d := debugger.ForBoard(b, debugger.NewRecorder(1<<12))
	w := New(d, Options{Panels: debugger.DevicePanels(b)})
	onGame(func() {
		w.Key(ebiten.KeyF7, true)
		assert.Contains(t, w.Status, "WD1772 command started")
		var ts []sched.Time
		for i := 0; i < 3; i++ {
			w.Key(ebiten.KeyF8, true)
			require.Contains(t, w.Status, "index pulse of floppy drive 0")
			ts = append(ts, b.Now())
		}
		assert.InDelta(t, float64(200*sched.Millisecond), float64(ts[2]-ts[1]), float64(sched.Millisecond))
		w.Render()
	})
}

// The timeline's clicks: a left click sets cursor A, a right click B, and
// with Shift each snaps to the next ACK, so B-A reads the handshake.
func TestWindowCursors(t *testing.T) {
	w, _ := newPIOWindow(t)
	onGame(func() {
		midDataIn(t, w)
		tr := w.d.Rec.Transfers(0, sched.MaxTime)
		require.Greater(t, len(tr), 10)
		a, b := tr[len(tr)-5].T, tr[len(tr)-4].T
		_, tw := timelineView()
		w.SetCursor(false, a-sched.Microsecond, true)
		w.SetCursor(true, a+sched.Nanosecond, true)
		assert.Equal(t, a, w.TL.A, "snapped to the ACK")
		assert.Equal(t, b, w.TL.B, "snapped to the next ACK")
		assert.Equal(t, b-a, w.TL.Delta())
		// Without Shift a click sets the time under the pointer.
		x := w.TL.XAt(a, tw)
		at := w.TL.TimeAt(x, tw)
		w.SetCursor(false, at, false)
		assert.Equal(t, at, w.TL.A)
		assert.InDelta(t, float64(a), float64(at), float64(w.TL.Span)/float64(tw), "within a pixel")
		w.Render()
	})
}

// Ctrl+F11 moves the T-state cursor: in the middle of DATA IN the panels
// show the instruction under it T-state by T-state (the registers as at
// its start, the bus and the 5380 at the cursor), compared with
// testdata/tstate.png; past the instruction's last T-state the window
// stands at the next instruction as after F11.
func TestWindowTStep(t *testing.T) {
	w, b := newPIOWindow(t)
	var got *image.RGBA
	onGame(func() {
		midDataIn(t, w)
		// To the I/O write cycle of the next OUT to a 5380 register.
		for i := 0; i < 2000; i++ {
			w.TStep()
			if c := w.d.Cursor(); c != nil && c.Current().Cycle == "IOW" && c.Current().Name == "T2" &&
				strings.Contains(c.Current().Access, "5380") {
				break
			}
		}
		c := w.d.Cursor()
		require.NotNil(t, c)
		require.Equal(t, "IOW", c.Current().Cycle)
		assert.Contains(t, w.Status, "T2 of IOW")
		assert.Less(t, c.Time(), b.Now()+1, "the machine has run the instruction")
		img := w.Render()
		got = image.NewRGBA(img.Bounds())
		img.ReadPixels(got.Pix)
		for w.d.Cursor() != nil {
			w.TStep()
		}
		assert.Equal(t, c.T1, b.Now())
		assert.Contains(t, w.Status, "at ")
	})
	path := filepath.Join("testdata", "tstate.png")
	if golden.Update() {
		require.NoError(t, writePNG(path, got))
		return
	}
	want, err := readPNG(path)
	require.NoError(t, err, "run with -update to create %s", path)
	for _, name := range []string{"regs", "disasm", "ncr5380", "bus", "breakpoints", "timeline"} {
		r := Areas()[name]
		n, bad := diff(want, got, r)
		if bad > n/200 {
			t.Errorf("panel %s: %d of %d pixels differ; %s", name, bad, n, saveDiff(t, want, got))
		}
	}
}

// BenchmarkPausedWindow is the goal "a paused window uses little CPU":
// one op is one frame of ebiten's loop on a paused window nobody touches
// (Update, then Draw onto the screen), which draws nothing new. It reports
// the share of a core that 60 such frames a second take ("core-%", from
// the process's CPU time), against which BenchmarkRender is what every
// frame cost when each one was drawn.
func BenchmarkPausedWindow(b *testing.B) {
	t := &testing.T{}
	w, _ := newWindow(t)
	onGame(func() {
		screen := ebiten.NewImage(Width, Height)
		w.Update()
		w.Draw(screen) // the first frame is drawn
		b.ResetTimer()
		c0 := hostcpu.Process()
		for i := 0; i < b.N; i++ {
			if err := w.Update(); err != nil {
				b.Fatal(err)
			}
			w.Draw(screen)
		}
		perFrame := (hostcpu.Process() - c0) / float64(b.N)
		b.ReportMetric(perFrame*60*100, "core-%")
	})
}

// A paused window draws a frame only when something changed: the first
// frame, then none until the machine moves (a step) or its speed changes.
func TestPausedWindowDrawsOnChange(t *testing.T) {
	w, _ := newWindow(t)
	onGame(func() {
		screen := ebiten.NewImage(Width, Height)
		w.Update()
		assert.True(t, w.dirty, "the first frame")
		w.Draw(screen)
		for i := 0; i < 5; i++ {
			w.Update()
			assert.False(t, w.dirty, "nothing changed: no frame")
		}
		w.Locked(func() {
			_, err := w.d.StepInstruction()
			require.NoError(t, err)
		})
		w.Update()
		assert.True(t, w.dirty, "a step moved the machine")
		w.Draw(screen)
		w.Update()
		assert.False(t, w.dirty)
	})
}

// The top bar says the speed asked and the rate achieved: a host that
// keeps only a third of real time shows it, where the bar once said REAL
// TIME whatever it got.
func TestSpeedShowsRateAchieved(t *testing.T) {
	w, _ := newWindow(t)
	for _, tc := range []struct {
		speed Speed
		rate  float64
		want  string
	}{
		{Paused, 0, "PAUSED"},
		{Realtime, 0.32, "REAL TIME 32%"},
		{Realtime, 1, "REAL TIME 100%"},
		{Max, 25.04, "MAXIMUM 25.0x"},
		{Realtime, 0, "REAL TIME"}, // not measured yet
	} {
		w.speed, w.rate = tc.speed, tc.rate
		assert.Equal(t, tc.want, w.speedText())
	}
	w.speed = Paused
}
