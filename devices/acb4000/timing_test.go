package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

var fastHost = benchHost{perByte: 700 * sched.Nanosecond, cmdByte: 1 * sched.Microsecond, hostTurn: 100 * sched.Microsecond}

func traceRead(t *testing.T, il int, h benchHost, lba, reads, count int) []SectorEvent {
	d := openAtInterleave(t, t.TempDir(), il)
	var ev []SectorEvent
	runReads(t, d, DefaultParams(), h, lba, reads, count, func(e SectorEvent) { ev = append(ev, e) })
	return ev
}

// With a host faster than the platter, a sequential READ is disk-paced:
// consecutive logical sectors pass exactly I slots apart, even at 1:1 (the
// formatter chains within the inter-sector gap), and across the head switch
// (no track skew: logical 0 of the next head comes I slots after 16) --
// except at 1:1, where the head switch does not fit the gap between slot 16
// and slot 0 and the next track costs a revolution, which is what track
// skew exists for.
func TestSequentialReadIsDiskPaced(t *testing.T) {
	sp := newSpindle(DefaultParams(), 17)
	for _, il := range []int{1, 2, 3, 5, 8} {
		ev := traceRead(t, il, fastHost, 0, 1, 34)
		require.Len(t, ev, 34)
		for i := 1; i < len(ev); i++ {
			gap := ev[i].IDAt - ev[i-1].IDAt
			want := sp.boundary(uint64(il)) - sp.boundary(0)
			if il == 1 && i == 17 {
				want += sp.revolution()
			}
			assert.InDelta(t, float64(want), float64(gap), 2, "I=%d sector %d", il, i)
			assert.Equal(t, il*(i%17)%17, ev[i].Slot)
		}
	}
}

// The same block read twice in a row: the second ID pass is exactly one
// revolution (16.667 ms) after the first.
func TestRereadWaitsOneRevolution(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	var ids []sched.Time
	r.c.ObserveSectors(func(e SectorEvent) { ids = append(ids, e.IDAt) })
	for range 2 {
		st, _ := r.run(t, rw(OpRead, 0, 9, 1), nil)
		require.Equal(t, 0, st)
	}
	require.Len(t, ids, 2)
	assert.InDelta(t, float64(16_666_666_666), float64(ids[1]-ids[0]), 1)
}

// A 5.25 us host at 2:1 cannot drain a half before the next logical sector
// comes round: sectors are missed and the transfer is host-bound.
func TestSlowHostAtTwoToOneMissesSectors(t *testing.T) {
	ev := traceRead(t, 2, z80Burst, 0, 1, 16)
	missed := 0
	for _, e := range ev {
		if e.MissedByHalf {
			missed++
		}
	}
	assert.Greater(t, missed, 4)
	ev = traceRead(t, 3, z80Burst, 0, 1, 16)
	for _, e := range ev[1:] {
		assert.False(t, e.MissedByHalf, "3:1 keeps up with INIR: 3 slots > 512 x 5.25 us")
	}
}

// With a host that answers REQ at once, DATA IN runs at the ACB's rated
// 1.5 MB/s (667 ns a byte) [F ACB-OEM].
func TestSCSIRateWithFastHost(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.h.AckDelay, r.h.AckOff, r.h.PerByte = sched.Nanosecond, sched.Nanosecond, 0
	st, in := r.run(t, []byte{OpReadBuffer, 0, 0, 0, 0, 0}, nil)
	require.Equal(t, 0, st)
	require.Len(t, in, 1024)
	perByte := (r.h.LastData - r.h.FirstData) / 1023
	assert.InDelta(t, float64(667*sched.Nanosecond), float64(perByte), float64(20*sched.Nanosecond))
}

// WRITE mirrors READ: with a fast host the platter paces it, consecutive
// logical sectors are written I slots apart.
func TestSequentialWriteIsDiskPaced(t *testing.T) {
	sp := newSpindle(DefaultParams(), 17)
	for _, il := range []int{2, 3, 5} {
		r := newRig(t, rigOpts{interleave: il})
		r.h.PerByte, r.h.CmdByte = 700*sched.Nanosecond, sched.Microsecond
		var ev []SectorEvent
		r.c.ObserveSectors(func(e SectorEvent) { ev = append(ev, e) })
		st, _ := r.run(t, rw(OpWrite, 0, 0, 34), make([]byte, 34*512))
		require.Equal(t, 0, st)
		require.Len(t, ev, 34)
		for i := 1; i < len(ev); i++ {
			assert.True(t, ev[i].Write)
			want := sp.boundary(uint64(il)) - sp.boundary(0)
			assert.InDelta(t, float64(want), float64(ev[i].IDAt-ev[i-1].IDAt), 2, "I=%d sector %d", il, i)
		}
	}
}
