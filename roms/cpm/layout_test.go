package cpm

import (
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

// layout.inc and the Go constants must name the same addresses, and those
// must be DR's 60K layout with the BIOS on a page boundary.
func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		msize           int
		ccp, bdos, bios int64
	}{
		{60, 0xD400, 0xDC00, 0xEA00},
		{64, 0xE400, 0xEC00, 0xFA00},
		{58, 0xCC00, 0xD400, 0xE200},
	} {
		src := asm.UnionFS(FS, fstest.MapFS{"t.asm": {Data: []byte(
			"MSIZE equ " + strconv.Itoa(tc.msize) + "\n include \"layout.inc\"\n org 0\n db 0\n")}})
		r, err := asm.Assemble(src, "t.asm", asm.Options{})
		require.NoError(t, err)
		assert.Equal(t, tc.ccp, r.Symbols["CCPBASE"], "CCP %dK", tc.msize)
		assert.Equal(t, tc.bdos, r.Symbols["BDOSBASE"], "BDOS %dK", tc.msize)
		assert.Equal(t, tc.bdos+6, r.Symbols["BDOSENT"])
		assert.Equal(t, tc.bios, r.Symbols["BIOSBASE"], "BIOS %dK", tc.msize)
		assert.Equal(t, tc.bios+0x30, r.Symbols["BIOS_SECTRAN"])
		assert.Zero(t, r.Symbols["BIOSBASE"]&0xff, "BIOS on a page boundary")
		if tc.msize == MSIZE {
			assert.Equal(t, int64(CCPBase), r.Symbols["CCPBASE"])
			assert.Equal(t, int64(BDOSBase), r.Symbols["BDOSBASE"])
			assert.Equal(t, int64(BIOSBase), r.Symbols["BIOSBASE"])
		}
	}
}
