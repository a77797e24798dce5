package scsihd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A READ stopped in the middle: looking twice sees the same, the engine's
// byte in flight is saveable, the state loads into a second drive on the
// same image, and the saved bytes load back into the first, which then
// finishes the READ with the right data.
func TestStateMidRead(t *testing.T) {
	r := newRig(t, rigOpts{})
	res := r.h.Start(0, rw10(OpRead10, 3, 20), nil, false, 0)
	for r.d.Stats().BlocksRead < 7 {
		r.s.Advance(r.s.Next())
	}
	r.s.Advance(r.s.Now() + 123*sched.Microsecond)
	require.False(t, res.Done)
	st := r.d.State()
	assert.Equal(t, st, r.d.State(), "looking twice sees the same")
	require.NotNil(t, st.Transfer)
	assert.Equal(t, 20, st.Transfer.Count)
	assert.Contains(t, st.Pending, "scsihd 0 block")
	tst, err := r.d.Target().State()
	require.NoError(t, err)
	assert.Equal(t, "connected", tst.Connection())

	d2, _ := Attach(scsi.NewBus(sched.New()), 0, "scsihd 0", DefaultParams(), r.d.disk)
	require.NoError(t, d2.SetState(st))
	st2 := d2.State()
	st2.Slot, st2.Pending = st.Slot, st.Pending // display, and the scheduler's part
	assert.Equal(t, st, st2)

	saved, err := r.d.SaveState()
	require.NoError(t, err)
	require.NoError(t, r.d.LoadState(saved))
	assert.Equal(t, st, r.d.State())
	for !res.Done {
		r.s.Advance(r.s.Next())
	}
	assert.Equal(t, r.data[3*512:23*512], res.DataIn)
}

func TestSetStateRefusesAnotherDrive(t *testing.T) {
	r := newRig(t, rigOpts{})
	st := r.d.State()
	assert.ErrorContains(t, New(DefaultParams(), r.d.disk).SetState(st), "not attached")
	p := DefaultParams()
	p.BufferBlocks = 4
	p.ReadAheadBlocks = 4
	other, _ := Attach(scsi.NewBus(sched.New()), 0, "scsihd 0", p, r.d.disk)
	assert.ErrorContains(t, other.SetState(st), "buffer of 8192 bytes, restored with 2048")
}
