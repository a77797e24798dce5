package window

// The panels' places, colours, font and the drawing helpers they share.

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/lbplus/lbplus/scsi"
)

// The panels' places on the canvas, set by setLayout for the window's
// size (one window a process: the areas are the window's being drawn).
var (
	topArea, regsArea, disArea, stackArea, chipArea, busArea, memArea, panelsArea image.Rectangle
	consoleArea, statusArea, timelineArea, cmdsArea, transferArea                 image.Rectangle
)

// Smallest canvas the panels are laid out for; a smaller window shows
// this canvas scaled down.
const (
	MinWidth  = 1024
	MinHeight = 700
)

// Fixed sizes of the panels whose content does not stretch: the CPU's
// three lines and lamps, the 5380's seven registers bit by bit, the bus
// lamps; and the widths the 5380's bit lamps and the console's 80
// columns want.
const (
	gap          = 4
	consoleLineH = 16
	topH         = 24
	chipH        = 162
	busH         = 56
	chipW        = 476
	consoleW80   = 592
)

// setLayout places every panel on a canvas of width x height pixels:
// the CPU, disassembly and stack on the left, the 5380, bus, memory and
// devices in the middle, the console and stop panel on the right, and
// under them the timeline beside the command list and the transfer
// panel. Panels grow with the canvas and text reflows into them; none
// overlaps another (TestLayout).
func setLayout(width, height int) {
	width, height = max(width, MinWidth), max(height, MinHeight)
	topArea = image.Rect(0, 0, width, topH)
	// The bottom band: timeline | commands over transfer.
	hb := min(max(height*2/5, 300), 480)
	bandY := height - gap - hb
	wd := min(max(width*32/100, 420), 620)
	timelineArea = image.Rect(gap, bandY, width-wd-2*gap, height-gap)
	cmdsArea = image.Rect(width-wd-gap, bandY, width-gap, bandY+hb*2/5)
	transferArea = image.Rect(width-wd-gap, cmdsArea.Max.Y+gap, width-gap, height-gap)
	// The upper band's three columns: the middle one is as wide as the
	// 5380's lamps; the right one takes what the console's 80 columns
	// want when there is room, the left one the rest.
	y0, y1 := topH+gap, bandY-gap
	rest := width - chipW - 4*gap
	wc := min(consoleW80, rest*55/100)
	wa := rest - wc
	xa, xb, xc := gap, 2*gap+wa, 3*gap+wa+chipW
	regsArea = image.Rect(xa, y0, xa+wa, y0+regsHeight(wa))
	stackH := min(136, (y1-y0)/4)
	stackArea = image.Rect(xa, y1-stackH, xa+wa, y1)
	disArea = image.Rect(xa, regsArea.Max.Y+gap, xa+wa, stackArea.Min.Y-gap)
	chipArea = image.Rect(xb, y0, xb+chipW, y0+chipH)
	busArea = image.Rect(xb, chipArea.Max.Y+gap, xb+chipW, chipArea.Max.Y+gap+busH)
	left := y1 - busArea.Max.Y - 2*gap
	memH := min(22+8*lineH, left*2/5)
	memArea = image.Rect(xb, busArea.Max.Y+gap, xb+chipW, busArea.Max.Y+gap+memH)
	panelsArea = image.Rect(xb, memArea.Max.Y+gap, xb+chipW, y1)
	statusH := max(100, (y1-y0)/4)
	consoleArea = image.Rect(xc, y0, xc+wc, min(y0+24+24*consoleLineH, y1-statusH-gap))
	statusArea = image.Rect(xc, consoleArea.Max.Y+gap, xc+wc, y1)
}

// Areas names every panel's rectangle (the screenshot tests crop them).
func Areas() map[string]image.Rectangle {
	return map[string]image.Rectangle{
		"top": topArea, "regs": regsArea, "disasm": disArea, "stack": stackArea, "ncr5380": chipArea,
		"bus": busArea, "memory": memArea, "devices": panelsArea, "console": consoleArea,
		"breakpoints": statusArea, "timeline": timelineArea,
		"commands": cmdsArea, "transfer": transferArea,
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
	// colOffText labels a lamp that is off: light on its dark grey, as
	// readable as an on lamp's dark label on its green (TestLampContrast).
	colOffText = color.RGBA{0xb8, 0xc0, 0xcc, 0xff}
	colPC      = color.RGBA{0x33, 0x4a, 0x2a, 0xff}
	colBreak   = color.RGBA{0xe0, 0x4c, 0x4c, 0xff}
	colSel     = color.RGBA{0x2c, 0x34, 0x48, 0xff}
	colCurA    = color.RGBA{0xff, 0xd0, 0x40, 0xff}
	colCurB    = color.RGBA{0x40, 0xd8, 0xff, 0xff}
	colWave    = color.RGBA{0x6c, 0xe8, 0x8c, 0xff}
	colData    = color.RGBA{0xe8, 0xc8, 0x6c, 0xff}
	colHigh    = color.RGBA{0x24, 0x4a, 0x30, 0xff}
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

// minFontSize is the smallest text the window draws (the console's,
// when its panel is narrow): smaller is hard to read.
const minFontSize = 8

// sizedFaces and sizedCharW are Go Mono and its advance at each whole
// size from minFontSize to fontSize. Advances are not quite charW scaled:
// they are rounded at each size (8.5 pixels advances as 9 does), so the
// window uses whole sizes and measures each.
var sizedFaces, sizedCharW = func() (f [fontSize + 1]*text.GoTextFace, w [fontSize + 1]float64) {
	for s := minFontSize; s <= fontSize; s++ {
		f[s] = &text.GoTextFace{Source: face.Source, Size: float64(s)}
		w[s] = text.Advance("M", f[s])
	}
	return f, w
}()

// faceAt is Go Mono at size pixels; 0 is fontSize.
func faceAt(size int) *text.GoTextFace {
	if size == 0 {
		return face
	}
	return sizedFaces[size]
}

// charWAt is the advance of a character at size pixels; 0 is fontSize.
func charWAt(size int) float64 {
	if size == 0 {
		return charW
	}
	return sizedCharW[size]
}

func print(dst *canvas, x, y int, s string, c color.Color) { dst.text(x, y, s, c) }

func rect(dst *canvas, r image.Rectangle, c color.Color) {
	dst.fillRect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), c, false)
}

func panel(dst *canvas, r image.Rectangle, title string) {
	rect(dst, r, colPanel)
	dst.strokeRect(float32(r.Min.X)+0.5, float32(r.Min.Y)+0.5, float32(r.Dx())-1, float32(r.Dy())-1, 1, colBorder, false)
	print(dst, r.Min.X+6, r.Min.Y+2, cut(title, chars(r.Dx()-12)), colTitle)
}

// lamp is a labelled lamp: green with a dark label when on, grey with a
// light one when off (the label dx pixels in).
func lamp(dst *canvas, r image.Rectangle, dx int, label string, on bool) {
	col, tc := colOff, colOffText
	if on {
		col, tc = colOn, colBG
	}
	rect(dst, r, col)
	print(dst, r.Min.X+dx, r.Min.Y, label, tc)
}

// textW is the width of s in pixels.
func textW(s string) int { return int(math.Ceil(float64(len(s)) * charW)) }

// chars is how many characters fit in px pixels.
func chars(px int) int { return max(0, int(float64(px)/charW)) }

// wrap breaks s into lines of at most n characters at spaces, never
// between a number and its unit ("50976.000 us"); a word longer than a
// line is cut.
func wrap(s string, n int) []string {
	if n < 1 {
		return nil
	}
	var out []string
	for len(s) > n {
		cut := -1
		for i := n; i > 0; i-- {
			if s[i] == ' ' && !unitAt(s[i+1:]) {
				cut = i
				break
			}
		}
		if cut <= 0 {
			out = append(out, s[:n])
			s = s[n:]
			continue
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[cut:], " ")
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// unitAt reports whether s starts with a time unit word (what follows a
// number the formatters print).
func unitAt(s string) bool {
	for _, u := range []string{"ps", "ns", "us", "ms", "s"} {
		if strings.HasPrefix(s, u) && (len(s) == len(u) || s[len(u)] == ' ' || s[len(u)] == ',' || s[len(u)] == ')') {
			return true
		}
	}
	return false
}
