package acb4000

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// small is a drive geometry small enough for fast image tests.
var small = Geometry{Name: "small", Cylinders: 6, Heads: 2, Sectors: 17, SectorSize: 512}

type rig struct {
	s    *sched.Scheduler
	bus  *scsi.Bus
	tgt  *scsi.Target
	c    *Controller
	h    *initiator
	disk *Disk
	path string
}

type rigOpts struct {
	geom       Geometry
	unformat   bool
	interleave int
	params     *Params
	raw        int64 // > 0: a raw image of this many blocks, no sidecar
	rawIL      int   // the raw image's interleave (0: RawInterleave)
}

func newRig(t testing.TB, o rigOpts) *rig {
	t.Helper()
	if o.geom.Name == "" {
		o.geom = small
	}
	if o.interleave == 0 {
		o.interleave = 3
	}
	p := DefaultParams()
	if o.params != nil {
		p = *o.params
	}
	path := filepath.Join(t.TempDir(), "hd.img")
	if o.raw > 0 {
		require.NoError(t, os.WriteFile(path, make([]byte, o.raw*512), 0o644))
	} else {
		require.NoError(t, Create(path, o.geom, !o.unformat, o.interleave))
	}
	d, err := OpenAs(path, Raw{Interleave: o.rawIL}, false)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	s := sched.New()
	bus := scsi.NewBus(s)
	c := New(p, d, nil)
	r := &rig{s: s, bus: bus, c: c, disk: d, path: path}
	r.tgt = scsi.NewTarget(bus, 0, "acb4000", c, c.Timing())
	r.h = newInitiator(bus)
	return r
}

// run performs one command and returns its status and DATA IN bytes. It
// fails the test if the command does not end within a simulated minute.
func (r *rig) run(t testing.TB, cdb []byte, out []byte) (status int, in []byte) {
	t.Helper()
	st, in, ok := r.try(cdb, out)
	require.True(t, ok, "command %x did not complete", cdb)
	return st, in
}

func (r *rig) try(cdb []byte, out []byte) (status int, in []byte, ok bool) {
	done := false
	r.h.command(0, cdb, out, func(sched.Time) { done = true })
	limit := r.s.Now() + 200*sched.Second
	for !done {
		next := r.s.Next()
		if next == sched.MaxTime || next > limit {
			return -1, nil, false
		}
		r.s.Advance(next)
	}
	return r.h.status, r.h.in, true
}

// senseOf runs REQUEST SENSE on lun.
func (r *rig) senseOf(t testing.TB, lun int) []byte {
	st, in := r.run(t, []byte{OpRequestSense, byte(lun << 5), 0, 0, 0, 0}, nil)
	require.Equal(t, scsi.StatusGood, st)
	return in
}

func rw(op byte, lun, lba, count int) []byte {
	return []byte{op, byte(lun<<5) | byte(lba>>16)&0x1f, byte(lba >> 8), byte(lba), byte(count), 0}
}
