package fdimage

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzIMD feeds arbitrary bytes to the ImageDisk reader: it must return a
// disk or an error, never panic; a disk it accepts must encode and decode
// back to the same bytes.
func FuzzIMD(f *testing.F) {
	f.Add(EncodeIMD(sample(), "IMD 1.18: fuzz", false, nil))
	f.Add(EncodeIMD(sample(), "IMD 1.18: fuzz", true, nil))
	f.Add([]byte("IMD 1.18\r\n\x1a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		d, err := DecodeIMD(b, map[int]int64{})
		if err != nil {
			return
		}
		enc := EncodeIMD(d, "IMD 1.18: fuzz", false, nil)
		d2, err := DecodeIMD(enc, nil)
		if err != nil {
			t.Fatalf("re-encoded image refused: %v", err)
		}
		if !bytes.Equal(enc, EncodeIMD(d2, "IMD 1.18: fuzz", false, nil)) {
			t.Fatal("encode/decode/encode differs")
		}
	})
}

// FuzzTD0 feeds arbitrary bytes to the Teledisk reader (and through it the
// advanced-compression decoder): it must return a disk or an error, never
// panic or hang; a disk it accepts must convert to IMD and read back with
// the same sectors (a .td0 is only ever read, and converted to IMD).
func FuzzTD0(f *testing.F) {
	d := td0Sample()
	f.Add(encodeTD0(d, td0Enc{}))
	f.Add(encodeTD0(d, td0Enc{encoding: func(int, int, int) int { return 2 }, comment: "x\r\n"}))
	f.Add(encodeTD0(d, td0Enc{advanced: true}))
	f.Add(encodeTD0(d, td0Enc{advanced: true, fm: true, rate: 2, comment: "fuzz\r\n"}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		d, _, err := DecodeTD0(b)
		if err != nil {
			return
		}
		d2, err := DecodeIMD(EncodeIMD(d, "IMD 1.18: fuzz", false, nil), nil)
		if err != nil {
			t.Fatalf("IMD of an accepted Teledisk image refused: %v", err)
		}
		for _, tr := range d.Tracks {
			if len(tr.Sectors) == 0 {
				continue
			}
			got := d2.Track(tr.Cyl, tr.Head)
			if got == nil || !reflect.DeepEqual(&tr, got) {
				t.Fatalf("cylinder %d head %d differs after IMD", tr.Cyl, tr.Head)
			}
		}
	})
}
