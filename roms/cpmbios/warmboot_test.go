package cpmbios_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// WBTEST fills the CCP in memory with HALT and jumps to 0: on the board,
// A> comes back only because the BIOS's warm boot reads the CCP again
// from the hard disk's system tracks. When those tracks no longer hold
// the CCP (overwritten in the image file behind the running board's back,
// after the cold boot read them), the same warm boot finds HALTs and the
// prompt never returns.
func TestWarmBootReloadsCCPOnTheBoard(t *testing.T) {
	ccp, err := cpm.CCP()
	require.NoError(t, err)
	wbtest, err := cpmutil.Program("WBTEST")
	require.NoError(t, err)
	for _, spoil := range []bool{false, true} {
		name := "system tracks intact"
		if spoil {
			name = "system tracks spoilt"
		}
		t.Run(name, func(t *testing.T) {
			path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
			putFile(t, path, "WBTEST.COM", wbtest)
			r := bootDisk(t, path)
			require.NoError(t, r.ty.WaitFor("A>"))
			if spoil {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				at := bytes.Index(data, ccp)
				require.Positive(t, at, "the CCP on the system tracks")
				require.Equal(t, -1, bytes.Index(data[at+1:], ccp), "only one copy")
				f, err := os.OpenFile(path, os.O_WRONLY, 0)
				require.NoError(t, err)
				_, err = f.WriteAt(bytes.Repeat([]byte{0x76}, len(ccp)), int64(at))
				require.NoError(t, err)
				require.NoError(t, f.Close())
			}
			r.cmd(t, "WBTEST", "WBTEST: CCP at D400 overwritten\r\n")
			err := r.ty.WaitFor("A>")
			if spoil {
				assert.Error(t, err, "no prompt without the CCP on disk")
				return
			}
			require.NoError(t, err)
			r.cmd(t, "DIR", "A: WBTEST   COM\r\nA>")
		})
	}
}
