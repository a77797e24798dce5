package scsihd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

// rigBlocks is the test image: 5 cylinders and a part of a sixth.
const rigBlocks = 5*68 + 30

type rig struct {
	s    *sched.Scheduler
	d    *Drive
	h    *scsitest.Initiator
	path string
	data []byte // what the image held when the rig was made
}

type rigOpts struct {
	blocks   int64
	params   *Params
	readOnly bool
}

// pattern fills block b with bytes that name it.
func pattern(blocks int64) []byte {
	data := make([]byte, blocks*BlockSize)
	for i := range data {
		b := i / BlockSize
		data[i] = byte(b*7 + i%BlockSize)
	}
	return data
}

func newRig(t testing.TB, o rigOpts) *rig {
	t.Helper()
	if o.blocks == 0 {
		o.blocks = rigBlocks
	}
	p := DefaultParams()
	if o.params != nil {
		p = *o.params
	}
	path := filepath.Join(t.TempDir(), "hd.img")
	data := pattern(o.blocks)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	disk, err := Open(path, o.readOnly)
	require.NoError(t, err)
	t.Cleanup(func() { disk.Close() })
	s := sched.New()
	bus := scsi.NewBus(s)
	d, _ := Attach(bus, 0, "scsihd 0", p, disk)
	return &rig{s: s, d: d, h: scsitest.New(bus, 7), path: path, data: data}
}

// run performs one command; it fails the test if the command does not end
// within a simulated minute (60 s).
func (r *rig) run(t testing.TB, cdb, out []byte) *scsitest.Result {
	t.Helper()
	res := r.h.Run(0, cdb, out, false, 0, 60*sched.Second)
	require.True(t, res.Done, "command % x did not complete", cdb)
	return res
}

// sense runs REQUEST SENSE for the full 18 bytes.
func (r *rig) sense(t testing.TB) []byte {
	t.Helper()
	res := r.run(t, []byte{OpRequestSense, 0, 0, 0, senseLength, 0}, nil)
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	require.Len(t, res.DataIn, senseLength)
	return res.DataIn
}

func rw6(op byte, lba, n int) []byte {
	return []byte{op, byte(lba>>16) & 0x1f, byte(lba >> 8), byte(lba), byte(n), 0}
}

func rw10(op byte, lba int64, n int) []byte {
	return []byte{op, 0, byte(lba >> 24), byte(lba >> 16), byte(lba >> 8), byte(lba), 0, byte(n >> 8), byte(n), 0}
}
