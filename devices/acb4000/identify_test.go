package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

// Through the shared test initiator, with and without IDENTIFY: the LUN of
// an IDENTIFY message wins over CDB byte 1, and the phase sequence of a
// READ is COMMAND, DATA IN, STATUS, MESSAGE IN with no disconnection.
func TestWithSharedInitiator(t *testing.T) {
	r := newRig(t, rigOpts{})
	in := scsitest.New(r.bus, 6)
	res := in.Run(0, rw(OpRead, 0, 4, 2), nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Len(t, res.DataIn, 1024)
	assert.Equal(t, []scsi.Phase{scsi.Command, scsi.DataIn, scsi.Status, scsi.MsgIn}, res.Phases)

	// IDENTIFY LUN 1 (no drive) overrides the CDB's LUN 0.
	res = in.Run(0, rw(OpTestUnitReady, 0, 0, 0), nil, true, 1, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, byte(scsi.StatusCheckCondition), res.Status)
	assert.Equal(t, []scsi.Phase{scsi.MsgOut, scsi.Command, scsi.Status, scsi.MsgIn}, res.Phases)
	res = in.Run(0, []byte{OpRequestSense, 0, 0, 0, 4, 0}, nil, false, 0, sched.Second)
	assert.Equal(t, []byte{SenseNotReady, 1 << 5, 0, 0}, res.DataIn)

	// A WRITE's data goes out and comes back.
	data := make([]byte, 512)
	for i := range data {
		data[i] = byte(i * 3)
	}
	res = in.Run(0, rw(OpWrite, 0, 40, 1), data, true, 0, sched.Second)
	assert.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Equal(t, 512, res.DataOut)
	res = in.Run(0, rw(OpRead, 0, 40, 1), nil, false, 0, sched.Second)
	assert.Equal(t, data, res.DataIn)
}
