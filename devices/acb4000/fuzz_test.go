package acb4000

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/fuzztest"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// FuzzCDB feeds random CDBs (and DATA OUT bytes) to the controller through
// the SCSI engine: every command must end with GOOD or CHECK CONDITION and
// COMMAND COMPLETE, never panic or hang, and leave a valid image behind.
func FuzzCDB(f *testing.F) {
	for _, seed := range [][]byte{
		{OpTestUnitReady, 0, 0, 0, 0, 0},
		{OpRequestSense, 0, 0, 0, 0, 0},
		rw(OpRead, 0, 3, 2),
		rw(OpWrite, 0, 30, 1),
		rw(OpRead, 7, 0, 1),
		rw(OpSeek, 0, 0x1fffff, 0),
		{OpFormatUnit, 0x12, 0, 0, 3, 0},
		{OpModeSelect, 0, 0, 0, 0x18, 0},
		{OpModeSense, 0, 0, 0, 0xff, 0},
		{OpReadBuffer, 0xe0, 0, 0, 0, 0},
		{0x12, 0, 0, 0, 0xff, 0},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	} {
		f.Add(seed, []byte{0, 0, 0, 8, 0, 0xa, 0, 0, 0, 0, 2, 0})
	}
	f.Add([]byte{OpFormatUnit, 0, 0, 0, 5, 0, 90}, []byte{}) // after 90 s of uptime
	// Each input builds a fresh image.
	fuzztest.RAMTemp(f)
	f.Fuzz(func(t *testing.T, cdb, out []byte) {
		if len(cdb) == 0 {
			return
		}
		n := scsi.CDBLen(cdb[0])
		full := make([]byte, n)
		copy(full, cdb)
		if full[0] == OpRead || full[0] == OpWrite {
			full[4] &= 0x0f // keep each input fast; 0 (= 256) stays
			if full[4] == 0 {
				full[4] = 1
			}
		}
		r := newRig(t, rigOpts{})
		if len(cdb) > n {
			// A byte after the CDB is the board's uptime in seconds before
			// the command: a stale "heads ready" time from long ago once
			// made FORMAT UNIT schedule its end in the past.
			r.s.Advance(r.s.Now() + sched.Time(cdb[n])*sched.Second)
		}
		st, _, ok := r.try(full, out)
		require.True(t, ok, "command %x hung", full)
		require.Contains(t, []int{scsi.StatusGood, scsi.StatusCheckCondition}, st)
		require.Equal(t, []byte{scsi.MsgCommandComplete}, r.h.msgs)
		// The controller still answers.
		st, _ = r.run(t, []byte{OpRequestSense, 0, 0, 0, 0, 0}, nil)
		require.Equal(t, scsi.StatusGood, st)
		var m Meta
		require.NoError(t, readSidecar(r.path, &m))
	})
}
