package fdimage

import (
	"bytes"
	"fmt"
)

// ImageDisk file layout (docs/FLOPPY.md, "IMD"): an ASCII header line
// "IMD v.vv: date time", a comment, the byte 1Ah, then one record per track:
// mode, cylinder, head (bit 7: cylinder map follows, bit 6: head map
// follows), sector count, size code (FFh: a table of 16-bit sizes follows
// the maps), the sector numbering map, the optional maps, then one data
// record per sector: 00 unavailable, 01 normal, 02 compressed (one fill
// byte), 03/04 the same with a deleted mark, 05/06 with a data error, 07/08
// deleted with a data error.

// imdRates gives the data rate per IMD mode byte: 0-2 FM at 500/300/250
// kbit/s, 3-5 MFM at the same rates.
var imdRates = [6]int{500, 300, 250, 500, 300, 250}

// DecodeIMD parses an IMD file. sectorOffsets, when not nil, receives the
// file offset of each uncompressed sector's data (keyed track index*256 +
// sector index) so writes can go in place.
func DecodeIMD(b []byte, sectorOffsets map[int]int64) (*Disk, error) {
	if !bytes.HasPrefix(b, []byte("IMD ")) {
		return nil, fmt.Errorf("not an ImageDisk file (no \"IMD \" header)")
	}
	eoc := bytes.IndexByte(b, 0x1a)
	if eoc < 0 {
		return nil, fmt.Errorf("IMD header has no end (1Ah) byte: truncated or not an IMD")
	}
	comment := string(b[:eoc])
	if nl := bytes.IndexByte(b[:eoc], '\n'); nl >= 0 {
		comment = string(bytes.TrimLeft(b[nl+1:eoc], "\r"))
	} else {
		comment = ""
	}
	p := eoc + 1
	var tracks []Track
	maxC, maxH := -1, -1
	need := func(n int, what string) error {
		if p+n > len(b) {
			return fmt.Errorf("IMD truncated at byte %d (in %s)", len(b), what)
		}
		return nil
	}
	for p < len(b) {
		if err := need(5, "a track header"); err != nil {
			return nil, err
		}
		mode, cyl, head, count, sz := b[p], int(b[p+1]), b[p+2], int(b[p+3]), b[p+4]
		p += 5
		where := fmt.Sprintf("track record cylinder %d head %d", cyl, head&1)
		if mode > 5 {
			return nil, fmt.Errorf("IMD %s: mode %d is not 0-5", where, mode)
		}
		if head&0x3e != 0 {
			return nil, fmt.Errorf("IMD %s: head byte %02Xh has unknown flags", where, head)
		}
		if sz > 6 && sz != 0xff {
			return nil, fmt.Errorf("IMD %s: sector size code %d", where, sz)
		}
		t := Track{Cyl: cyl, Head: int(head & 1), FM: mode < 3}
		if r := imdRates[mode]; r != 250 {
			t.Rate = r
		}
		if err := need(count, where+" sector map"); err != nil {
			return nil, err
		}
		smap := b[p : p+count]
		p += count
		cmap := make([]byte, count)
		hmap := make([]byte, count)
		for i := range cmap {
			cmap[i], hmap[i] = byte(cyl), head&1
		}
		if head&0x80 != 0 {
			if err := need(count, where+" cylinder map"); err != nil {
				return nil, err
			}
			copy(cmap, b[p:p+count])
			p += count
		}
		if head&0x40 != 0 {
			if err := need(count, where+" head map"); err != nil {
				return nil, err
			}
			copy(hmap, b[p:p+count])
			p += count
		}
		sizes := make([]int, count)
		for i := range sizes {
			sizes[i] = SizeOf(sz)
		}
		if sz == 0xff {
			if err := need(2*count, where+" size table"); err != nil {
				return nil, err
			}
			for i := range sizes {
				sizes[i] = int(b[p]) | int(b[p+1])<<8
				p += 2
				if SizeCode(sizes[i]) < 0 {
					return nil, fmt.Errorf("IMD %s: sector size %d is not a power of two from 128", where, sizes[i])
				}
			}
		}
		ti := len(tracks)
		for i := 0; i < count; i++ {
			if err := need(1, where+" sector record"); err != nil {
				return nil, err
			}
			typ := b[p]
			p++
			s := Sector{C: cmap[i], H: hmap[i], R: smap[i], N: byte(SizeCode(sizes[i]))}
			switch {
			case typ == 0:
			case typ <= 8:
				s.Deleted = typ == 3 || typ == 4 || typ == 7 || typ == 8
				s.BadCRC = typ >= 5
				if typ%2 == 0 { // compressed: one fill byte
					if err := need(1, where+" sector data"); err != nil {
						return nil, err
					}
					s.Data = bytes.Repeat(b[p:p+1], sizes[i])
					p++
				} else {
					if err := need(sizes[i], where+" sector data"); err != nil {
						return nil, err
					}
					if sectorOffsets != nil {
						sectorOffsets[ti*256+i] = int64(p)
					}
					s.Data = append([]byte(nil), b[p:p+sizes[i]]...)
					p += sizes[i]
				}
			default:
				return nil, fmt.Errorf("IMD %s: sector record type %d", where, typ)
			}
			t.Sectors = append(t.Sectors, s)
		}
		maxC, maxH = max(maxC, cyl), max(maxH, int(head&1))
		tracks = append(tracks, t)
	}
	if len(tracks) == 0 {
		return nil, fmt.Errorf("IMD has no tracks")
	}
	d := NewDisk(maxC+1, maxH+1)
	d.Comment = comment
	seen := map[int]bool{}
	for _, t := range tracks {
		k := t.Cyl*d.Heads + t.Head
		if seen[k] {
			return nil, fmt.Errorf("IMD has cylinder %d head %d twice", t.Cyl, t.Head)
		}
		seen[k] = true
		d.Tracks[k] = t
	}
	if sectorOffsets != nil { // re-key from record order to disk order
		tmp := map[int]int64{}
		for k, off := range sectorOffsets {
			t := tracks[k/256]
			tmp[(t.Cyl*d.Heads+t.Head)*256+k%256] = off
		}
		clear(sectorOffsets)
		for k, v := range tmp {
			sectorOffsets[k] = v
		}
	}
	return d, nil
}

// EncodeIMD writes d as an IMD file whose first line is header (e.g.
// "IMD 1.18: 01/12/2026 03:00:00"; the caller supplies the date, nothing
// here reads the clock). Uniform sectors are compressed unless
// noCompress is set. Tracks without sectors are left out (unformatted).
// sectorOffsets, when not nil, receives the offsets of uncompressed data.
func EncodeIMD(d *Disk, header string, noCompress bool, sectorOffsets map[int]int64) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\r\n")
	b.WriteString(d.Comment)
	b.WriteByte(0x1a)
	// A disk with no sector at all (a blank diskette) keeps its track
	// records, each with no sectors: an IMD without any track is refused
	// by readers, DecodeIMD included, and the blank disk would be lost.
	blank := true
	for _, t := range d.Tracks {
		blank = blank && len(t.Sectors) == 0
	}
	for ti, t := range d.Tracks {
		mode := byte(5) // MFM 250 kbit/s
		switch t.Rate {
		case 500:
			mode = 3
		case 300:
			mode = 4
		}
		if t.FM {
			mode -= 3
		}
		n := len(t.Sectors)
		if n == 0 && !blank { // unformatted: IMD readers take a missing track as such
			continue
		}
		head := byte(t.Head)
		uniform := true
		for _, s := range t.Sectors {
			if int(s.C) != t.Cyl {
				head |= 0x80
			}
			if int(s.H) != t.Head {
				head |= 0x40
			}
			if s.N != t.Sectors[0].N {
				uniform = false
			}
		}
		var sz byte
		if n > 0 {
			sz = t.Sectors[0].N
		}
		if !uniform {
			sz = 0xff
		}
		b.Write([]byte{mode, byte(t.Cyl), head, byte(n), sz})
		for _, s := range t.Sectors {
			b.WriteByte(s.R)
		}
		if head&0x80 != 0 {
			for _, s := range t.Sectors {
				b.WriteByte(s.C)
			}
		}
		if head&0x40 != 0 {
			for _, s := range t.Sectors {
				b.WriteByte(s.H)
			}
		}
		if sz == 0xff {
			for _, s := range t.Sectors {
				b.Write([]byte{byte(s.Size()), byte(s.Size() >> 8)})
			}
		}
		for i, s := range t.Sectors {
			if s.Data == nil {
				b.WriteByte(0)
				continue
			}
			typ := byte(1)
			if s.Deleted {
				typ = 3
			}
			if s.BadCRC {
				typ += 4
			}
			if !noCompress && len(s.Data) > 0 && bytes.Count(s.Data, s.Data[:1]) == len(s.Data) {
				b.Write([]byte{typ + 1, s.Data[0]})
				continue
			}
			b.WriteByte(typ)
			if sectorOffsets != nil {
				sectorOffsets[ti*256+i] = int64(b.Len())
			}
			b.Write(s.Data)
		}
	}
	return b.Bytes()
}
