package fdimage

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Teledisk file layout (docs/FLOPPY.md, "Teledisk"; [F TD0NOTES]): a
// 12-byte image header (signature "TD", or "td" when everything after the
// header is compressed with LZSS and adaptive Huffman coding; volume
// sequence; check byte; version; data rate with bit 7 for FM; drive type;
// stepping with bit 7 for a comment block; DOS flag; sides; CRC of the
// first ten bytes), then the optional comment block (CRC, length, date,
// NUL-separated lines), then per track a 4-byte header (sector count,
// cylinder, head with bit 7 for FM, low byte of the CRC of the first three)
// and per sector a 6-byte header (C, H, R, N, flags, a CRC byte) and,
// unless the flags say there is none, a data block (16-bit length, an
// encoding byte, the encoded data). A track header whose sector count is
// FFh ends the image. Every CRC is CRC-16 with polynomial A097h, preset 0,
// most significant bit first.

// TD0Info is what a Teledisk file says about itself beyond its sectors.
type TD0Info struct {
	Advanced bool      // "td": the body is LZSS + adaptive Huffman compressed
	Version  int       // file format version x10 (21 = 2.1)
	Rate     int       // data rate of the header in kbit/s (250, 300, 500)
	FM       bool      // the header marks the whole disk single density
	Drive    byte      // drive type byte (1: 5.25" 48 tpi, 2: 96 tpi, 3/4: 3.5", 5: 8")
	Stepping byte      // low bits: 0 single, 1 double, 2 even-only step
	Sides    int       // 1 or 2
	Created  time.Time // from the comment block; zero without one
	Comment  string    // comment lines, each ended by CR LF
}

// MaxTD0Bytes bounds what a Teledisk file may expand to (its decompressed
// body, and its sector data): far more than any floppy holds, and a
// corrupt or hostile file cannot make lbplus take more memory than that.
const MaxTD0Bytes = 8 << 20

// td0CRC is the Teledisk CRC-16: polynomial A097h, preset 0, no
// reflection, no final XOR [F TD0NOTES; F CRC-CAT "CRC-16/TELEDISK",
// check value 0FB3h for "123456789"].
func td0CRC(crc uint16, b []byte) uint16 {
	for _, c := range b {
		crc ^= uint16(c) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0xA097
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// IsTD0 reports whether b starts with a Teledisk image header (either
// signature and a matching header CRC).
func IsTD0(b []byte) bool {
	if len(b) < 12 || !(b[0] == 'T' && b[1] == 'D' || b[0] == 't' && b[1] == 'd') {
		return false
	}
	return td0CRC(0, b[:10]) == uint16(b[10])|uint16(b[11])<<8
}

// td0Source gives the body of the file: the bytes after the header as they
// are, or as the advanced-compression decoder expands them.
type td0Source interface {
	read(n int) ([]byte, error)
	at() string // where the next byte comes from, for messages
}

type plainSource struct {
	b []byte
	p int
}

var errTD0Short = errors.New("file ends early")

func (s *plainSource) read(n int) ([]byte, error) {
	if s.p+n > len(s.b) {
		s.p = len(s.b)
		return nil, errTD0Short
	}
	s.p += n
	return s.b[s.p-n : s.p], nil
}

func (s *plainSource) at() string { return fmt.Sprintf("at byte %d", s.p+12) }

type lzhSource struct {
	z *lzhDecoder
}

func (s *lzhSource) read(n int) ([]byte, error) {
	if s.z.out+n > MaxTD0Bytes {
		return nil, fmt.Errorf("the compressed body expands past %d bytes: not a floppy image", MaxTD0Bytes)
	}
	out := make([]byte, n)
	for i := range out {
		c, err := s.z.next()
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func (s *lzhSource) at() string {
	return fmt.Sprintf("at byte %d of the decompressed body", s.z.out)
}

// DecodeTD0 parses a Teledisk file. Errors name the place in the file
// (byte offsets count the body after the header as expanded, for an
// advanced-compression file).
func DecodeTD0(b []byte) (*Disk, TD0Info, error) {
	var info TD0Info
	if len(b) < 12 {
		return nil, info, fmt.Errorf("Teledisk header truncated (%d of 12 bytes)", len(b))
	}
	h := b[:12]
	switch string(h[:2]) {
	case "TD":
	case "td":
		info.Advanced = true
	default:
		return nil, info, fmt.Errorf("not a Teledisk file (no \"TD\" or \"td\" signature)")
	}
	if got, want := td0CRC(0, h[:10]), uint16(h[10])|uint16(h[11])<<8; got != want {
		return nil, info, fmt.Errorf("Teledisk header CRC mismatch (file says %04Xh, header gives %04Xh)", want, got)
	}
	if h[2] != 0 {
		return nil, info, fmt.Errorf("Teledisk volume %d of a multi-volume set: lbplus reads single-file images only", int(h[2])+1)
	}
	info.Version = int(h[4])
	if info.Advanced && info.Version < 20 {
		// Before format 2.0 "advanced" meant a 12-bit LZW in 6 KB blocks
		// [F TD0NOTES 10.1], not the LZSS/Huffman read here.
		return nil, info, fmt.Errorf("Teledisk %d.%d advanced compression (the old LZW kind) is not read by lbplus", info.Version/10, info.Version%10)
	}
	switch h[5] & 7 {
	case 0:
		info.Rate = 250
	case 1:
		info.Rate = 300
	case 2, 3:
		info.Rate = 500
	default:
		return nil, info, fmt.Errorf("Teledisk data rate code %d (extended density, 1 Mbit/s) is beyond any drive lbplus models", h[5]&7)
	}
	info.FM = h[5]&0x80 != 0
	info.Drive, info.Stepping = h[6], h[7]&0x7f
	info.Sides = 2
	if h[9] == 1 {
		info.Sides = 1
	}
	var src td0Source = &plainSource{b: b[12:]}
	if info.Advanced {
		src = &lzhSource{z: newLZHDecoder(b[12:])}
	}
	if h[7]&0x80 != 0 {
		ch, err := src.read(10)
		if err != nil {
			return nil, info, td0Err(src, err, "the comment header")
		}
		n := int(ch[2]) | int(ch[3])<<8
		text, err := src.read(n)
		if err != nil {
			return nil, info, td0Err(src, err, "the comment")
		}
		want := uint16(ch[0]) | uint16(ch[1])<<8
		if got := td0CRC(td0CRC(0, ch[2:10]), text); got != want {
			return nil, info, fmt.Errorf("Teledisk comment CRC mismatch (file says %04Xh, comment gives %04Xh)", want, got)
		}
		info.Created = time.Date(1900+int(ch[4]), time.Month(ch[5]%12+1), int(ch[6]), int(ch[7]), int(ch[8]), int(ch[9]), 0, time.UTC)
		info.Comment = td0Comment(text)
	}
	var tracks []Track
	maxC, maxH := -1, -1
	total := 0
	for {
		th, err := src.read(1)
		if err != nil {
			if errors.Is(err, errTD0Short) || errors.Is(err, errLZHShort) {
				return nil, info, fmt.Errorf("Teledisk ends %s without its end-of-image mark (FFh): truncated, or the first file of a multi-volume set", src.at())
			}
			return nil, info, td0Err(src, err, "a track header")
		}
		if th[0] == 0xff {
			break
		}
		rest, err := src.read(3)
		if err != nil {
			return nil, info, td0Err(src, err, "a track header")
		}
		th = []byte{th[0], rest[0], rest[1], rest[2]}
		count, cyl, head := int(th[0]), int(th[1]), th[2]
		where := fmt.Sprintf("track cylinder %d head %d", cyl, head&0x7f)
		if got := byte(td0CRC(0, th[:3])); got != th[3] {
			return nil, info, fmt.Errorf("Teledisk %s: track header CRC mismatch (file says %02Xh, header gives %02Xh)", where, th[3], got)
		}
		if head&0x7f > 1 {
			return nil, info, fmt.Errorf("Teledisk %s: head %d (a floppy has heads 0 and 1)", where, head&0x7f)
		}
		t := Track{Cyl: cyl, Head: int(head & 1)}
		if count > 0 { // an empty track is unformatted: no density
			t.FM = info.FM || head&0x80 != 0
			if info.Rate != 250 {
				t.Rate = info.Rate
			}
		}
		for i := 0; i < count; i++ {
			s, n, err := td0Sector(src, where)
			if err != nil {
				return nil, info, err
			}
			total += n
			if total > MaxTD0Bytes {
				return nil, info, fmt.Errorf("Teledisk sector data passes %d bytes at %s: not a floppy image", MaxTD0Bytes, where)
			}
			t.Sectors = append(t.Sectors, s)
		}
		maxC, maxH = max(maxC, cyl), max(maxH, t.Head)
		tracks = append(tracks, t)
	}
	if len(tracks) == 0 {
		return nil, info, fmt.Errorf("Teledisk image has no tracks")
	}
	d := NewDisk(maxC+1, maxH+1)
	d.Comment = info.Comment
	seen := map[int]bool{}
	for _, t := range tracks {
		k := t.Cyl*d.Heads + t.Head
		if seen[k] {
			return nil, info, fmt.Errorf("Teledisk image has cylinder %d head %d twice", t.Cyl, t.Head)
		}
		seen[k] = true
		d.Tracks[k] = t
	}
	return d, info, nil
}

// td0Comment turns the NUL-ended comment lines into CR LF ended ones;
// trailing empty lines and spaces go.
func td0Comment(text []byte) string {
	lines := strings.Split(string(text), "\x00")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \r\n")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\r\n") + "\r\n"
}

// Sector flags [F TD0NOTES 6.5].
const (
	td0Dup     = 0x01 // seen twice on the track
	td0BadCRC  = 0x02 // read with a data CRC error
	td0Deleted = 0x04 // deleted data address mark
	td0Skipped = 0x10 // not read: unallocated in the DOS FAT
	td0NoData  = 0x20 // an ID field without a data field
	td0NoID    = 0x40 // data without an ID field (Teledisk made the ID)
)

// td0Sector reads one sector header and its data block; n is the sector
// data byte count.
func td0Sector(src td0Source, where string) (Sector, int, error) {
	sh, err := src.read(6)
	if err != nil {
		return Sector{}, 0, td0Err(src, err, where+" sector header")
	}
	s := Sector{C: sh[0], H: sh[1], R: sh[2], N: sh[3]}
	flags := sh[4]
	where = fmt.Sprintf("%s sector %d", where, s.R)
	if s.N > 6 {
		return s, 0, fmt.Errorf("Teledisk %s: size code %d (lbplus keeps 128 to 8192 bytes, codes 0-6)", where, s.N)
	}
	s.Deleted = flags&td0Deleted != 0
	s.BadCRC = flags&td0BadCRC != 0
	if flags&(td0Skipped|td0NoData) != 0 {
		// No data block; the CRC byte covers the first five header bytes.
		if got := byte(td0CRC(0, sh[:5])); got != sh[5] {
			return s, 0, fmt.Errorf("Teledisk %s: sector header CRC mismatch (file says %02Xh, header gives %02Xh)", where, sh[5], got)
		}
		s.Deleted, s.BadCRC = false, false
		return s, 0, nil
	}
	dh, err := src.read(2)
	if err != nil {
		return s, 0, td0Err(src, err, where+" data header")
	}
	blen := int(dh[0]) | int(dh[1])<<8
	if blen < 1 {
		return s, 0, fmt.Errorf("Teledisk %s: data block of length 0", where)
	}
	blk, err := src.read(blen)
	if err != nil {
		return s, 0, td0Err(src, err, where+" data")
	}
	s.Data, err = td0Expand(blk, s.Size())
	if err != nil {
		return s, 0, fmt.Errorf("Teledisk %s: %w", where, err)
	}
	// The CRC byte covers the expanded data only [F TD0NOTES 6.6].
	if got := byte(td0CRC(0, s.Data)); got != sh[5] {
		return s, 0, fmt.Errorf("Teledisk %s: data CRC mismatch (file says %02Xh, data gives %02Xh)", where, sh[5], got)
	}
	return s, len(s.Data), nil
}

func td0Err(src td0Source, err error, what string) error {
	if errors.Is(err, errTD0Short) || errors.Is(err, errLZHShort) {
		return fmt.Errorf("Teledisk truncated %s (in %s)", src.at(), what)
	}
	return fmt.Errorf("Teledisk %s: %w", what, err)
}

// td0Expand decodes a data block (encoding byte and its data) into size
// bytes [F TD0NOTES 7.2]: 0 the bytes as they are, 1 a 16-bit count of a
// repeated 2-byte pattern, 2 a run of fragments, each either 0, a length
// and that many bytes, or 1, a count and a 2-byte pattern repeated that
// often. The data must come out at exactly size bytes.
func td0Expand(blk []byte, size int) ([]byte, error) {
	enc, b := blk[0], blk[1:]
	switch enc {
	case 0:
		if len(b) != size {
			return nil, fmt.Errorf("raw data block holds %d bytes for a %d-byte sector", len(b), size)
		}
		return append([]byte(nil), b...), nil
	case 1:
		if len(b) != 4 {
			return nil, fmt.Errorf("pattern data block of %d bytes (want 4)", len(b))
		}
		n := int(b[0]) | int(b[1])<<8
		if 2*n != size {
			return nil, fmt.Errorf("pattern repeated %d times for a %d-byte sector", n, size)
		}
		return bytes.Repeat(b[2:4], n), nil
	case 2:
		out := make([]byte, 0, size)
		for p := 0; p < len(b); {
			if p+2 > len(b) {
				return nil, fmt.Errorf("run-length data ends inside a fragment header")
			}
			typ, n := b[p], int(b[p+1])
			p += 2
			switch typ {
			case 0:
				if p+n > len(b) {
					return nil, fmt.Errorf("run-length literal of %d bytes passes the end of its block", n)
				}
				out = append(out, b[p:p+n]...)
				p += n
			case 1:
				if p+2 > len(b) {
					return nil, fmt.Errorf("run-length pattern passes the end of its block")
				}
				for k := 0; k < n && len(out) <= size; k++ {
					out = append(out, b[p], b[p+1])
				}
				p += 2
			default:
				// Teledisk writes 2-byte patterns only; readers disagree on
				// what a larger type means [A].
				return nil, fmt.Errorf("run-length fragment type %d (only 0 and 1 are known)", typ)
			}
			if len(out) > size {
				return nil, fmt.Errorf("run-length data expands past the %d-byte sector", size)
			}
		}
		if len(out) != size {
			return nil, fmt.Errorf("run-length data expands to %d bytes for a %d-byte sector", len(out), size)
		}
		return out, nil
	}
	return nil, fmt.Errorf("data encoding %d (0 raw, 1 pattern, 2 run-length are known)", enc)
}
