//go:build window

package window

import (
	"bytes"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/roms/backup"
)

// enter types line at the open prompt and presses Enter, as the keyboard
// does.
func enter(w *Window, line string) {
	w.PromptType(line)
	w.PromptKey(ebiten.KeyEnter)
}

// screenshot renders w and reads the pixels back (on the game loop).
func screenshot(w *Window) *image.RGBA {
	c := w.Render()
	img := image.NewRGBA(c.Bounds())
	c.ReadPixels(img.Pix)
	return img
}

// compareShot compares the panels named of got with the golden image
// name in testdata (-update rewrites it), with the screenshot test's
// tolerance.
func compareShot(t *testing.T, name string, got *image.RGBA, panels ...string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if golden.Update() {
		require.NoError(t, writePNG(path, got))
		return
	}
	want, err := readPNG(path)
	require.NoError(t, err, "run with -update to create %s", path)
	require.Equal(t, want.Bounds(), got.Bounds())
	for _, p := range panels {
		r, ok := Areas()[p]
		require.True(t, ok, p)
		n, bad := diff(want, got, r)
		if bad > n/200 {
			t.Errorf("%s panel %s: %d of %d pixels differ; %s", name, p, bad, n, saveDiff(t, want, got))
		}
	}
}

// The prompt in a backup run: `break cdb 0A` and `continue` stop at the
// tape WRITE, `mem 4000` puts BACKUP's buffer in the memory panel and
// `dis start` its first instruction in the disassembly; the pane shows
// each command and its output (testdata/prompt.png). Resumed, the run
// ends as one never stopped.
func TestPromptInBackupRun(t *testing.T) {
	row := bench.Rows(2)[0]
	plain, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), DiskPattern: true})
	require.NoError(t, err)
	require.Empty(t, plain.Failed)
	prog, err := backup.Build()
	require.NoError(t, err)
	var shot *image.RGBA
	var w *Window
	onStart := func(bd *emu.Board) {
		d := debugger.ForBoard(bd, debugger.NewRecorder(1<<16))
		d.Syms.AddResult(prog)
		w = New(d, Options{Text: debugger.NewText(d, bd, nil)})
		w.OpenPrompt("")
		require.True(t, w.PromptOpen())
		enter(w, "break cdb 0A")
		enter(w, "continue")
		assert.Equal(t, Paused, w.Speed())
		assert.Contains(t, w.Status, "WRITE(6) LUN 0", "the window shows the stop")
		c := d.Rec.CurrentCommand()
		require.NotNil(t, c)
		assert.Equal(t, 0x0A, c.Opcode())
		assert.Equal(t, bench.TapeID, c.Target)

		enter(w, "mem 4000")
		assert.Equal(t, uint16(0x4000), w.MemAddr, "the memory panel went to BACKUP's buffer")
		var row0 strings.Builder
		for i := 0; i < 16; i++ {
			fmt.Fprintf(&row0, "%02X ", bd.Peek(0x4000+uint16(i)))
		}
		assert.Contains(t, strings.Join(w.PaneLines(), "\n"), "4000  "+row0.String())
		// The buffer holds the disk's blocks the WRITE sends: block 0.
		for i := 0; i < 512; i++ {
			require.Equal(t, bench.Pattern(0, i), bd.Peek(0x4000+uint16(i)), "buffer byte %d", i)
		}

		start, err := prog.Symbol("start")
		require.NoError(t, err)
		enter(w, "dis start 2")
		shot = screenshot(w)
		require.NotEmpty(t, w.disLines)
		assert.Equal(t, start, w.disLines[w.Selected].Addr, "the disassembly went to start")

		pane := strings.Join(w.PaneLines(), "\n")
		for _, want := range []string{"> break cdb 0A", "breakpoint 1: CDB opcode 0Ah", "> continue", "WRITE(6) LUN 0",
			"> mem 4000", "> dis start 2"} {
			assert.Contains(t, pane, want)
		}
		enter(w, "delete 1")
		assert.Empty(t, d.Breakpoints())
	}
	var got bench.Result
	onGame(func() {
		got, err = bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), DiskPattern: true, OnStart: onStart})
	})
	require.NoError(t, err)
	require.NotNil(t, shot)
	compareShot(t, "prompt.png", shot, "console", "memory", "disasm", "breakpoints")
	assert.Equal(t, plain.TStates, got.TStates)
	assert.Equal(t, plain.Bytes, got.Bytes)
}

// Tab completes a command name (the one that fits, or the names' common
// prefix with the names listed), Up and Down walk the history back to the
// line being typed, Esc closes the prompt and ':' reopens it where it was
// (testdata/prompt-history.png).
func TestPromptHistoryAndCompletion(t *testing.T) {
	w, _ := newWindow(t)
	w.OpenPrompt("")
	w.PromptType("wat")
	w.PromptKey(ebiten.KeyTab)
	assert.Equal(t, "watch ", w.PromptLine(), "one name fits")
	w.PromptType("8000")
	w.PromptKey(ebiten.KeyEnter)
	assert.Equal(t, "", w.PromptLine())
	require.Len(t, w.d.Breakpoints(), 1)
	assert.Contains(t, w.d.Breakpoints()[0].String(), "memory 8000h-8000h written")

	w.PromptType("ti")
	w.PromptKey(ebiten.KeyTab)
	assert.Equal(t, "time", w.PromptLine(), "time and timeline share time")
	assert.Equal(t, "time  timeline", w.PaneLines()[len(w.PaneLines())-1], "the names that fit are listed")
	w.PromptKey(ebiten.KeyTab)
	assert.Equal(t, "time", w.PromptLine())
	w.PromptKey(ebiten.KeyEnter)
	assert.Regexp(t, `^0\.000 us \(T-state 0\)$`, w.PaneLines()[len(w.PaneLines())-1])

	w.PromptType("regs 1")
	w.PromptKey(ebiten.KeyTab)
	assert.Equal(t, "regs 1", w.PromptLine(), "arguments are not completed")
	w.PromptKey(ebiten.KeyBackspace)
	w.PromptKey(ebiten.KeyBackspace)
	w.PromptType("x")
	for _, want := range []string{"time", "watch 8000", "watch 8000"} {
		w.PromptKey(ebiten.KeyArrowUp)
		assert.Equal(t, want, w.PromptLine())
	}
	for _, want := range []string{"time", "regsx", "regsx"} {
		w.PromptKey(ebiten.KeyArrowDown)
		assert.Equal(t, want, w.PromptLine(), "down to the line being typed")
	}
	w.PromptKey(ebiten.KeyArrowUp)
	w.PromptKey(ebiten.KeyEnter) // time again: the history keeps it once
	w.PromptKey(ebiten.KeyArrowUp)
	w.PromptKey(ebiten.KeyArrowUp)
	assert.Equal(t, "watch 8000", w.PromptLine())
	w.PromptKey(ebiten.KeyArrowDown)
	w.PromptKey(ebiten.KeyArrowDown)
	w.PromptType("frob")
	w.PromptKey(ebiten.KeyEnter)
	assert.Equal(t, `error: unknown command "frob" (help lists them)`, w.PaneLines()[len(w.PaneLines())-1])
	w.PromptType("he")
	w.PromptKey(ebiten.KeyTab)
	assert.Equal(t, "help ", w.PromptLine())
	w.PromptKey(ebiten.KeyEnter)
	pane := strings.Join(w.PaneLines(), "\n")
	for _, c := range debugger.TextCommands() {
		assert.Contains(t, pane, c.Synopsis(), "help in the pane lists %s", c.Names[0])
	}
	w.PromptType("ti")
	w.PromptKey(ebiten.KeyTab)
	var shot *image.RGBA
	onGame(func() { shot = screenshot(w) })
	compareShot(t, "prompt-history.png", shot, "console")
	// No text of the pane leaves it or overlaps another, at the window's
	// sizes.
	checkLayout(t, w)
	for _, size := range []image.Point{{1280, 800}, {MinWidth, MinHeight}, {1920, 1080}} {
		onGame(func() {
			w.Resize(size.X, size.Y)
			w.Render()
		})
		checkLayout(t, w)
	}
	onGame(func() {
		w.Resize(Width, Height)
		w.Render()
	})

	w.PromptKey(ebiten.KeyEscape)
	assert.False(t, w.PromptOpen())
	w.OpenPrompt("dis ")
	assert.Equal(t, "dis ", w.PromptLine(), "a go-to key opens the prompt with its command typed")
	w.PromptType("0")
	w.PromptKey(ebiten.KeyEnter)
	assert.True(t, w.cmd.disSet)
	w.Command("step")
	assert.False(t, w.cmd.disSet, "a stop brings the disassembly back to PC")
	w.Command("quit")
	assert.ErrorIs(t, w.quit, ebiten.Termination, "quit closes the window")
}

// A script runs in the window one command a frame, echoed with its
// output in the pane and to stdout; its breakpoint stops the machine with
// the window open, and an error ends it with the line's number.
func TestWindowScript(t *testing.T) {
	w, _ := newWindow(t)
	script := "# the boot's READ(6)\nbreak phase DATAIN\ncontinue\nmem 8000 16\nbogus\nregs\n"
	var stdout bytes.Buffer
	require.NoError(t, w.RunScript(strings.NewReader(script), "boot.dbg", &stdout))
	assert.True(t, w.PromptOpen(), "the pane shows the script")
	w.Tick()
	onGame(func() { w.Render() })
	checkLayout(t, w) // the script's line count beside the prompt
	frames := 1
	for w.ScriptRunning() && frames < 20 {
		w.Tick()
		frames++
	}
	require.False(t, w.ScriptRunning())
	assert.Equal(t, 5, frames, "a line a frame (the comment too), up to the error")
	out := stdout.String()
	for _, want := range []string{"> break phase DATAIN", "breakpoint 1: phase DATA IN", "> continue", "DATA IN entered",
		"> mem 8000 16", "8000  ", "> bogus", `debugger: boot.dbg: line 5: unknown command "bogus" (help lists them)`} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "> regs", "the error ended the script")
	assert.Contains(t, w.Status, "DATA IN entered", "stopped at the script's breakpoint")
	assert.Equal(t, uint16(0x8000), w.MemAddr)
	assert.Nil(t, w.quit, "the window stays open")
	pane := strings.Join(w.PaneLines(), "\n")
	assert.Contains(t, pane, strings.TrimSuffix(out, "\n"), "the pane has what stdout has")
	w.Command("time")
	assert.Equal(t, out, stdout.String(), "the prompt's own commands are not written to stdout")

	// A script's quit closes the window.
	w2, _ := newWindow(t)
	require.NoError(t, w2.RunScript(strings.NewReader("time\nquit\ntime\n"), "q.dbg", nil))
	for i := 0; i < 5; i++ {
		w2.Tick()
	}
	assert.ErrorIs(t, w2.quit, ebiten.Termination)
	assert.Equal(t, 1, strings.Count(strings.Join(w2.PaneLines(), "\n"), "> time"))
}

func TestWrapLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"  indented words here", 11, []string{"  indented", "  words", "  here"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
	} {
		assert.Equal(t, c.want, wrapLine(c.in, c.n), "%q", c.in)
	}
}
