package scsidev

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

type params struct{ N int }

func TestParamsOf(t *testing.T) {
	def := params{N: 1}
	var nilp *params
	tests := []struct {
		name string
		in   any
		want params
		err  string
	}{
		{"nil: defaults", nil, def, ""},
		{"value", params{N: 2}, params{N: 2}, ""},
		{"pointer", &params{N: 3}, params{N: 3}, ""},
		{"nil pointer: defaults", nilp, def, ""},
		{"wrong type", 4, def, "SCSI ID 5 (x): parameters of type int, want scsidev.params"},
	}
	for _, tt := range tests {
		got, err := ParamsOf(Spec{ID: 5, Type: "x", Params: tt.in}, def)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// echo is a minimal model on Command: opcode 15h takes CDB[4] bytes of DATA
// OUT, opcode 03h sends back what it took last (an empty run ends at once).
type echo struct {
	t    *scsi.Target
	cmd  Command
	last []byte
	ev   sched.Event
	seen []Step
}

func (e *echo) Command(t *scsi.Target, cdb []byte) {
	e.t = t
	e.cmd.Start(t, cdb)
	switch cdb[0] {
	case 0x15:
		if !e.cmd.Receive(t, int(cdb[4]), 7) {
			t.Complete(scsi.StatusGood)
		}
	case 0x03:
		if !e.cmd.Send(t, e.last) {
			t.Complete(scsi.StatusGood)
		}
	}
}

func (e *echo) Reset() {}

func (e *echo) Continue(t *scsi.Target, _ sched.Time, k scsi.Cont, b byte) {
	st := e.cmd.Continue(t, k, b)
	e.seen = append(e.seen, st)
	switch st {
	case Sent:
		t.Complete(scsi.StatusGood)
	case Received:
		if e.cmd.Then != 7 {
			panic("Then lost")
		}
		e.last = e.cmd.Clone().In
		t.Complete(scsi.StatusGood)
	}
}

func TestCommandByteRuns(t *testing.T) {
	s := sched.New()
	bus := scsi.NewBus(s)
	dev := &echo{}
	scsi.NewTarget(bus, 2, "echo", dev, scsi.DefaultTiming())
	in := scsitest.New(bus, 7)
	r := in.Run(2, []byte{0x03, 0, 0, 0, 0, 0}, nil, false, 0, sched.Second)
	require.True(t, r.Done)
	assert.Empty(t, r.DataIn, "nothing taken yet: an empty run sends nothing")

	r = in.Run(2, []byte{0x15, 0, 0, 0, 3, 0}, []byte{1, 2, 3}, false, 0, sched.Second)
	require.True(t, r.Done)
	assert.Equal(t, 3, r.DataOut)
	assert.Equal(t, []byte{1, 2, 3}, dev.last)
	assert.Equal(t, []Step{Moving, Moving, Received}, dev.seen)

	dev.seen = nil
	r = in.Run(2, []byte{0x03, 0, 0, 0, 0, 0}, nil, false, 0, sched.Second)
	require.True(t, r.Done)
	assert.Equal(t, []byte{1, 2, 3}, r.DataIn)
	assert.Equal(t, []Step{Moving, Moving, Sent}, dev.seen)
	assert.Equal(t, ModelOp, dev.cmd.Continue(dev.t, scsi.Cont{Op: OpModel}, 0))
}

func TestEventsGroup(t *testing.T) {
	s := sched.New()
	var a, b sched.Event
	a.Init("dev a", func(sched.Time) {})
	b.Init("dev b", func(sched.Time) {})
	g := Events{&a, &b}
	s.Schedule(&b, 10)
	assert.Equal(t, []string{"dev b"}, g.Pending())
	g.Cancel(s)
	assert.Empty(t, g.Pending())
	g.Cancel(nil) // a model not yet attached has no scheduler
}

func TestSenseReply(t *testing.T) {
	ext := make([]byte, 18)
	for i := range ext {
		ext[i] = byte(i)
	}
	for _, tc := range []struct {
		sense []byte
		alloc byte
		n     int
	}{
		{ext, 0, 4}, {ext, 8, 8}, {ext, 18, 18}, {ext, 255, 18},
		{ext[:4], 0, 4}, {ext[:4], 2, 2}, {ext[:4], 30, 4},
	} {
		assert.Equal(t, tc.sense[:tc.n], SenseReply(tc.sense, tc.alloc), "%d bytes, allocation %d", len(tc.sense), tc.alloc)
	}
}
