package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

// hgenLoadAddress is what Ampro's HGEN 1.3 does with block 0 of the hard
// disk at SCSI ID 0 before it installs its own loader [F HGEN;
// docs/COMPATIBILITY.md]: the block is bootable only if its first byte is
// 21h (LD HL,nn) or 3Eh (LD A,n); HGEN then scans for the first 21h and
// takes its operand as the address the old loader reads the system
// tracks to. ok false is HGEN's "Valid Boot sector not present".
func hgenLoadAddress(block0 []byte) (addr int, ok bool) {
	if block0[0] != 0x21 && block0[0] != 0x3E {
		return 0, false
	}
	for i := 0; i+2 < len(block0); i++ {
		if block0[i] == 0x21 {
			return int(block0[i+1]) | int(block0[i+2])<<8, true
		}
	}
	return 0, false
}

// Our hard-disk loader passes HGEN's check, and the address HGEN reads
// from it is where our loader really reads the system tracks: block 10,
// the CCP, lands at CCPBASE. (HGEN goes on to ask for Ampro's HINIT and
// SWAP, which are not public: docs/COMPATIBILITY.md.) A blank block 0 is
// refused as HGEN refuses it.
func TestHGENAcceptsOurLoader(t *testing.T) {
	loader, err := cpmbios.Loader()
	require.NoError(t, err)
	addr, ok := hgenLoadAddress(loader)
	require.True(t, ok, "HGEN: valid boot sector")
	assert.Equal(t, cpm.CCPBase-cpmbios.SysBlock*cpmbios.BlockSize, addr)

	_, ok = hgenLoadAddress(make([]byte, cpmbios.BlockSize))
	assert.False(t, ok, "HGEN: no SYSGEN done")
}
