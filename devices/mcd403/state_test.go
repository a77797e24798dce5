package mcd403

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// TestStateMidWriteLooksWithoutChangingAndRoundTrips stops a three-block
// WRITE once block 10 is on tape and block 11 waits for its slot, checks that looking changes
// nothing and that every pending step is saveable, and loads the state
// into a second drive on a cartridge of the same interleave.
func TestStateMidWriteLooksWithoutChangingAndRoundTrips(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	out := append(append(pattern(10, 8192), pattern(11, 8192)...), pattern(12, 8192)...)
	res := r.h.Start(tapeID, rw(OpWrite, 10, 3), out, false, 0)
	var written []sched.Time
	r.d.Observe(func(now sched.Time, ev string) {
		if ev == "slot of block 10: written" {
			written = append(written, now)
		}
	})
	for len(written) == 0 || r.d.cmd.block != 11 || r.d.BytesReceived() < 3000 {
		r.s.Advance(r.s.Next())
	}
	st := r.d.State()
	assert.Equal(t, st, r.d.State(), "looking twice sees the same")
	require.NotNil(t, st.Command)
	assert.True(t, st.Command.Write)
	assert.Equal(t, 11, st.Command.Block)
	assert.GreaterOrEqual(t, st.Command.Received, 3000)
	assert.True(t, bytes.Equal(pattern(11, 8192)[:st.Command.Received], st.Command.Buf[:st.Command.Received]), "block 11 in the buffer")
	assert.True(t, st.Streaming, "the tape streams on to block 11")
	// At 3:1 block 11 is in slot 33: the head is past block 10's slot (30)
	// and has not yet left 33 (with the second buffer block 11 arrived
	// long before its slot, so the stop falls as block 12 starts into the
	// second buffer, with the head over slot 33).
	assert.Equal(t, 0, st.Track)
	assert.Greater(t, st.Slot, 30)
	assert.LessOrEqual(t, st.Slot, 33)
	assert.Equal(t, st.Slot%3 == 0, st.Block == st.Slot/3, "first-pass slots hold block slot/3")
	_, err := r.s.State()
	require.NoError(t, err, "every pending event is owned")
	_, err = r.tgt.State()
	require.NoError(t, err)

	d2 := newRig(t, rigOpts{interleave: 3}).d // a second drive, on a bus of its own
	require.NoError(t, d2.SetState(st))
	st2 := d2.State()
	st2.Position, st2.Streaming, st2.Track, st2.Slot, st2.Block = st.Position, st.Streaming, st.Track, st.Slot, st.Block // display: d2's clock is at 0
	assert.Equal(t, st, st2)

	for !res.Done {
		r.s.Advance(r.s.Next())
	}
	assert.Equal(t, byte(scsi.StatusGood), res.Status)
}

func TestSetStateRefusesAnotherCartridge(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	st := r.d.State()
	other := newRig(t, rigOpts{interleave: 4})
	assert.EqualError(t, other.d.SetState(st), "mcd403: saved with a cartridge at interleave 3, restored with one at 4")
	empty := newRig(t, rigOpts{noTape: true})
	assert.EqualError(t, empty.d.SetState(st), "mcd403: saved with a cartridge loaded, restored without one")
	st.Plan = "somebody else's"
	assert.ErrorContains(t, r.d.SetState(st), "is not the drive's")
}

// TestStateWithTheSecondBufferRoundTrips saves a three-block WRITE while
// block 11 streams into the second buffer and block 10 waits for its slot,
// and restores it into a second drive; a state whose second buffer is
// missing is refused.
func TestStateWithTheSecondBufferRoundTrips(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	out := append(append(pattern(10, 8192), pattern(11, 8192)...), pattern(12, 8192)...)
	r.h.Start(tapeID, rw(OpWrite, 10, 3), out, false, 0)
	for r.d.cmd == nil || !r.d.cmd.ahead || r.d.BytesReceived() < 3000 {
		r.s.Advance(r.s.Next())
	}
	st := r.d.State()
	require.NotNil(t, st.Command)
	assert.True(t, st.Command.Ahead)
	assert.Equal(t, 10, st.Command.Block)
	assert.True(t, st.Command.Complete, "block 10 waits for its slot")
	assert.True(t, bytes.Equal(pattern(11, 8192)[:st.Command.Received], st.Command.Spare[:st.Command.Received]), "block 11 in the second buffer")
	_, err := r.s.State()
	require.NoError(t, err, "every pending event is owned")

	d2 := newRig(t, rigOpts{interleave: 3}).d // a second drive, on a bus of its own
	require.NoError(t, d2.SetState(st))
	st2 := d2.State()
	st2.Position, st2.Streaming = st.Position, st.Streaming
	assert.Equal(t, st, st2)

	bad := st
	c := *st.Command
	c.Spare = nil
	bad.Command = &c
	assert.ErrorContains(t, d2.SetState(bad), "saved block buffer")
}
