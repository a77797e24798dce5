package fdimage

import "errors"

// Teledisk's advanced compression (docs/FLOPPY.md, "Teledisk"; [F TD0NOTES
// 10.2]) is the LZSS + adaptive Huffman coding of Okumura and Yoshizaki's
// LZHUF, with no length prefix: a 4096-byte ring, matches of 3 to 60
// bytes, the ring filled with spaces before the start and the first byte
// written at 4096-60. Each symbol is a character (0-255: a literal byte;
// 256-313: a match of symbol-253 bytes) coded by an adaptive Huffman tree
// of the 314 symbols; a match is followed by its distance back (1-4096),
// whose upper 6 bits have a fixed prefix code of 3 to 8 bits and whose
// lower 6 bits follow as they are. The tree starts with every count 1 and
// is rebuilt with halved counts when the root's count reaches 8000h.
const (
	lzhRing    = 4096
	lzhMaxLen  = 60
	lzhMinLen  = 3 // a match is longer than the threshold of 2
	lzhChars   = 256 - lzhMinLen + 1 + lzhMaxLen
	lzhNodes   = 2*lzhChars - 1
	lzhRoot    = lzhNodes - 1
	lzhMaxFreq = 0x8000
)

// lzhPosLen gives the prefix code length of each upper 6 bits of a
// distance; the codes are assigned in order, shortest first (canonical):
// one of 3 bits, three of 4, eight of 5, twelve of 6, twenty-four of 7 and
// sixteen of 8.
var lzhPosLen, lzhPosCode = func() (l [64]uint8, c [64]uint8) {
	counts := []struct{ n, bits int }{{1, 3}, {3, 4}, {8, 5}, {12, 6}, {24, 7}, {16, 8}}
	code, i := 0, 0
	prev := 3
	for _, k := range counts {
		code <<= k.bits - prev
		prev = k.bits
		for j := 0; j < k.n; j++ {
			l[i] = uint8(k.bits)
			c[i] = uint8(code << (8 - k.bits)) // left-aligned in a byte
			code++
			i++
		}
	}
	return
}()

// lzhTree is the adaptive Huffman tree, shared by decoder and (test)
// encoder. Nodes are kept in order of count; son[n] is the first of a
// pair of children (the second is son[n]+1), or lzhNodes+symbol for a
// leaf; parent[] maps nodes and leaves (lzhNodes+symbol) to their parent.
type lzhTree struct {
	freq   [lzhNodes + 1]uint16
	parent [lzhNodes + lzhChars]int
	son    [lzhNodes]int
}

func (t *lzhTree) start() {
	for i := 0; i < lzhChars; i++ {
		t.freq[i] = 1
		t.son[i] = i + lzhNodes
		t.parent[i+lzhNodes] = i
	}
	for i, j := 0, lzhChars; j <= lzhRoot; i, j = i+2, j+1 {
		t.freq[j] = t.freq[i] + t.freq[i+1]
		t.son[j] = i
		t.parent[i], t.parent[i+1] = j, j
	}
	t.freq[lzhNodes] = 0xffff // a sentinel above every count
	t.parent[lzhRoot] = 0
}

// rebuild halves the counts of the leaves and builds the tree again.
func (t *lzhTree) rebuild() {
	j := 0
	for i := 0; i < lzhNodes; i++ {
		if t.son[i] >= lzhNodes {
			t.freq[j] = (t.freq[i] + 1) / 2
			t.son[j] = t.son[i]
			j++
		}
	}
	for i, j := 0, lzhChars; j < lzhNodes; i, j = i+2, j+1 {
		f := t.freq[i] + t.freq[i+1]
		k := j - 1
		for f < t.freq[k] {
			k--
		}
		k++
		copy(t.freq[k+1:j+1], t.freq[k:j])
		t.freq[k] = f
		copy(t.son[k+1:j+1], t.son[k:j])
		t.son[k] = i
	}
	for i := 0; i < lzhNodes; i++ {
		k := t.son[i]
		t.parent[k] = i
		if k < lzhNodes {
			t.parent[k+1] = i
		}
	}
}

// update counts symbol c once more, keeping nodes in order of count.
func (t *lzhTree) update(c int) {
	if t.freq[lzhRoot] == lzhMaxFreq {
		t.rebuild()
	}
	c = t.parent[c+lzhNodes]
	for {
		t.freq[c]++
		k := t.freq[c]
		if l := c + 1; k > t.freq[l] {
			for k > t.freq[l+1] {
				l++
			}
			t.freq[c], t.freq[l] = t.freq[l], k
			i := t.son[c]
			t.parent[i] = l
			if i < lzhNodes {
				t.parent[i+1] = l
			}
			j := t.son[l]
			t.son[l] = i
			t.parent[j] = c
			if j < lzhNodes {
				t.parent[j+1] = c
			}
			t.son[c] = j
			c = l
		}
		c = t.parent[c]
		if c == 0 {
			return
		}
	}
}

var errLZHShort = errors.New("compressed data ends early")

// lzhDecoder expands an advanced-compression body on demand.
type lzhDecoder struct {
	in       []byte
	bit      int // bits consumed
	tree     lzhTree
	ring     [lzhRing]byte
	r        int
	copyFrom int
	copyLeft int
	out      int // bytes delivered
}

func newLZHDecoder(in []byte) *lzhDecoder {
	z := &lzhDecoder{in: in, r: lzhRing - lzhMaxLen}
	for i := 0; i < lzhRing-lzhMaxLen; i++ {
		z.ring[i] = ' '
	}
	z.tree.start()
	return z
}

// getBit reads the next bit, most significant first; past the end of the
// input it reads 0 and the caller's check of z.bit finds the overrun.
func (z *lzhDecoder) getBit() int {
	i := z.bit
	z.bit++
	if i>>3 >= len(z.in) {
		return 0
	}
	return int(z.in[i>>3]>>(7-i&7)) & 1
}

func (z *lzhDecoder) getBits(n int) int {
	v := 0
	for ; n > 0; n-- {
		v = v<<1 | z.getBit()
	}
	return v
}

func (z *lzhDecoder) short() bool { return z.bit > 8*len(z.in) }

// next returns the next byte of the expanded body.
func (z *lzhDecoder) next() (byte, error) {
	if z.copyLeft == 0 {
		c := z.tree.son[lzhRoot]
		for c < lzhNodes {
			c = z.tree.son[c+z.getBit()]
		}
		c -= lzhNodes
		z.tree.update(c)
		if z.short() {
			return 0, errLZHShort
		}
		if c < 256 {
			z.put(byte(c))
			return byte(c), nil
		}
		// Distance: a prefix code for the upper 6 bits read as a byte
		// first, then the rest of the code and the lower 6 bits.
		first := z.getBits(8)
		hi, l := lzhPosDecode(first)
		v := first<<(l-2) | z.getBits(l-2)
		pos := hi<<6 | v&0x3f
		if z.short() {
			return 0, errLZHShort
		}
		z.copyFrom = (z.r - pos - 1) & (lzhRing - 1)
		z.copyLeft = c - 256 + lzhMinLen
	}
	b := z.ring[z.copyFrom]
	z.copyFrom = (z.copyFrom + 1) & (lzhRing - 1)
	z.copyLeft--
	z.put(b)
	return b, nil
}

func (z *lzhDecoder) put(b byte) {
	z.ring[z.r] = b
	z.r = (z.r + 1) & (lzhRing - 1)
	z.out++
}

// lzhPosDecode finds the upper 6 bits whose code prefixes the byte b, and
// the code's length.
func lzhPosDecode(b int) (int, int) {
	for i := 63; i >= 0; i-- {
		if b >= int(lzhPosCode[i]) {
			return i, int(lzhPosLen[i])
		}
	}
	return 0, 3
}
