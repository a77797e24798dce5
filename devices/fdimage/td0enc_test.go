package fdimage

import (
	"bytes"
	"strings"
	"time"
)

// A Teledisk writer of the tests' own (lbplus never writes .td0 files):
// it makes the images the reader is tested on, and libdsk reads them too
// (TestTD0AgainstLibdsk), which checks the writer and so the reader
// against a third implementation of the format (docs/FLOPPY.md).

// td0Enc says how to write an image.
type td0Enc struct {
	advanced bool
	version  byte // 0: 21
	rate     byte // header data rate byte without the FM bit
	fm       bool // header FM bit
	sides    byte // 0: from the disk
	comment  string
	created  time.Time
	// encoding picks each sector's data encoding (0 raw, 1 pattern, 2
	// run-length; -1: the smallest that fits); nil: smallest.
	encoding func(c, h, i int) int
	// skipped marks sectors without data as DOS-skipped (flag 10h)
	// rather than "no data" (20h).
	skipped bool
	noEnd   bool // leave out the end-of-image mark
}

func le16(v int) []byte { return []byte{byte(v), byte(v >> 8)} }

// encodeTD0 writes d as a Teledisk file.
func encodeTD0(d *Disk, o td0Enc) []byte {
	h := []byte{'T', 'D', 0, 0x5a, 21, o.rate, 1, 0, 0, byte(d.Heads)}
	if o.advanced {
		h[0], h[1] = 't', 'd'
	}
	if o.version != 0 {
		h[4] = o.version
	}
	if o.fm {
		h[5] |= 0x80
	}
	if o.sides != 0 {
		h[9] = o.sides
	}
	if o.comment != "" {
		h[7] |= 0x80
	}
	h = append(h, le16(int(td0CRC(0, h)))...)

	var body bytes.Buffer
	if o.comment != "" {
		text := []byte(strings.ReplaceAll(strings.TrimSuffix(o.comment, "\r\n"), "\r\n", "\x00") + "\x00")
		c := o.created
		ch := append(le16(len(text)), byte(c.Year()-1900), byte(c.Month()-1), byte(c.Day()), byte(c.Hour()), byte(c.Minute()), byte(c.Second()))
		body.Write(le16(int(td0CRC(td0CRC(0, ch), text))))
		body.Write(ch)
		body.Write(text)
	}
	for _, t := range d.Tracks {
		head := byte(t.Head)
		if t.FM && !o.fm {
			head |= 0x80
		}
		th := []byte{byte(len(t.Sectors)), byte(t.Cyl), head}
		body.Write(append(th, byte(td0CRC(0, th))))
		for i, s := range t.Sectors {
			sh := []byte{s.C, s.H, s.R, s.N, 0}
			if s.Data == nil {
				sh[4] = td0NoData
				if o.skipped {
					sh[4] = td0Skipped
				}
				body.Write(append(sh, byte(td0CRC(0, sh))))
				continue
			}
			if s.Deleted {
				sh[4] |= td0Deleted
			}
			if s.BadCRC {
				sh[4] |= td0BadCRC
			}
			body.Write(append(sh, byte(td0CRC(0, s.Data))))
			enc := -1
			if o.encoding != nil {
				enc = o.encoding(t.Cyl, t.Head, i)
			}
			blk := td0Block(s.Data, enc)
			body.Write(le16(len(blk)))
			body.Write(blk)
		}
	}
	if !o.noEnd {
		body.Write([]byte{0xff, 0xff, 0xff, byte(td0CRC(0, []byte{0xff, 0xff, 0xff}))})
	}
	b := body.Bytes()
	if o.advanced {
		b = lzhEncode(b)
	}
	return append(h, b...)
}

// td0Block encodes sector data: enc 0 raw, 1 a repeated pattern (only if
// the data is one), 2 run-length fragments, -1 the smallest.
func td0Block(data []byte, enc int) []byte {
	pattern := true
	for i := 2; i < len(data); i++ {
		pattern = pattern && data[i] == data[i-2]
	}
	switch {
	case enc == 1 || enc == -1 && pattern:
		return append(append([]byte{1}, le16(len(data)/2)...), data[0], data[1])
	case enc == 2:
		return td0RLE(data)
	case enc == -1:
		if r := td0RLE(data); len(r) < len(data)+1 {
			return r
		}
	}
	return append([]byte{0}, data...)
}

// td0RLE makes run-length fragments: a 2-byte pattern repeated 4 times or
// more becomes a pattern fragment, everything else literal fragments of
// up to 255 bytes.
func td0RLE(data []byte) []byte {
	out := []byte{2}
	var lit []byte
	flush := func() {
		for len(lit) > 0 {
			n := min(len(lit), 255)
			out = append(append(out, 0, byte(n)), lit[:n]...)
			lit = lit[n:]
		}
	}
	for p := 0; p < len(data); {
		n := 1
		for p+2*n+1 < len(data) && n < 255 && data[p+2*n] == data[p] && data[p+2*n+1] == data[p+1] {
			n++
		}
		if p+1 < len(data) && n >= 4 {
			flush()
			out = append(out, 1, byte(n), data[p], data[p+1])
			p += 2 * n
			continue
		}
		lit = append(lit, data[p])
		p++
	}
	flush()
	return out
}

// lzhEncode compresses a body as Teledisk's advanced compression: greedy
// LZSS matching over hash chains (any valid matches do; the decoder does
// not care which), coded with the same adaptive tree as lzh.go.
func lzhEncode(data []byte) []byte {
	var t lzhTree
	t.start()
	var out []byte
	nbits := 0
	put := func(bit int) {
		if nbits%8 == 0 {
			out = append(out, 0)
		}
		if bit != 0 {
			out[len(out)-1] |= 0x80 >> (nbits % 8)
		}
		nbits++
	}
	putChar := func(c int) {
		var bits []int
		for k := t.parent[c+lzhNodes]; k != lzhRoot; k = t.parent[k] {
			bits = append(bits, k-t.son[t.parent[k]])
		}
		for i := len(bits) - 1; i >= 0; i-- {
			put(bits[i])
		}
		t.update(c)
	}
	putPos := func(pos int) {
		hi := pos >> 6
		for i := 0; i < int(lzhPosLen[hi]); i++ {
			put(int(lzhPosCode[hi]>>(7-i)) & 1)
		}
		for i := 5; i >= 0; i-- {
			put(pos >> i & 1)
		}
	}
	base := lzhRing - lzhMaxLen
	hist := append(bytes.Repeat([]byte{' '}, base), data...)
	chains := map[[3]byte][]int{}
	ins := 0
	for v := base; v < len(hist); {
		for ; ins < v && ins+3 <= len(hist); ins++ {
			k := [3]byte{hist[ins], hist[ins+1], hist[ins+2]}
			chains[k] = append(chains[k], ins)
		}
		best, bestD := 0, 0
		if v+3 <= len(hist) {
			c := chains[[3]byte{hist[v], hist[v+1], hist[v+2]}]
			for i, tries := len(c)-1, 0; i >= 0 && tries < 64; i, tries = i-1, tries+1 {
				d := v - c[i]
				if d > lzhRing-lzhMaxLen {
					break
				}
				l := 0
				for l < lzhMaxLen && v+l < len(hist) && hist[c[i]+l] == hist[v+l] {
					l++
				}
				if l > best {
					best, bestD = l, d
				}
			}
		}
		if best >= lzhMinLen {
			putChar(256 + best - lzhMinLen)
			putPos(bestD - 1)
			v += best
			continue
		}
		putChar(int(hist[v]))
		v++
	}
	return out
}
