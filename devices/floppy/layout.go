package floppy

import (
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

// Positions says where each field of a track lies, in byte cells counted
// from the index: IDAt[i] is the cell of sector i's ID address mark byte
// (FE), DataAt[i] the cell of its data address mark byte (FB or F8), -1 if
// it has no data field. Sectors are those of the fdimage.Track, same order.
type Positions struct {
	FM     bool
	Cell   sched.Time // byte time the track was written with
	Len    int        // byte cells in one revolution at Cell
	IDAt   []int
	DataAt []int
}

// The IBM track format (docs/FLOPPY.md, "Track layout") [F IBM System 34
// format as the WD1772 datasheet recommends it]: gap 4a, sync, index mark,
// gap 1, then per sector sync, ID mark, C H R N, CRC, gap 2, sync, data
// mark, data, CRC, gap 3; gap 4b fills to the index.
type gaps struct {
	gap4a, sync, iam, gap1, idMark, gap2, dataMark, gap3max int
	gapByte                                                 byte
}

var (
	mfmGaps = gaps{gap4a: 80, sync: 12, iam: 4, gap1: 50, idMark: 4, gap2: 22, dataMark: 4, gap3max: 84, gapByte: 0x4E}
	fmGaps  = gaps{gap4a: 40, sync: 6, iam: 1, gap1: 26, idMark: 1, gap2: 11, dataMark: 1, gap3max: 42, gapByte: 0xFF}
)

// SpeedTolerance is the share of a revolution the standard layout leaves
// free so a disk written on a fast drive fits on a slow one: 1.5 % [A] (a
// drive's rated speed tolerance). Gap 3 is the largest that leaves it, up
// to the IBM value.
const SpeedTolerance = 0.015

// StandardLayout places t's sectors as a formatter lays them down. rev is
// one revolution; the cell follows the track's density and data rate. Gap
// sizes are the double-density ones at either rate (a high-density track
// has room to spare) [A].
func StandardLayout(t *fdimage.Track, rev sched.Time) Positions {
	g, cell := mfmGaps, MFMCell
	if t.FM {
		g, cell = fmGaps, FMCell
	}
	if t.HighDensity() {
		cell /= 2 // 500 kbit/s: readable only with the FDC at 16 MHz [D]
	}
	n := int(rev / cell)
	p := Positions{FM: t.FM, Cell: cell, Len: n}
	if len(t.Sectors) == 0 {
		return p
	}
	head := g.gap4a + g.sync + g.iam + g.gap1
	body := 0
	for _, s := range t.Sectors {
		body += g.sync + g.idMark + 4 + 2 + g.gap2 + g.sync + g.dataMark + s.Size() + 2
	}
	usable := int(float64(n) * (1 - SpeedTolerance))
	gap3 := (usable - head - body) / len(t.Sectors)
	if gap3 > g.gap3max {
		gap3 = g.gap3max
	}
	if gap3 < 1 { // an over-full track: drop the index mark and gap 1 [A]
		head = g.gap4a / 4
		gap3 = max(1, (n-head-body)/len(t.Sectors))
	}
	at := head
	for _, s := range t.Sectors {
		at += g.sync + g.idMark - 1
		p.IDAt = append(p.IDAt, at)
		at += 1 + 4 + 2 + g.gap2 + g.sync + g.dataMark - 1
		if s.Data != nil {
			p.DataAt = append(p.DataAt, at)
		} else {
			p.DataAt = append(p.DataAt, -1)
		}
		at += 1 + s.Size() + 2 + gap3
	}
	return p
}

// CRC16 is the CRC-CCITT (x^16+x^12+x^5+1, preset FFFFh) the WD1772 puts
// after ID and data fields, over the address mark bytes (A1 A1 A1 in MFM)
// and the field [F WD1772 datasheet].
func CRC16(crc uint16, b ...byte) uint16 {
	for _, v := range b {
		crc ^= uint16(v) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// markCRC is the CRC preset by the address mark: A1 A1 A1 in MFM, nothing
// before the mark byte in FM.
func markCRC(fm bool) uint16 {
	if fm {
		return 0xFFFF
	}
	return CRC16(0xFFFF, 0xA1, 0xA1, 0xA1)
}

// IDCRC is the CRC of an ID field (mark FE, C, H, R, N).
func IDCRC(fm bool, s *fdimage.Sector) uint16 {
	return CRC16(markCRC(fm), 0xFE, s.C, s.H, s.R, s.N)
}

// DataCRC is the CRC of a data field (mark, data).
func DataCRC(fm bool, s *fdimage.Sector) uint16 {
	mark := byte(0xFB)
	if s.Deleted {
		mark = 0xF8
	}
	return CRC16(CRC16(markCRC(fm), mark), s.Data...)
}

// Cell is one byte of a track as the read electronics see it: Mark is set
// for an address mark byte written with missing clock bits (A1, C2 in MFM;
// FC, FE, F8-FB in FM).
type Cell struct {
	B    byte
	Mark bool
}

// Stream returns the whole track as byte cells from the index, for Read
// Track (and the tests): gaps, syncs, marks, fields and CRCs where the
// positions put them. Fields that overlap are written in order, the later
// over the earlier, as a formatter would.
func Stream(t *fdimage.Track, p Positions) []Cell {
	g := mfmGaps
	if p.FM {
		g = fmGaps
	}
	out := make([]Cell, p.Len)
	for i := range out {
		out[i].B = g.gapByte
	}
	put := func(at int, c ...Cell) {
		for _, x := range c {
			if at >= 0 && at < len(out) {
				out[at] = x
			}
			at++
		}
	}
	mark := func(at int, b byte) {
		for i := 1; i <= g.sync; i++ {
			put(at-g.idMark+1-i, Cell{})
		}
		if p.FM {
			put(at, Cell{b, true})
			return
		}
		put(at-3, Cell{0xA1, true}, Cell{0xA1, true}, Cell{0xA1, true}, Cell{b, false})
	}
	// The index mark, when the layout left room for it.
	if len(t.Sectors) > 0 && p.IDAt[0] >= g.gap4a+g.sync+g.iam+g.gap1 {
		for i := 0; i < g.sync; i++ {
			put(g.gap4a+i, Cell{})
		}
		if p.FM {
			put(g.gap4a+g.sync, Cell{0xFC, true})
		} else {
			put(g.gap4a+g.sync, Cell{0xC2, true}, Cell{0xC2, true}, Cell{0xC2, true}, Cell{B: 0xFC})
		}
	}
	for i := range t.Sectors {
		s := &t.Sectors[i]
		at := p.IDAt[i]
		mark(at, 0xFE)
		crc := IDCRC(p.FM, s)
		if s.BadIDCRC {
			crc ^= 0xFFFF
		}
		put(at+1, Cell{B: s.C}, Cell{B: s.H}, Cell{B: s.R}, Cell{B: s.N}, Cell{B: byte(crc >> 8)}, Cell{B: byte(crc)})
		if p.DataAt[i] < 0 || s.Data == nil {
			continue
		}
		at = p.DataAt[i]
		m := byte(0xFB)
		if s.Deleted {
			m = 0xF8
		}
		mark(at, m)
		for k, b := range s.Data {
			put(at+1+k, Cell{B: b})
		}
		crc = DataCRC(p.FM, s)
		if s.BadCRC {
			crc ^= 0xFFFF
		}
		put(at+1+len(s.Data), Cell{B: byte(crc >> 8)}, Cell{B: byte(crc)})
	}
	return out
}

// DataWindow is how many bytes after the end of an ID field the data
// address mark must begin for the FDC to take it as that sector's data: 43
// in MFM, 30 in FM [F WD1772 datasheet].
func DataWindow(fm bool) int {
	if fm {
		return 30
	}
	return 43
}

// Parse reads a written track (Write Track's cells from the index, one
// revolution) as the read electronics would: every ID address mark with the
// four ID bytes and the CRC after it, and a data mark within DataWindow of
// the ID's end with 128<<N data bytes and CRC. IDs whose data field is
// missing keep no data.
func Parse(cells []Cell, fm bool, cell sched.Time) (fdimage.Track, Positions) {
	t := fdimage.Track{FM: fm}
	if cell == MFMCell/2 || fm && cell == FMCell/2 {
		t.Rate = 500
	}
	p := Positions{FM: fm, Cell: cell, Len: len(cells)}
	n := len(cells)
	get := func(i int) byte {
		if i < n {
			return cells[i].B
		}
		return 0
	}
	isMark := func(i int) (byte, bool) { // i is the mark byte's cell
		if i >= n {
			return 0, false
		}
		if fm {
			return cells[i].B, cells[i].Mark
		}
		if i < 3 {
			return 0, false
		}
		for k := 1; k <= 3; k++ {
			if !cells[i-k].Mark || cells[i-k].B != 0xA1 {
				return 0, false
			}
		}
		return cells[i].B, true
	}
	for i := 0; i < n; i++ {
		m, ok := isMark(i)
		if !ok || m != 0xFE || i+6 >= n {
			continue
		}
		s := fdimage.Sector{C: get(i + 1), H: get(i + 2), R: get(i + 3)}
		crc := uint16(get(i+5))<<8 | uint16(get(i+6))
		s.BadIDCRC = crc != CRC16(markCRC(fm), 0xFE, get(i+1), get(i+2), get(i+3), get(i+4))
		s.N = get(i + 4)
		idEnd := i + 7
		dataAt := -1
		for j := idEnd; j < n && j <= idEnd+DataWindow(fm)+4; j++ {
			dm, ok := isMark(j)
			if ok && dm >= 0xF8 && dm <= 0xFB {
				dataAt = j
				s.Deleted = dm == 0xF8
				break
			}
			if ok && dm == 0xFE {
				break
			}
		}
		size := fdimage.SizeOf(s.N & 3) // the WD1772 uses two bits of N [F]
		if dataAt >= 0 && dataAt+size+2 < n {
			s.Data = make([]byte, size)
			for k := range s.Data {
				s.Data[k] = cells[dataAt+1+k].B
			}
			crc := uint16(get(dataAt+1+size))<<8 | uint16(get(dataAt+2+size))
			s.BadCRC = crc != CRC16(CRC16(markCRC(fm), get(dataAt)), s.Data...)
		} else {
			dataAt = -1
		}
		t.Sectors = append(t.Sectors, s)
		p.IDAt = append(p.IDAt, i)
		p.DataAt = append(p.DataAt, dataAt)
		i = idEnd - 1
	}
	return t, p
}

// FormatStream returns the bytes a program gives Write Track, from the
// index on, to lay t down at positions p (StandardLayout for a fresh
// format): the WD1772's codes stand for what the host cannot write
// directly (MFM F5 = A1 mark, F6 = C2 mark, F7 = the two CRC bytes; FM F7 =
// CRC, marks as themselves). A field with a bad CRC is written with the
// wrong CRC bytes literally. Data bytes F5-F7 cannot be formatted (the
// chip would take them as codes); formatters fill with E5h. The stream
// is padded with gap bytes past the index so the host never runs short.
func FormatStream(t *fdimage.Track, p Positions) []byte {
	cells := Stream(t, p)
	crcAt := map[int]bool{}
	for i := range t.Sectors {
		s := &t.Sectors[i]
		if !s.BadIDCRC {
			crcAt[p.IDAt[i]+5] = true
		}
		if p.DataAt[i] >= 0 && s.Data != nil && !s.BadCRC {
			crcAt[p.DataAt[i]+1+len(s.Data)] = true
		}
	}
	out := make([]byte, 0, len(cells)+256)
	for i := 0; i < len(cells); i++ {
		c := cells[i]
		switch {
		case crcAt[i]:
			out = append(out, 0xF7)
			i++
		case c.Mark && !p.FM && c.B == 0xA1:
			out = append(out, 0xF5)
		case c.Mark && !p.FM && c.B == 0xC2:
			out = append(out, 0xF6)
		default:
			out = append(out, c.B)
		}
	}
	g := mfmGaps.gapByte
	if p.FM {
		g = fmGaps.gapByte
	}
	for i := 0; i < 256; i++ {
		out = append(out, g)
	}
	return out
}
