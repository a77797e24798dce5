package cpmbios

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm"
)

func TestAssembles(t *testing.T) {
	b, err := BIOS()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(b), ImageMax)
	t.Logf("BIOS %d bytes", len(b))
	for i := 0; i < 17; i++ {
		assert.Equal(t, byte(0xC3), b[3*i], "entry %d is a JP", i)
	}
	syms, err := Symbols()
	require.NoError(t, err)
	assert.Zero(t, syms["vectors"]&0xFF, "IM 2 table on a page boundary")
	assert.Equal(t, int64(cpm.BIOSBase+0x35), syms["seconds"])
	// BIOS+3Bh: "DM" and the drive map's address (docs/CPM.md, FORMAT).
	assert.Equal(t, "DM", string(b[0x3B:0x3D]))
	assert.Equal(t, syms["dmap"], int64(b[0x3D])|int64(b[0x3E])<<8, "its drive map")
	l, err := Loader()
	require.NoError(t, err)
	assert.Equal(t, byte(0x3E), l[0], "LD A,n: the ROM's boot check")
}
