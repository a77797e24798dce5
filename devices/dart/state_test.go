package dart

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// TestStateRestoresCharactersInFlight: a channel saved while a character
// shifts out and others wait on the line in restores into a fresh DART
// that sends and receives the rest at the same times.
func TestStateRestoresCharactersInFlight(t *testing.T) {
	build := func() (*sched.Scheduler, *DART, *[]sent) {
		s := sched.New()
		d := New(s)
		a := d.Channel(0)
		a.SetClock(baud9615)
		out := &[]sent{}
		a.OnTx = func(now sched.Time, b uint8) { *out = append(*out, sent{now, b}) }
		return s, d, out
	}
	s1, d1, out1 := build()
	a := d1.Channel(0)
	setup8N1(a)
	a.WriteData('H')
	a.WriteData('i')
	a.Feed([]byte("ok"))
	s1.Advance(300 * sched.Microsecond)
	st := d1.State()
	assert.Equal(t, st, d1.State(), "looking changes nothing")
	assert.True(t, st.Channels[0].TxPending)
	ss, err := s1.State()
	require.NoError(t, err)

	s2, d2, out2 := build()
	require.NoError(t, s2.SetState(ss))
	require.NoError(t, d2.SetState(st))
	assert.Equal(t, st, d2.State())
	s1.Advance(5 * sched.Millisecond)
	s2.Advance(5 * sched.Millisecond)
	assert.Len(t, *out1, 2)
	assert.Equal(t, *out1, *out2)
	assert.Equal(t, d1.State(), d2.State())
}
