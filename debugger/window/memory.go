package window

// The memory panel and its editor.

import (
	"fmt"
	"image"
	"strconv"
	"strings"
)

// memCol is the text column of byte j (0-15) in a memory line: "8000  "
// then the bytes in pairs, "XXXX ".
func memCol(j int) int { return 6 + j/2*5 + j%2*2 }

func (w *Window) drawMem(c *canvas) {
	title := fmt.Sprintf("Memory %04Xh (PgUp/PgDn; click a byte to edit)", w.MemAddr)
	if w.MemEdit {
		title = fmt.Sprintf("Memory: editing %04Xh (hex digits, arrows, Esc)", w.MemCursor)
	}
	panel(c, memArea, title)
	for i := 0; i < memRows(); i++ {
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
func memRows() int { return (memArea.Dy() - 22) / lineH }

// EditMemory starts editing memory at addr (a click on its byte).
func (w *Window) EditMemory(addr uint16) {
	w.MemEdit, w.MemCursor, w.memNibble = true, addr, 0
	if addr < w.MemAddr || addr >= w.MemAddr+uint16(16*memRows()) {
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
