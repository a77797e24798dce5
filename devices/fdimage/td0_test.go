package fdimage

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The CRC catalogue's check value of CRC-16/TELEDISK.
func TestTD0CRC(t *testing.T) {
	assert.Equal(t, uint16(0x0FB3), td0CRC(0, []byte("123456789")))
	assert.Equal(t, uint16(0), td0CRC(0, nil))
}

// td0Sample is a disk with what a Teledisk image keeps: every sector size
// from 128 to 8192, data that suits each encoding, deleted and bad
// sectors, sectors without data, an FM track, IDs that differ from the
// track, an unformatted track.
func td0Sample() *Disk {
	rnd := rand.New(rand.NewSource(7))
	d := NewDisk(3, 2)
	mk := func(c, h int, r, n byte, fill func(i int) byte) Sector {
		s := Sector{C: byte(c), H: byte(h), R: r, N: n, Data: make([]byte, SizeOf(n))}
		for i := range s.Data {
			s.Data[i] = fill(i)
		}
		return s
	}
	random := func(int) byte { return byte(rnd.Intn(256)) }
	t := d.Track(0, 0)
	t.Sectors = []Sector{
		mk(0, 0, 1, 2, func(int) byte { return 0xE5 }),
		mk(0, 0, 3, 2, func(i int) byte { return []byte{0x4E, 0xF6}[i%2] }),
		mk(0, 0, 5, 2, random),
		mk(0, 0, 2, 2, func(i int) byte { // runs and text: run-length material
			if i%100 < 60 {
				return 0
			}
			return "CP/M 2.2 "[i%9]
		}),
		mk(0, 0, 4, 2, func(i int) byte { return byte(i / 64) }),
	}
	t = d.Track(0, 1)
	t.Sectors = []Sector{
		mk(0, 1, 1, 1, random),
		mk(0, 1, 2, 1, random),
		mk(0, 1, 3, 1, random),
		{C: 0, H: 1, R: 4, N: 1},
	}
	t.Sectors[0].Deleted = true
	t.Sectors[1].BadCRC = true
	t.Sectors[2].Deleted, t.Sectors[2].BadCRC = true, true
	t = d.Track(1, 0)
	t.FM = true
	for r := byte(1); r <= 8; r++ {
		t.Sectors = append(t.Sectors, mk(1, 0, r, 0, random))
	}
	t = d.Track(1, 1)
	for n := byte(0); n <= 6; n++ {
		t.Sectors = append(t.Sectors, mk(1, 1, n+1, n, random))
	}
	t = d.Track(2, 0)
	t.Sectors = []Sector{
		mk(7, 0, 1, 3, random), // ID cylinder 7 on physical cylinder 2
		mk(2, 1, 2, 3, random), // ID head 1 on head 0
		mk(2, 0, 2, 3, random), // the same ID again
	}
	return d // (2, 1) stays unformatted
}

// withRate sets every formatted track's density as a Teledisk header
// gives it.
func withRate(d *Disk, rate int, fm bool) *Disk {
	for i := range d.Tracks {
		t := &d.Tracks[i]
		if len(t.Sectors) > 0 {
			t.Rate = rate
			t.FM = t.FM || fm
		}
	}
	return d
}

func TestTD0RoundTrip(t *testing.T) {
	stamp := time.Date(1989, 3, 14, 15, 9, 26, 0, time.UTC)
	each := func(e int) func(c, h, i int) int { return func(c, h, i int) int { return e } }
	for _, tc := range []struct {
		name string
		enc  td0Enc
		want func() *Disk
		info TD0Info
	}{
		{"normal, smallest encodings", td0Enc{}, td0Sample,
			TD0Info{Version: 21, Rate: 250, Sides: 2, Drive: 1}},
		{"normal, all raw", td0Enc{encoding: each(0)}, td0Sample,
			TD0Info{Version: 21, Rate: 250, Sides: 2, Drive: 1}},
		{"normal, all run-length", td0Enc{encoding: each(2)}, td0Sample,
			TD0Info{Version: 21, Rate: 250, Sides: 2, Drive: 1}},
		{"normal, skipped sectors", td0Enc{skipped: true}, td0Sample,
			TD0Info{Version: 21, Rate: 250, Sides: 2, Drive: 1}},
		{"advanced", td0Enc{advanced: true}, td0Sample,
			TD0Info{Advanced: true, Version: 21, Rate: 250, Sides: 2, Drive: 1}},
		{"advanced, all raw, comment", td0Enc{advanced: true, encoding: each(0), comment: "Ampro boot disk\r\nside A\r\n", created: stamp}, td0Sample,
			TD0Info{Advanced: true, Version: 21, Rate: 250, Sides: 2, Drive: 1, Created: stamp, Comment: "Ampro boot disk\r\nside A\r\n"}},
		{"normal, comment, 300 kbit/s", td0Enc{rate: 1, comment: "one line\r\n", created: stamp},
			func() *Disk { return withRate(td0Sample(), 300, false) },
			TD0Info{Version: 21, Rate: 300, Sides: 2, Drive: 1, Created: stamp, Comment: "one line\r\n"}},
		{"high density, one side", td0Enc{rate: 2, sides: 1},
			func() *Disk { return withRate(td0Sample(), 500, false) },
			TD0Info{Version: 21, Rate: 500, Sides: 1, Drive: 1}},
		{"advanced, FM disk, version 2.0", td0Enc{advanced: true, fm: true, version: 20},
			func() *Disk { return withRate(td0Sample(), 0, true) },
			TD0Info{Advanced: true, Version: 20, Rate: 250, FM: true, Sides: 2, Drive: 1}},
	} {
		want := tc.want()
		b := encodeTD0(want, tc.enc)
		got, info, err := DecodeTD0(b)
		require.NoError(t, err, tc.name)
		want.Comment = tc.info.Comment
		assert.Equal(t, want, got, tc.name)
		assert.Equal(t, tc.info, info, tc.name)
	}
}

// The encodings really differ (the round trip above covers each one): raw
// is the largest body, advanced compression the smallest.
func TestTD0EncodingsDiffer(t *testing.T) {
	d := td0Sample()
	raw := len(encodeTD0(d, td0Enc{encoding: func(int, int, int) int { return 0 }}))
	small := len(encodeTD0(d, td0Enc{}))
	adv := len(encodeTD0(d, td0Enc{advanced: true}))
	assert.Less(t, small, raw)
	assert.Less(t, adv, small)
}

// Advanced compression of bodies long enough to rebuild the Huffman tree
// (its root count reaches 8000h) and to wrap the 4 KB ring many times.
func TestTD0AdvancedLong(t *testing.T) {
	f := Format{Name: "t", Cylinders: 40, Heads: 2, Sectors: 10, Size: 512, FirstID: 1, Interleave: 2}
	d := f.NewDisk(0xE5)
	rnd := rand.New(rand.NewSource(1))
	for ti := range d.Tracks {
		for si := range d.Tracks[ti].Sectors {
			s := &d.Tracks[ti].Sectors[si]
			switch (ti + si) % 3 {
			case 0:
				rnd.Read(s.Data)
			case 1:
				for i := range s.Data {
					s.Data[i] = "the quick brown fox "[(i*7+ti)%20]
				}
			}
		}
	}
	b := encodeTD0(d, td0Enc{advanced: true, encoding: func(int, int, int) int { return 0 }})
	require.Greater(t, len(b), 70000)
	got, _, err := DecodeTD0(b)
	require.NoError(t, err)
	assert.Equal(t, d, got)
}

func TestTD0Bad(t *testing.T) {
	d := td0Sample()
	good := encodeTD0(d, td0Enc{encoding: func(int, int, int) int { return 0 }})
	adv := encodeTD0(d, td0Enc{advanced: true, comment: "c\r\n"})
	withComment := encodeTD0(d, td0Enc{comment: "hello\r\n"})
	patch := func(b []byte, at int, v ...byte) []byte {
		b = append([]byte(nil), b...)
		copy(b[at:], v)
		return b
	}
	// header fixes the header CRC after a change, so the body is read.
	header := func(b []byte, at int, v byte) []byte {
		b = patch(b, at, v)
		return patch(b, 10, le16(int(td0CRC(0, b[:10])))...)
	}
	one := func(tr Track, o td0Enc) []byte {
		dd := NewDisk(tr.Cyl+1, 1)
		*dd.Track(tr.Cyl, 0) = tr
		return encodeTD0(dd, o)
	}
	sec := func(n byte, data []byte) Track {
		return Track{Sectors: []Sector{{N: n, R: 1, Data: data}}}
	}
	raw0 := func(int, int, int) int { return 0 }
	// A raw 128-byte sector: header 12, track 4, sector 6, block length 2,
	// encoding 1: its data starts at 25.
	small := one(sec(0, bytes.Repeat([]byte{1, 2, 3}, 128)[:128]), td0Enc{encoding: raw0})
	rle := one(sec(0, bytes.Repeat([]byte{9}, 128)), td0Enc{encoding: func(int, int, int) int { return 2 }})
	big := NewDisk(5, 1)
	for c := 0; c < 5; c++ {
		for r := 0; r < 254; r++ {
			big.Track(c, 0).Sectors = append(big.Track(c, 0).Sectors, Sector{C: byte(c), R: byte(r), N: 6, Data: make([]byte, 8192)})
		}
	}
	twice := NewDisk(1, 1)
	twice.Tracks = append(twice.Tracks, twice.Tracks[0])
	twice.Tracks[0].Sectors = []Sector{{R: 1, Data: make([]byte, 128)}}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty file", nil, "header truncated"},
		{"garbage", []byte("hello world, this is no disk image"), "not a Teledisk"},
		{"header CRC", patch(good, 11, good[11]^1), "header CRC mismatch"},
		{"multi-volume", header(good, 2, 1), "multi-volume"},
		{"old advanced", header(adv, 4, 15), "old LZW"},
		{"extended density", header(good, 5, 4), "extended density"},
		{"truncated in a sector", good[:len(good)/2], "truncated at byte"},
		{"truncated in a track header", good[:14], "truncated at byte 14"},
		{"no end mark", good[:len(good)-4], "without its end-of-image mark"},
		{"no tracks", good[:12:12], "without its end-of-image mark"},
		{"only the end mark", append(good[:12:12], 0xff), "no tracks"},
		{"comment CRC", patch(withComment, 12, withComment[12]^0x40), "comment CRC mismatch"},
		{"comment truncated", withComment[:25], "truncated at byte 25 (in the comment)"},
		{"track header CRC", patch(good, 15, good[15]^1), "track header CRC mismatch"},
		{"track head 2", patch(one(Track{Cyl: 0, Head: 0}, td0Enc{}), 14, 2, byte(td0CRC(0, []byte{0, 0, 2}))), "head 2"},
		{"data CRC", patch(small, 30, small[30]^4), "data CRC mismatch"},
		{"sector header CRC (no data)", patch(one(Track{Sectors: []Sector{{R: 1}}}, td0Enc{}), 21, 0), "sector header CRC mismatch"},
		{"size code 7", patch(small, 19, 7), "size code 7"},
		{"raw block too short", patch(small, 22, 100), "raw data block holds"},
		{"unknown encoding", patch(small, 24, 3), "data encoding 3"},
		{"run-length fragment type", patch(rle, 25, 2), "fragment type 2"},
		{"run-length too long", patch(rle, 26, 65), "expands past"},
		{"cylinder twice", encodeTD0(twice, td0Enc{}), "cylinder 0 head 0 twice"},
		{"advanced truncated", adv[:len(adv)/2], "truncated at byte"},
		{"advanced stream corrupt", patch(adv, 40, adv[40]^0x10, adv[41]^0x81), "Teledisk "},
		{"too much data", encodeTD0(big, td0Enc{}), "not a floppy image"},
	} {
		_, _, err := DecodeTD0(tc.b)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.NotContains(t, err.Error(), "\n", tc.name)
	}
}

func TestOpenTD0(t *testing.T) {
	dir := t.TempDir()
	d := td0Sample()
	b := encodeTD0(d, td0Enc{advanced: true, comment: "an archived disk\r\n", created: time.Date(1990, 8, 20, 12, 0, 0, 0, time.UTC)})
	p := filepath.Join(dir, "a.td0")
	require.NoError(t, os.WriteFile(p, b, 0o644))

	for _, name := range []string{"a.td0", "sniffed.img"} {
		q := filepath.Join(dir, name)
		if q != p {
			require.NoError(t, os.WriteFile(q, b, 0o644))
		}
		im, err := Open(q, Options{})
		require.NoError(t, err, name)
		assert.Equal(t, TD0, im.Kind(), name)
		assert.True(t, im.ReadOnly(), name)
		d.Comment = "an archived disk\r\n"
		assert.Equal(t, d, im.Disk(), name)
		s := im.Disk().Track(0, 0).Sectors[2]
		err = im.WriteSector(0, 0, 2, s)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "never writes a Teledisk image", name)
		require.Error(t, im.WriteTrack(0, 0, *im.Disk().Track(0, 0)), name)
		desc := strings.Join(im.Describe(), "\n")
		assert.Contains(t, desc, "(Teledisk)", name)
		assert.Contains(t, desc, "advanced compression", name)
		assert.Contains(t, desc, "created: 1990-08-20 12:00:00", name)
		assert.Contains(t, desc, "comment: an archived disk", name)
		assert.Equal(t, "IMD 1.18: 20/08/1990 12:00:00", im.IMDHeader(), name)
		// A second reader may open it alongside (a shared lock).
		im2, err := Open(q, Options{})
		require.NoError(t, err, name)
		require.NoError(t, im2.Close())
		require.NoError(t, im.Close(), name)
		after, err := os.ReadFile(q)
		require.NoError(t, err)
		assert.Equal(t, b, after, "%s: the Teledisk file is never written", name)
	}

	// convert= writes a new IMD and opens it writable.
	conv := filepath.Join(dir, "a.imd")
	im, err := Open(p, Options{Convert: conv})
	require.NoError(t, err)
	assert.Equal(t, IMD, im.Kind())
	assert.False(t, im.ReadOnly())
	assert.Equal(t, conv, im.Path())
	s := im.Disk().Track(0, 0).Sectors[2]
	s.Data = bytes.Repeat([]byte{0x42}, 512)
	require.NoError(t, im.WriteSector(0, 0, 2, s))
	require.NoError(t, im.Close())
	im, err = Open(conv, Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, s.Data, im.Disk().Track(0, 0).Sectors[2].Data)
	assert.Equal(t, d.Track(1, 1), im.Disk().Track(1, 1))
	require.NoError(t, im.Close())
	after, _ := os.ReadFile(p)
	assert.Equal(t, b, after)

	for _, tc := range []struct {
		name, path, conv, want string
	}{
		{"existing target", p, conv, "already exists"},
		{"target not IMD", p, filepath.Join(dir, "x.img"), "ImageDisk file (.imd)"},
		{"source not Teledisk", conv, filepath.Join(dir, "y.imd"), "is for Teledisk"},
		{"bad source", filepath.Join(dir, "nope.td0"), filepath.Join(dir, "z.imd"), "no such floppy image"},
	} {
		_, err := Open(tc.path, Options{Convert: tc.conv})
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Contains(t, err.Error(), tc.path, tc.name)
	}
	_, err = os.Stat(filepath.Join(dir, "y.imd"))
	assert.True(t, os.IsNotExist(err), "nothing made for a refused convert")

	bad := filepath.Join(dir, "bad.td0")
	require.NoError(t, os.WriteFile(bad, b[:len(b)-30], 0o644))
	_, err = Open(bad, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad)
	assert.Contains(t, err.Error(), "Teledisk")
}
