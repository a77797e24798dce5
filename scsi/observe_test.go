package scsi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// reqAckCounter counts the rising edges of REQ and of ACK it observes.
type reqAckCounter struct {
	prev     scsi.Line
	req, ack int
}

func (c *reqAckCounter) change(_ sched.Time, l scsi.Line, _ uint8) {
	rise := l &^ c.prev
	c.prev = l
	if rise&scsi.REQ != 0 {
		c.req++
	}
	if rise&scsi.ACK != 0 {
		c.ack++
	}
}

// TestObserverCountsOneHandshakePerByte: every byte in every phase is one
// REQ and one ACK edge, so the count equals the bytes the target moved; an
// observer removed halfway sees no more.
func TestObserverCountsOneHandshakePerByte(t *testing.T) {
	dev := &fakeDev{in: []byte{1, 2, 3, 4, 5, 6, 7, 8}, status: scsi.StatusGood}
	r := newRig(dev)
	var all, first reqAckCounter
	r.bus.Observe(all.change)
	remove := r.bus.Observe(first.change)
	res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 8, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	remove()
	res = r.ini.Run(0, []byte{0x08, 0, 0, 0, 8, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	moved := int(r.tgt.Stats.BytesIn + r.tgt.Stats.BytesOut)
	assert.Equal(t, 2*(6+8+2), moved, "CDB, data, status and message, twice")
	assert.Equal(t, moved, all.req)
	assert.Equal(t, moved, all.ack)
	assert.Equal(t, moved/2, first.req)
}

func TestBusStateRoundTrip(t *testing.T) {
	s := sched.New()
	bus := scsi.NewBus(s)
	a := bus.Attach("a", nil)
	b := bus.Attach("b", nil)
	a.Drive(scsi.BSY|scsi.IO, scsi.AllControl)
	b.DriveData(0x81, true)
	st := bus.State()

	s2 := sched.New()
	bus2 := scsi.NewBus(s2)
	a2 := bus2.Attach("a", nil)
	bus2.Attach("b", nil)
	require.NoError(t, bus2.SetState(st))
	assert.Equal(t, st, bus2.State())
	assert.Equal(t, bus.Lines(), bus2.Lines())
	assert.Equal(t, uint8(0x81), bus2.Data())
	a2.Drive(0, scsi.BSY)
	assert.Equal(t, scsi.IO|scsi.DBP, bus2.Lines(), "the restored contributions keep OR-ing")

	other := scsi.NewBus(s2)
	other.Attach("a", nil)
	assert.ErrorContains(t, other.SetState(st), "2 ports")
	other.Attach("c", nil)
	assert.ErrorContains(t, other.SetState(st), `port 1 is "b"`)
}

// TestObserveLinesFilters: an observer of SEL and BSY sees the selection
// and the connection's ends, not the handshakes.
func TestObserveLinesFilters(t *testing.T) {
	dev := &fakeDev{in: []byte{1, 2, 3, 4}, status: scsi.StatusGood}
	r := newRig(dev)
	var sel, data int
	remove := r.bus.ObserveLines(scsi.SEL|scsi.BSY, func(_ sched.Time, l scsi.Line, _ uint8) { sel++ })
	r.bus.ObserveLines(scsi.DataLines, func(sched.Time, scsi.Line, uint8) { data++ })
	res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 4, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, 4, sel, "SEL on, BSY on, SEL off, BSY off")
	assert.Greater(t, data, 4)
	remove()
	res = r.ini.Run(0, []byte{0x08, 0, 0, 0, 4, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, 4, sel)
}

// TestDriveAllIsDataThenLines: DriveAll makes the same changes as
// DriveData then Drive, the data first, and none when neither changes;
// the bus ORs the ports' contributions.
func TestDriveAllIsDataThenLines(t *testing.T) {
	bus := scsi.NewBus(sched.New())
	a := bus.Attach("a", nil)
	other := bus.Attach("b", nil)
	other.Drive(scsi.BSY, scsi.BSY)
	type change struct {
		l scsi.Line
		d uint8
	}
	var seen []change
	bus.Observe(func(_ sched.Time, l scsi.Line, d uint8) { seen = append(seen, change{l, d}) })
	a.DriveAll(scsi.ACK, scsi.AllControl, 0x41, true)
	a.DriveAll(scsi.ACK, scsi.AllControl, 0x41, true)
	a.DriveAll(0, scsi.ACK, 0x41, true)
	a.DriveAll(0, scsi.AllControl, 0x99, false)
	assert.Equal(t, []change{
		{scsi.BSY | scsi.DBP, 0x41}, {scsi.BSY | scsi.DBP | scsi.ACK, 0x41},
		{scsi.BSY | scsi.DBP, 0x41},
		{scsi.BSY, 0},
	}, seen)
	assert.Equal(t, uint64(5), bus.Changes())
}
