package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// TestStateMidReadLooksWithoutChangingAndRoundTrips stops a multi-sector
// READ at a random instant in the middle, checks that taking the state
// twice changes nothing, that the controller's and the engine's pending
// events are all saveable, and that the state loads into a second
// controller on the same disk and reads back equal.
func TestStateMidReadLooksWithoutChangingAndRoundTrips(t *testing.T) {
	r := newRig(t, rigOpts{})
	done := false
	r.h.command(0, rw(OpRead, 0, 3, 20), nil, func(sched.Time) { done = true })
	var sectors []SectorEvent
	r.c.ObserveSectors(func(e SectorEvent) { sectors = append(sectors, e) })
	for len(sectors) < 7 {
		r.s.Advance(r.s.Next())
	}
	r.s.Advance(r.s.Now() + 123*sched.Microsecond)
	require.False(t, done)
	st := r.c.State()
	assert.Equal(t, st, r.c.State(), "looking twice sees the same")
	require.NotNil(t, st.Transfer)
	assert.Equal(t, 20, st.Transfer.Count)
	assert.Contains(t, st.PendingEvent, "acb4000 sector")
	assert.Equal(t, uint64(1), r.c.Stats.Commands)
	tst, err := r.tgt.State()
	require.NoError(t, err, "the engine's byte in flight continues through a Cont")
	assert.Equal(t, "connected", tst.Connection())

	s2 := sched.New()
	c2, _ := Attach(scsi.NewBus(s2), 0, "acb4000", DefaultParams(), r.disk, nil)
	require.NoError(t, c2.SetState(st))
	st2 := c2.State()
	st2.Drives[0].Slot = st.Drives[0].Slot // display only: s2 is at time 0
	st2.PendingEvent = st.PendingEvent     // the scheduler restores those
	assert.Equal(t, st, st2)

	for !done {
		r.s.Advance(r.s.Next())
	}
	assert.Len(t, sectors, 20)
}

func TestSetStateRefusesADifferentMachine(t *testing.T) {
	r := newRig(t, rigOpts{})
	st := r.c.State()
	none := New(DefaultParams(), nil, nil)
	st.Bound = false
	assert.ErrorContains(t, none.SetState(st), "LUN 0: saved with a drive true, restored with one false")
	st.Bound = true
	c2 := New(DefaultParams(), r.disk, nil)
	assert.ErrorContains(t, c2.SetState(st), "not attached")
}
