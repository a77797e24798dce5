//go:build window

package window

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// textBox is where a text op of the display list draws: Go Mono is
// monospaced, a line's glyphs fit in 14 pixels at size 12, and both
// scale with the size.
func textBox(o *drawOp) image.Rectangle {
	x, y := int(o.x), int(o.y)
	k := 1.0
	if o.size != 0 {
		k = float64(o.size) / fontSize
	}
	return image.Rect(x, y, x+int(math.Ceil(float64(len(o.s))*charWAt(o.size))), y+int(math.Ceil(14*k)))
}

// checkLayout fails if two panels overlap or one leaves the canvas, if a
// text leaves the panel it starts in, or if two texts overlap.
func checkLayout(t *testing.T, w *Window) {
	t.Helper()
	width, height := w.Size()
	canvas := image.Rect(0, 0, width, height)
	areas := Areas()
	var names []string
	for n := range areas {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, a := range names {
		r := areas[a]
		assert.True(t, r.In(canvas) && !r.Empty(), "panel %s %v inside the %dx%d canvas", a, r, width, height)
		for _, b := range names[i+1:] {
			assert.False(t, r.Overlaps(areas[b]), "panels %s %v and %s %v overlap", a, r, b, areas[b])
		}
	}
	var boxes []image.Rectangle
	var texts []string
	for i := range w.list.ops {
		o := &w.list.ops[i]
		if o.kind != opText || strings.TrimSpace(o.s) == "" {
			continue
		}
		box := textBox(o)
		home := ""
		for _, n := range names {
			if box.Min.In(areas[n]) {
				home = n
			}
		}
		if !assert.NotEmpty(t, home, "text %q at %v is in no panel", o.s, box.Min) {
			continue
		}
		assert.True(t, box.In(areas[home]), "text %q %v leaves panel %s %v", o.s, box, home, areas[home])
		for j, b := range boxes {
			if b.Overlaps(box) {
				t.Errorf("text %q %v overlaps %q %v", o.s, box, texts[j], b)
			}
		}
		boxes = append(boxes, box)
		texts = append(texts, o.s)
	}
	assert.Greater(t, len(boxes), 100, "the panels drew their text")
}

// busyWindow is the window after the boot ROM's READ, the READ selected,
// the cursors set, a long stop line, a breakpoint and the console's
// keyboard focus and a full-width line on it: every panel has text.
func busyWindow(t *testing.T) *Window {
	w, _ := newWindow(t)
	onGame(func() {
		read := bootRead(t, w)
		w.SelectCommand(read)
		w.TL.A, w.TL.B = read.Start+sched.Millisecond, read.Start+2*sched.Millisecond
		w.d.BreakOnPhase(0)
		w.Status = "DATA IN entered at 11745976.000 us after COMMAND (6 bytes, 1812.100 us): the 117th / 50976.000 us byte of the run, a long stop line to wrap"
		w.ConsoleFocus = true
		w.Term.Write([]byte("\r\n" + strings.Repeat("0123456789", 8)))
	})
	return w
}

// At every size from the smallest to a large screen the panels tile the
// canvas without overlapping, no text overlaps another or leaves its
// panel, and the console shows its 80 columns from 1280 pixels wide; at
// 1920x1080 and 1280x800 the screenshots match their goldens.
func TestLayout(t *testing.T) {
	w := busyWindow(t)
	for _, size := range []image.Point{{1920, 1080}, {1280, 800}, {Width, Height}, {MinWidth, MinHeight}, {2560, 1440}, {1366, 768}} {
		t.Run(fmt.Sprintf("%dx%d", size.X, size.Y), func(t *testing.T) {
			var got *image.RGBA
			onGame(func() {
				w.Resize(size.X, size.Y)
				got = grab(w.Render())
			})
			width, height := w.Size()
			require.Equal(t, image.Pt(max(size.X, MinWidth), max(size.Y, MinHeight)), image.Pt(width, height), "the canvas is the window's size")
			checkLayout(t, w)
			line := strings.Repeat("0123456789", 8)
			whole := false
			for i := range w.list.ops {
				whole = whole || w.list.ops[i].s == line
			}
			// From 1280 wide the console's smaller font fits 80 columns;
			// narrower, the 5380's fixed column leaves too little.
			assert.Equal(t, size.X >= 1280, whole, "the console shows a line of 80 columns whole")
			if (size == image.Point{1920, 1080} || size == image.Point{1280, 800}) {
				screenshotPanels(t, got, filepath.Join("testdata", fmt.Sprintf("window-%dx%d.png", size.X, size.Y)), names()...)
			}
		})
	}
}

func names() []string {
	var out []string
	for n := range Areas() {
		out = append(out, n)
	}
	return out
}

// The top bar keeps "Tab console" whatever its width, and its hints
// never run into the state on the left.
func TestHintsFit(t *testing.T) {
	all := hintsFitting(1000)
	assert.True(t, strings.HasPrefix(all, "F5 run/pause  F10 over"))
	assert.True(t, strings.HasSuffix(all, "Tab console"))
	for n := 0; n < len(all)+5; n++ {
		h := hintsFitting(n)
		assert.LessOrEqual(t, len(h), n)
		if n >= len("Tab console") {
			assert.Contains(t, h, "Tab console", "at %d characters", n)
		}
	}
}

// wrap breaks at spaces, never between a number and its unit.
func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		{"117 / 50976.000 us", 16, []string{"117 /", "50976.000 us"}},
		{"a b c", 3, []string{"a b", "c"}},
		{"abcdefgh", 3, []string{"abc", "def", "gh"}},
		{"took 12.5 ms, then", 12, []string{"took", "12.5 ms,", "then"}},
		{"", 5, nil},
	} {
		assert.Equal(t, tc.want, wrap(tc.s, tc.n), "%q at %d", tc.s, tc.n)
	}
}

// An off lamp's label is readable: its contrast with the lamp is at
// least WCAG's 4.5:1 for text, as an on lamp's is.
func TestLampContrast(t *testing.T) {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			f := float64(v) / 255
			if f <= 0.03928 {
				return f / 12.92
			}
			return math.Pow((f+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	ratio := func(a, b color.RGBA) float64 {
		la, lb := lum(a), lum(b)
		return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
	}
	assert.GreaterOrEqual(t, ratio(colOffText, colOff), 4.5, "off lamp")
	assert.GreaterOrEqual(t, ratio(colBG, colOn), 4.5, "on lamp")
	assert.Less(t, ratio(colBG, colOff), 4.5, "the old dark label on an off lamp was not readable")
}

// At every zoom of the timeline, over the boot's READ, the window's text
// still neither overlaps nor leaves its panel (the CMD row smeared at wide
// zoom and its labels ran past the right edge).
func TestLayoutAtEveryZoom(t *testing.T) {
	w := busyWindow(t)
	read := w.d.Rec.Commands(0, sched.MaxTime)[0]
	for span := 10 * sched.Nanosecond; span <= 10*sched.Second; span *= 4 {
		for _, at := range []sched.Time{read.Start, read.Start + (read.End-read.Start)/2, read.End} {
			onGame(func() {
				w.Resize(1280, 800)
				w.TL.Span = span
				w.TL.Center(at)
				w.Render()
			})
			checkLayout(t, w)
		}
	}
}
