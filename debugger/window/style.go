package window

// The panels' places, colours, font and the drawing helpers they share.

import (
	"bytes"
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/lbplus/lbplus/scsi"
)

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
	timelineArea = image.Rect(4, 584, 1000, Height-4)
	cmdsArea     = image.Rect(1004, 584, Width-4, Height-4)
)

// Areas names every panel's rectangle (the screenshot tests crop them).
func Areas() map[string]image.Rectangle {
	return map[string]image.Rectangle{
		"top": topArea, "regs": regsArea, "disasm": disArea, "stack": stackArea, "ncr5380": chipArea,
		"bus": busArea, "memory": memArea, "devices": panelsArea, "console": consoleArea,
		"breakpoints": statusArea, "timeline": timelineArea,
		"commands": cmdsArea,
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
