package cpmbios_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The hard disk's configuration block chooses how the BIOS moves SCSI
// data: byte by byte (a DRQ poll before each DACK read of port 28h) or
// 256-byte INIR bursts (21 T from one DACK read to the next, docs/CPM.md).
func TestBIOSTransferMode(t *testing.T) {
	for _, tc := range []struct {
		name   string
		burst  bool
		lo, hi uint64 // T-states from one DACK read to the next, most of them
	}{{"byte", false, 50, 80}, {"burst", true, 21, 21}} {
		t.Run(tc.name, func(t *testing.T) {
			path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2, Burst: tc.burst})
			r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}})
			require.NoError(t, r.ty.WaitFor("A>"))
			var last uint64
			var gaps []uint64
			stop := r.b.ObservePorts(0x28, 0x28, func(t uint64, _ uint16, _ uint8, out bool) {
				if !out && last != 0 {
					gaps = append(gaps, t-last)
				}
				last = t
			})
			r.cmd(t, "DIR B:", "NO FILE\r\nA>") // logs B: in: its directory is read
			stop()
			require.Greater(t, len(gaps), 1000)
			slices.Sort(gaps)
			median := gaps[len(gaps)/2]
			t.Logf("%s: %d DACK reads, median %d T apart", tc.name, len(gaps)+1, median)
			assert.GreaterOrEqual(t, median, tc.lo)
			assert.LessOrEqual(t, median, tc.hi)
		})
	}
}
