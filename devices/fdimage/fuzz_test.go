package fdimage

import (
	"bytes"
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
