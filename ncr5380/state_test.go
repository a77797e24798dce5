package ncr5380_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// TestPeekAndStateChangeNothing: looking at register 7 and at the whole
// state leaves the interrupt pending; only a real read clears it.
func TestPeekAndStateChangeNothing(t *testing.T) {
	r := newRig(t, nil)
	h := r.h
	h.wr(ncr5380.RegICR, ncr5380.ICRRST)
	h.wr(ncr5380.RegICR, 0)
	require.True(t, r.c.IRQ(), "bus reset raises IRQ")
	before := r.c.State()
	for reg := range 9 {
		r.c.Peek(reg)
	}
	assert.Equal(t, before, r.c.State())
	assert.True(t, r.c.IRQ())
	assert.NotZero(t, r.c.Peek(ncr5380.RegBSR)&ncr5380.BSRIRQ)
	h.rd(ncr5380.RegReset)
	assert.False(t, r.c.IRQ(), "a read of register 7 is an access and clears IRQ")
	assert.Zero(t, r.c.Peek(ncr5380.RegBSR)&ncr5380.BSRIRQ)
}

func TestObserversSeeEveryAccessAfterItApplies(t *testing.T) {
	r := newRig(t, &dev{in: []byte{0x5a}})
	var a, b []ncr5380.Access
	removeA := r.c.Observe(func(_ sched.Time, x ncr5380.Access) { a = append(a, x) })
	r.c.Observe(func(_ sched.Time, x ncr5380.Access) { b = append(b, x) })
	r.h.wr(ncr5380.RegTCR, 3)
	r.h.rd(ncr5380.RegTCR)
	r.h.dmaRd()
	removeA()
	r.h.wr(ncr5380.RegData, 0x42)
	want := []ncr5380.Access{{Reg: 3, Write: true, V: 3}, {Reg: 3, V: 3}, {Reg: ncr5380.RegDACK}}
	assert.Equal(t, want, a)
	assert.Equal(t, append(want, ncr5380.Access{Reg: 0, Write: true, V: 0x42}), b)
}

// TestSetStateRoundTrip: the state of a chip halfway through a DMA receive
// (byte latched, DRQ on) loads into a fresh chip and reads back the same; a
// pending event that is not the chip's own is refused.
func TestSetStateRoundTrip(t *testing.T) {
	st := r0DMAState(t)
	assert.Equal(t, "receive: DRQ", st.DMAStep())
	fresh := newRig(t, nil)
	require.NoError(t, fresh.c.SetState(st))
	assert.Equal(t, st, fresh.c.State())
	bad := st
	bad.DMAEvent = "someone else's event"
	assert.ErrorContains(t, fresh.c.SetState(bad), "not one of the chip's")
}

func r0DMAState(t *testing.T) ncr5380.State {
	r := newRig(t, &dev{in: []byte{1, 2, 3, 4}})
	r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
	r.h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
	return r.c.State()
}

// kdev sends in as DATA IN through saveable continuations, then completes.
type kdev struct {
	in []byte
}

func (d *kdev) Command(t *scsi.Target, _ []byte) { d.Continue(t, 0, scsi.Cont{Arg: 0}, 0) }
func (d *kdev) Reset()                           {}
func (d *kdev) Continue(t *scsi.Target, _ sched.Time, k scsi.Cont, _ byte) {
	if k.Arg == len(d.in) {
		t.Complete(scsi.StatusGood)
		return
	}
	t.SendK(scsi.DataIn, d.in[k.Arg], scsi.Cont{Arg: k.Arg + 1})
}

type saved struct {
	s    sched.State
	bus  scsi.BusState
	chip ncr5380.State
	tgt  scsi.TargetState
	now  sched.Time
}

// TestSaveMidDMARestoresExactly stops a DMA receive halfway, saves the
// scheduler, the bus, the chip and the target engine, restores them into a
// second, freshly built rig and finishes both: the same bytes at the same
// times, the same final state.
func TestSaveMidDMARestoresExactly(t *testing.T) {
	data := []byte("the quick brown fox jumps over the lazy dog")
	build := func() *rig {
		r := newRig(t, nil)
		r.tgt = scsi.NewTarget(r.bus, 0, "target0", &kdev{in: data}, scsi.DefaultTiming())
		return r
	}
	finish := func(r *rig, n int) (got []byte, times []sched.Time) {
		h := r.h
		for range n {
			h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
			got = append(got, h.dmaRd())
			times = append(times, h.now)
		}
		h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBREQ != 0 }, "status REQ")
		return got, times
	}
	a := build()
	a.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
	first, _ := finish(a, 17)
	var sv saved
	var err error
	sv.s, err = a.s.State()
	require.NoError(t, err)
	sv.bus, sv.chip, sv.now = a.bus.State(), a.c.State(), a.h.now
	sv.tgt, err = a.tgt.State()
	require.NoError(t, err)
	require.NotNil(t, sv.tgt.Transfer, "saved with a byte in flight")

	b := build()
	require.NoError(t, b.s.SetState(sv.s))
	require.NoError(t, b.bus.SetState(sv.bus))
	require.NoError(t, b.c.SetState(sv.chip))
	require.NoError(t, b.tgt.SetState(sv.tgt))
	b.h.now = sv.now

	restA, timesA := finish(a, len(data)-17)
	restB, timesB := finish(b, len(data)-17)
	assert.Equal(t, data, append(first, restA...))
	assert.Equal(t, restA, restB)
	assert.Equal(t, timesA, timesB)
	assert.Equal(t, a.c.State(), b.c.State())
	assert.Equal(t, a.bus.State(), b.bus.State())
	stA, _ := a.tgt.State()
	stB, _ := b.tgt.State()
	assert.Equal(t, stA, stB)
}

func TestObserveRegsFilters(t *testing.T) {
	r := newRig(t, nil)
	var got []ncr5380.Access
	remove := r.c.ObserveRegs(1<<ncr5380.RegReset|1<<ncr5380.RegDACK, func(_ sched.Time, a ncr5380.Access) { got = append(got, a) })
	r.h.wr(ncr5380.RegTCR, 3)
	r.h.rd(ncr5380.RegReset)
	r.h.dmaRd()
	remove()
	r.h.rd(ncr5380.RegReset)
	assert.Equal(t, []ncr5380.Access{{Reg: ncr5380.RegReset}, {Reg: ncr5380.RegDACK}}, got)
}
