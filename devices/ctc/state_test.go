package ctc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// TestStateRestoresRunningChannels: a timer with interrupts and a counter
// are saved between zero counts; a fresh CTC restored from the state (and
// its scheduler from the scheduler's) sees the same zero counts at the
// same times afterwards.
func TestStateRestoresRunningChannels(t *testing.T) {
	build := func() (*sched.Scheduler, *CTC, *[]sched.Time) {
		s, c := newBoardCTC()
		var zc []sched.Time
		c.OnZC = func(ch int, now sched.Time) { zc = append(zc, now+sched.Time(ch)) }
		return s, c, &zc
	}
	s1, c1, zc1 := build()
	c1.Write(0, 0x57) // counter, TC follows
	c1.Write(0, 13)
	c1.Write(2, 0xA7) // timer, /256, interrupt, TC follows
	c1.Write(2, 3)
	s1.Advance(777 * sched.Microsecond)
	st := c1.State()
	assert.Equal(t, st, c1.State(), "looking changes nothing")
	assert.True(t, st.Channels[2].ZCPending)
	ss, err := s1.State()
	require.NoError(t, err)

	s2, c2, zc2 := build()
	require.NoError(t, s2.SetState(ss))
	require.NoError(t, c2.SetState(st))
	assert.Equal(t, st, c2.State())
	*zc1 = nil
	s1.Advance(5 * sched.Millisecond)
	s2.Advance(5 * sched.Millisecond)
	assert.NotEmpty(t, *zc1)
	assert.Equal(t, *zc1, *zc2)
	assert.Equal(t, c1.State(), c2.State())

	bad := st
	bad.Channels[1].TC = 0
	assert.ErrorContains(t, c2.SetState(bad), "channel 1")
}
