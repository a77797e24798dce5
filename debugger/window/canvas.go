package window

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// canvas is a frame's display list. The panels are drawn into it while
// the machine is locked (reading state and formatting text is cheap) and
// it is painted onto the window's image after the lock is released (laying
// out glyphs and triangles is the costly part), so that at maximum speed
// the machine runs on while the frame is painted.
type canvas struct{ ops []drawOp }

type opKind uint8

const (
	opText opKind = iota
	opFillRect
	opStrokeRect
	opLine
	opCircle
)

type drawOp struct {
	kind           opKind
	x, y, w, h, sw float32 // position, size (or the line's end), stroke width
	col            color.RGBA
	aa             bool
	s              string
	size           int // a text's font size in pixels; 0 is fontSize
}

func (c *canvas) reset() { c.ops = c.ops[:0] }

func rgba(col color.Color) color.RGBA {
	if v, ok := col.(color.RGBA); ok {
		return v
	}
	r, g, b, a := col.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

func (c *canvas) text(x, y int, s string, col color.Color) {
	c.ops = append(c.ops, drawOp{kind: opText, x: float32(x), y: float32(y), col: rgba(col), s: s})
}

// textSized is text in Go Mono at size pixels (minFontSize to fontSize)
// instead of fontSize.
func (c *canvas) textSized(x, y int, s string, col color.Color, size int) {
	c.ops = append(c.ops, drawOp{kind: opText, x: float32(x), y: float32(y), col: rgba(col), s: s, size: size})
}

func (c *canvas) fillRect(x, y, w, h float32, col color.Color, aa bool) {
	c.ops = append(c.ops, drawOp{kind: opFillRect, x: x, y: y, w: w, h: h, col: rgba(col), aa: aa})
}

func (c *canvas) strokeRect(x, y, w, h, sw float32, col color.Color, aa bool) {
	c.ops = append(c.ops, drawOp{kind: opStrokeRect, x: x, y: y, w: w, h: h, sw: sw, col: rgba(col), aa: aa})
}

func (c *canvas) strokeLine(x0, y0, x1, y1, sw float32, col color.Color, aa bool) {
	c.ops = append(c.ops, drawOp{kind: opLine, x: x0, y: y0, w: x1, h: y1, sw: sw, col: rgba(col), aa: aa})
}

func (c *canvas) filledCircle(x, y, r float32, col color.Color, aa bool) {
	c.ops = append(c.ops, drawOp{kind: opCircle, x: x, y: y, w: r, col: rgba(col), aa: aa})
}

// paint draws the list onto dst.
func (c *canvas) paint(dst *ebiten.Image) {
	var op text.DrawOptions
	for i := range c.ops {
		o := &c.ops[i]
		switch o.kind {
		case opText:
			op.GeoM.Reset()
			op.GeoM.Translate(float64(o.x), float64(o.y))
			op.ColorScale.Reset()
			op.ColorScale.ScaleWithColor(o.col)
			text.Draw(dst, o.s, faceAt(o.size), &op)
		case opFillRect:
			vector.DrawFilledRect(dst, o.x, o.y, o.w, o.h, o.col, o.aa)
		case opStrokeRect:
			vector.StrokeRect(dst, o.x, o.y, o.w, o.h, o.sw, o.col, o.aa)
		case opLine:
			vector.StrokeLine(dst, o.x, o.y, o.w, o.h, o.sw, o.col, o.aa)
		case opCircle:
			vector.DrawFilledCircle(dst, o.x, o.y, o.w, o.col, o.aa)
		}
	}
}
