package mcd403

import (
	"testing"

	"github.com/lbplus/lbplus/internal/fuzztest"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// FuzzCDB feeds arbitrary CDBs (and DATA OUT bytes) to the drive: it must
// always end the command (or wait for data) without panicking.
func FuzzCDB(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 0, 0}, rw(OpRead, 0, 1), rw(OpWrite, 4847, 0), {OpModeSelect, 0, 0, 0, 13, 0},
		{OpLoad, 1, 0, 0, 1, 0}, {OpRequestSense, 0, 0, 0, 255, 0}, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	} {
		f.Add(seed)
	}
	// Each input builds a fresh image.
	fuzztest.RAMTemp(f)
	p := DefaultParams()
	f.Fuzz(func(t *testing.T, cdb []byte) {
		if len(cdb) == 0 || len(cdb) < scsi.CDBLen(cdb[0]) {
			return
		}
		var idle sched.Time
		if n := scsi.CDBLen(cdb[0]); len(cdb) > n {
			idle = sched.Time(cdb[n]) * sched.Second // uptime before the command
		}
		cdb = append([]byte(nil), cdb[:scsi.CDBLen(cdb[0])]...)
		if cdb[0] == OpRead || cdb[0] == OpWrite {
			// One or two blocks: the initiator pads DATA OUT and a count of
			// 0 means 256 blocks (2 MB, seconds of handshakes), which would
			// hold the fuzzer at a few inputs a second.
			cdb[4] = cdb[4]&1 + 1
		}
		r := newRig(t, rigOpts{interleave: 2, params: &p})
		out := make([]byte, 2*8192)
		for i := range out {
			out[i] = byte(i)
		}
		if cdb[0] == OpModeSelect && len(out) > 12 {
			out[12] = cdb[len(cdb)-1] // try odd interleaves too
		}
		r.s.Advance(r.s.Now() + idle)
		r.h.Run(tapeID, cdb, out, false, 0, 5*60*sched.Second)
	})
}
