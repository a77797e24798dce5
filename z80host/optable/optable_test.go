package optable

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Counts from the Z80 CPU User Manual instruction tables.
func TestLookupCounts(t *testing.T) {
	tests := []struct {
		name    string
		code    []byte
		len     int
		t, tAlt int
		m1      int
	}{
		{"NOP", []byte{0x00}, 1, 4, 4, 1},
		{"LD BC,nn", []byte{0x01, 0x34, 0x12}, 3, 10, 10, 1},
		{"INC BC", []byte{0x03}, 1, 6, 6, 1},
		{"DJNZ", []byte{0x10, 0xfe}, 2, 13, 8, 1},
		{"JR", []byte{0x18, 0x00}, 2, 12, 12, 1},
		{"JR NZ", []byte{0x20, 0x00}, 2, 12, 7, 1},
		{"LD (nn),HL", []byte{0x22, 0, 0}, 3, 16, 16, 1},
		{"INC (HL)", []byte{0x34}, 1, 11, 11, 1},
		{"LD (HL),n", []byte{0x36, 0}, 2, 10, 10, 1},
		{"HALT", []byte{0x76}, 1, 4, 4, 1},
		{"RET NZ", []byte{0xc0}, 1, 11, 5, 1},
		{"JP NZ", []byte{0xc2, 0, 0}, 3, 10, 10, 1},
		{"CALL NZ", []byte{0xc4, 0, 0}, 3, 17, 10, 1},
		{"PUSH BC", []byte{0xc5}, 1, 11, 11, 1},
		{"RST 38", []byte{0xff}, 1, 11, 11, 1},
		{"OUT (n),A", []byte{0xd3, 0}, 2, 11, 11, 1},
		{"IN A,(n)", []byte{0xdb, 0}, 2, 11, 11, 1},
		{"EX (SP),HL", []byte{0xe3}, 1, 19, 19, 1},
		{"LD SP,HL", []byte{0xf9}, 1, 6, 6, 1},
		{"RLC B", []byte{0xcb, 0x00}, 2, 8, 8, 2},
		{"BIT 0,(HL)", []byte{0xcb, 0x46}, 2, 12, 12, 2},
		{"SET 0,(HL)", []byte{0xcb, 0xc6}, 2, 15, 15, 2},
		{"IN B,(C)", []byte{0xed, 0x40}, 2, 12, 12, 2},
		{"SBC HL,BC", []byte{0xed, 0x42}, 2, 15, 15, 2},
		{"LD (nn),BC", []byte{0xed, 0x43, 0, 0}, 4, 20, 20, 2},
		{"RETI", []byte{0xed, 0x4d}, 2, 14, 14, 2},
		{"LD A,R", []byte{0xed, 0x5f}, 2, 9, 9, 2},
		{"RLD", []byte{0xed, 0x6f}, 2, 18, 18, 2},
		{"LDI", []byte{0xed, 0xa0}, 2, 16, 16, 2},
		{"LDIR", []byte{0xed, 0xb0}, 2, 21, 16, 2},
		{"CPIR", []byte{0xed, 0xb1}, 2, 21, 16, 2},
		{"INIR", []byte{0xed, 0xb2}, 2, 21, 16, 2},
		{"OTDR", []byte{0xed, 0xbb}, 2, 21, 16, 2},
		{"ED 00", []byte{0xed, 0x00}, 2, 8, 8, 2},
		{"LD IX,nn", []byte{0xdd, 0x21, 0, 0}, 4, 14, 14, 2},
		{"INC IX", []byte{0xdd, 0x23}, 2, 10, 10, 2},
		{"LD A,(IX+d)", []byte{0xfd, 0x7e, 5}, 3, 19, 19, 2},
		{"LD (IX+d),n", []byte{0xdd, 0x36, 5, 6}, 4, 19, 19, 2},
		{"INC (IX+d)", []byte{0xdd, 0x34, 5}, 3, 23, 23, 2},
		{"LD IXH,n", []byte{0xdd, 0x26, 5}, 3, 11, 11, 2},
		{"ADD A,IXL", []byte{0xdd, 0x85}, 2, 8, 8, 2},
		{"PUSH IX", []byte{0xdd, 0xe5}, 2, 15, 15, 2},
		{"EX (SP),IX", []byte{0xdd, 0xe3}, 2, 23, 23, 2},
		{"DD NOP", []byte{0xdd, 0x00}, 2, 8, 8, 2},
		{"DD JR NZ", []byte{0xdd, 0x20, 0}, 3, 16, 11, 2},
		{"DD DD", []byte{0xdd, 0xdd, 0x00}, 1, 4, 4, 1},
		{"BIT 0,(IX+d)", []byte{0xdd, 0xcb, 5, 0x46}, 4, 20, 20, 2},
		{"RLC (IX+d)", []byte{0xfd, 0xcb, 5, 0x06}, 4, 23, 23, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Lookup(tc.code)
			require.True(t, in.Valid)
			assert.Equal(t, tc.len, in.Len)
			assert.Equal(t, tc.t, in.T)
			assert.Equal(t, tc.tAlt, in.TAlt)
			assert.Equal(t, tc.m1, in.M1)
		})
	}
}

func TestLookupShort(t *testing.T) {
	assert.False(t, Lookup(nil).Valid)
	assert.False(t, Lookup([]byte{0xdd, 0xcb, 5}).Valid)
	in := Lookup([]byte{0x01, 0x00})
	assert.False(t, in.Valid)
	assert.Equal(t, 3, in.Len)
}

// The cycle list must add up to T and the alternative path must fit in it.
func TestTablesConsistent(t *testing.T) {
	for name, tab := range map[string]*[256]Info{"base": &Base, "cb": &CB, "ed": &ED, "xy": &XY, "xycb": &XYCB} {
		for op := range tab {
			in := &tab[op]
			sum := 0
			for _, c := range in.Cycles {
				assert.Equal(t, sum, int(c.Start), "%s %02x", name, op)
				sum += int(c.Len)
			}
			assert.Equal(t, in.T, sum, fmt.Sprintf("%s %02x", name, op))
			assert.LessOrEqual(t, in.NAlt, len(in.Cycles))
			if in.Cond == Always {
				assert.Equal(t, in.T, in.TAlt)
			}
		}
	}
}

func TestIOCyclePositions(t *testing.T) {
	// docs/HARDWARE.md 2.1: I/O cycle at T 8-11 (IN A,(n)), 9-12 (IN r,(C)),
	// 10-13 (INI), 13-16 (OUTI), counting T-states from 1.
	for _, tc := range []struct {
		code  []byte
		start uint8
	}{
		{[]byte{0xdb, 0}, 7}, {[]byte{0xed, 0x78}, 8}, {[]byte{0xed, 0xa2}, 9}, {[]byte{0xed, 0xa3}, 12},
	} {
		in := Lookup(tc.code)
		var got []uint8
		for _, c := range in.Cycles {
			if c.Kind == In || c.Kind == Out {
				got = append(got, c.Start)
			}
		}
		assert.Equal(t, []uint8{tc.start}, got, "% x", tc.code)
	}
}
