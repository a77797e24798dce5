package mcd403

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

const tapeID = 1

type rig struct {
	s    *sched.Scheduler
	bus  *scsi.Bus
	d    *Drive
	tgt  *scsi.Target
	h    *scsitest.Initiator
	path string
}

type rigOpts struct {
	interleave int
	params     *Params
	noTape     bool
	readOnly   bool
}

func newRig(t testing.TB, o rigOpts) *rig {
	t.Helper()
	if o.interleave == 0 {
		o.interleave = 3
	}
	p := DefaultParams()
	if o.params != nil {
		p = *o.params
	}
	r := &rig{s: sched.New()}
	r.bus = scsi.NewBus(r.s)
	var tape *Tape
	if !o.noTape {
		r.path = filepath.Join(t.TempDir(), "t.tape")
		require.NoError(t, Create(r.path, o.interleave))
		var err error
		tape, err = Open(r.path, o.readOnly)
		require.NoError(t, err)
	}
	r.d, r.tgt = Attach(r.bus, tapeID, "mcd403", p, tape)
	t.Cleanup(func() { r.d.Close() })
	r.h = scsitest.New(r.bus, 7)
	return r
}

// run performs one command, failing the test if it does not end within a
// simulated 10 minutes.
func (r *rig) run(t testing.TB, cdb []byte, out []byte) *scsitest.Result {
	t.Helper()
	res := r.h.Run(tapeID, cdb, out, false, 0, 10*60*sched.Second)
	require.True(t, res.Done, "command %x did not finish", cdb)
	return res
}

func (r *rig) senseOf(t testing.TB) []byte {
	t.Helper()
	res := r.run(t, []byte{OpRequestSense, 0, 0, 0, 18, 0}, nil)
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	return res.DataIn
}

func rw(op byte, block, count int) []byte {
	return []byte{op, byte(block>>16) & 0x1F, byte(block >> 8), byte(block), byte(count), 0}
}

func pattern(block int, size int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i*7 + block*13 + i>>8)
	}
	return b
}
