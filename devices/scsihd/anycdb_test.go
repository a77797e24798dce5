package scsihd

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Whatever a host sends, every opcode with zeros, ones or a ramp in its
// CDB, the drive ends the command with GOOD or CHECK CONDITION, never
// hangs and never panics; the image keeps its size.
func TestAnyCDB(t *testing.T) {
	for op := 0; op < 256; op++ {
		r := newRig(t, rigOpts{blocks: 68})
		for _, fill := range []func(i int) byte{
			func(int) byte { return 0 },
			func(int) byte { return 0xFF },
			func(i int) byte { return byte(i * 37) },
		} {
			cdb := make([]byte, scsi.CDBLen(byte(op)))
			for i := range cdb {
				cdb[i] = fill(i)
			}
			cdb[0] = byte(op)
			res := r.h.Run(0, cdb, make([]byte, 1024), false, 0, 60*sched.Second)
			require.True(t, res.Done, "CDB % x did not end", cdb)
			require.Contains(t, []byte{scsi.StatusGood, scsi.StatusCheckCondition}, res.Status, "CDB % x", cdb)
		}
		require.Equal(t, int64(68), r.d.Blocks())
	}
}
