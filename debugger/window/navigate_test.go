//go:build window

package window

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// bootRead runs the boot ROM until its READ(6) of block 0 has ended and
// returns that command.
func bootRead(t *testing.T, w *Window) debugger.Command {
	t.Helper()
	w.SetSpeed(Max)
	for i := 0; i < 400; i++ { // the disk spins up first: about 15 s
		w.Tick()
		if cs := w.d.Rec.Commands(0, sched.MaxTime); len(cs) > 0 && cs[0].End != 0 {
			break
		}
	}
	w.SetSpeed(Paused)
	cs := w.d.Rec.Commands(0, sched.MaxTime)
	require.NotEmpty(t, cs)
	require.NotZero(t, cs[0].End, "the READ ended")
	require.Equal(t, []byte{0x08, 0, 0, 0, 1, 0}, cs[0].Bytes())
	return cs[0]
}

// screenshotPanels compares the named panels of got with the golden
// image at path (-update rewrites it).
func screenshotPanels(t *testing.T, got *image.RGBA, path string, names ...string) {
	t.Helper()
	if golden.Update() {
		require.NoError(t, writePNG(path, got))
		return
	}
	want, err := readPNG(path)
	require.NoError(t, err, "run with -update to create %s", path)
	require.Equal(t, want.Bounds(), got.Bounds())
	for _, name := range names {
		r := Areas()[name]
		if n, bad := diff(want, got, r); bad > n/200 {
			t.Errorf("panel %s: %d of %d pixels differ; %s", name, bad, n, saveDiff(t, want, got))
		}
	}
}

func grab(img *ebiten.Image) *image.RGBA {
	got := image.NewRGBA(img.Bounds())
	img.ReadPixels(got.Pix)
	return got
}

func centre(r image.Rectangle) image.Point { return r.Min.Add(r.Size().Div(2)) }

// Clicking a command in the list centres it on the timeline, fitted to
// it, and opens it into its phases; clicking a phase shows that phase;
// the view stays frozen there while the machine runs until Home.
func TestWindowCommandList(t *testing.T) {
	w, _ := newWindow(t)
	var got *image.RGBA
	onGame(func() {
		read := bootRead(t, w)
		w.Render()
		assert.True(t, w.TL.Follow, "a window nobody moved follows the present")
		assert.Equal(t, "following", w.following())
		row, ok := w.CommandRow(read.Start)
		require.True(t, ok, "the READ is listed")
		w.Click(centre(row), false, false)
		assert.Equal(t, read.Start, w.SelCmd)
		mid := read.Start + (read.End-read.Start)/2
		assert.InDelta(t, float64(mid), float64(w.TL.From+w.TL.Span/2), float64(w.TL.Span)/1000, "the command is centred")
		assert.Less(t, read.End-read.Start, w.TL.Span, "and fits")
		assert.Equal(t, "frozen", w.following())
		assert.False(t, w.TL.Follow)
		got = grab(w.Render())

		// Its phases are listed under it; a click on DATA IN shows it.
		prow, ok := w.PhaseRow(scsi.DataIn)
		require.True(t, ok, "the READ's DATA IN is listed")
		w.Click(centre(prow), false, false)
		var din debugger.Segment
		for _, s := range w.d.Rec.Segments(read.Start, read.End) {
			if s.Phase == scsi.DataIn {
				din = s
			}
		}
		require.Equal(t, 512, din.Bytes)
		assert.InDelta(t, float64(din.Start+(din.End-din.Start)/2), float64(w.TL.From+w.TL.Span/2), float64(w.TL.Span)/1000)
		w.Render()

		// Running, the moved view stays where it is; Home follows again.
		from := w.TL.From
		w.SetSpeed(Realtime)
		w.Tick()
		assert.Equal(t, from, w.TL.From, "frozen while running")
		assert.Equal(t, "frozen", w.following())
		w.Key(ebiten.KeyHome, false)
		w.Tick()
		assert.True(t, w.TL.Follow)
		assert.Equal(t, "following", w.following())
		assert.Equal(t, w.d.Machine().Now(), w.TL.To(), "following the present")
		w.SetSpeed(Paused)
	})
	screenshotPanels(t, got, filepath.Join("testdata", "commands.png"), "timeline", "commands", "transfer", "memory")
}

// [ and ] walk the commands, G goes to a time.
func TestWindowCommandKeysAndGoTo(t *testing.T) {
	w, _ := newWindow(t)
	onGame(func() {
		read := bootRead(t, w)
		w.TL.Center(read.Start - sched.Millisecond)
		w.Key(ebiten.KeyBracketRight, false)
		assert.Equal(t, read.Start, w.SelCmd, "] selects the next command")
		w.Key(ebiten.KeyBracketRight, false)
		assert.Equal(t, "no command there", w.Status)
		assert.Equal(t, read.Start, w.SelCmd)
		w.Key(ebiten.KeyBracketLeft, false)
		assert.Equal(t, "no command there", w.Status, "none before the first")

		w.Key(ebiten.KeyG, false)
		require.True(t, w.gotoActive)
		w.GotoType("1x")
		w.GotoKey(ebiten.KeyBackspace)
		w.GotoType("000 ms")
		w.GotoKey(ebiten.KeyEnter)
		assert.False(t, w.gotoActive)
		assert.Equal(t, sched.Second, w.TL.From+w.TL.Span/2, "centred on 1 s")
		w.Key(ebiten.KeyG, false)
		w.GotoType("soon")
		w.GotoKey(ebiten.KeyEnter)
		assert.Contains(t, w.Status, "go to:")
		w.Render()
	})
}

// The transfer panel of the boot's READ(6): the CDB in hex beside its
// decoding, each phase's bytes and REQ/ACK statistics, and the memory
// panel at the sector's destination.
func TestWindowTransferPanel(t *testing.T) {
	w, b := newWindow(t)
	onGame(func() {
		read := bootRead(t, w)
		w.Render()
		row, ok := w.CommandRow(read.Start)
		require.True(t, ok)
		w.Click(centre(row), false, false)
		assert.Equal(t, uint16(0x9000), w.MemAddr, "the memory panel follows the DATA IN")
		var text []string
		for _, l := range w.transferLines(200) {
			text = append(text, l.s)
		}
		all := strings.Join(text, "\n")
		assert.Contains(t, all, "CDB 08 00 00 00 01 00   READ(6) LUN 0 LBA 0 blocks 1")
		assert.Contains(t, all, "DATA IN to 9000h")
		assert.Contains(t, all, "COMMAND: 6 bytes")
		assert.Contains(t, all, "DATA IN: 512 bytes")
		assert.Regexp(t, `DATA IN: 512 bytes, [0-9.]+ ms\n  REQ-ACK min [0-9.]+ us mean [0-9.]+ us max [0-9.]+ us \(512\)\n  ACK-REQ min [0-9.]+ us mean [0-9.]+ us max [0-9.]+ us \(511\)\n  0000  6C 6C`, all)
		assert.Contains(t, all, "  01F0  6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C 6C\nSTATUS: 1 bytes", "the whole sector is dumped")
		assert.Equal(t, b.Peek(0x9000), byte(0x6C))
		// The wheel scrolls the dump; the panel keeps its last page.
		before := w.xferScroll
		w.Wheel(centre(transferArea), -1)
		w.Render()
		assert.Greater(t, w.xferScroll, before)
		for i := 0; i < 100; i++ {
			w.Wheel(centre(transferArea), -1)
		}
		w.Render()
		rows := (transferArea.Dy() - 22) / lineH
		assert.Equal(t, len(w.transferLines(chars(transferArea.Dx()-12)))-rows, w.xferScroll)
	})
}

// ebiten's Layout makes the canvas the window's size, down to the
// smallest one the panels are laid out for.
func TestWindowLayoutFollowsTheWindow(t *testing.T) {
	w, _ := newWindow(t)
	onGame(func() {
		gw, gh := w.Layout(1280, 800)
		assert.Equal(t, [2]int{1280, 800}, [2]int{gw, gh})
		assert.Equal(t, 1280-gap, Areas()["transfer"].Max.X)
		assert.Equal(t, image.Pt(1280, 800), w.Render().Bounds().Size())
		gw, gh = w.Layout(800, 600)
		assert.Equal(t, [2]int{MinWidth, MinHeight}, [2]int{gw, gh})
	})
}

// The window opens whole on the screen: at its default size where that
// fits, within nine tenths of a smaller screen (1280x800 clipped it).
func TestOpenSize(t *testing.T) {
	for _, tc := range []struct{ sw, sh, w, h int }{
		{1920, 1080, Width, Height},
		{1280, 800, 1152, 720},
		{1366, 768, 1229, 691},
		{0, 0, Width, Height},
	} {
		w, h := openSize(tc.sw, tc.sh)
		assert.Equal(t, [2]int{tc.w, tc.h}, [2]int{w, h}, "screen %dx%d", tc.sw, tc.sh)
	}
}
