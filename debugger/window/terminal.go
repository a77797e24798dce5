package window

// Terminal is the console panel's screen: a glass teletype of Cols x Rows
// characters, as the serial terminal on DART channel A shows the machine's
// output. It handles CR, LF, BS, TAB and BEL and scrolls at the bottom;
// other control characters are not shown. [A] No escape sequences: the
// monitor and CP/M's console output used here are plain text.
type Terminal struct {
	Cols, Rows int
	cells      [][]byte
	X, Y       int
}

// NewTerminal returns an empty screen.
func NewTerminal(cols, rows int) *Terminal {
	t := &Terminal{Cols: cols, Rows: rows}
	t.cells = make([][]byte, rows)
	for i := range t.cells {
		t.cells[i] = blank(cols)
	}
	return t
}

func blank(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return b
}

// Write puts the machine's output on the screen.
func (t *Terminal) Write(p []byte) {
	for _, c := range p {
		t.put(c & 0x7F)
	}
}

func (t *Terminal) put(c byte) {
	switch c {
	case '\r':
		t.X = 0
	case '\n':
		t.lineFeed()
	case '\b':
		if t.X > 0 {
			t.X--
		}
	case '\t':
		t.X = min(t.Cols-1, (t.X/8+1)*8)
	case 0x07, 0:
	default:
		if c < 0x20 || c == 0x7F {
			return
		}
		if t.X >= t.Cols {
			t.X = 0
			t.lineFeed()
		}
		t.cells[t.Y][t.X] = c
		t.X++
	}
}

func (t *Terminal) lineFeed() {
	if t.Y < t.Rows-1 {
		t.Y++
		return
	}
	copy(t.cells, t.cells[1:])
	t.cells[t.Rows-1] = blank(t.Cols)
}

// Line returns row y as text.
func (t *Terminal) Line(y int) string { return string(t.cells[y]) }
