package scsi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A port that listens to some lines is told of their changes only; the
// bus and its observers see every change all the same.
func TestPortListen(t *testing.T) {
	bus := scsi.NewBus(sched.New())
	var told int
	a := bus.Attach("a", func(sched.Time) { told++ })
	b := bus.Attach("b", nil)
	var seen int
	bus.Observe(func(sched.Time, scsi.Line, uint8) { seen++ })

	a.Listen(scsi.ACK | scsi.DataLines)
	b.Drive(scsi.REQ|scsi.IO, scsi.REQ|scsi.IO)
	assert.Zero(t, told, "REQ and I/O are not listened to")
	b.Drive(scsi.ACK, scsi.ACK)
	assert.Equal(t, 1, told)
	b.DriveData(0x5A, true)
	assert.Equal(t, 2, told, "the data byte")
	a.Listen(scsi.ACK)
	b.DriveData(0x01, true)
	assert.Equal(t, 2, told, "DBP changed with the byte: neither is listened to")
	b.Drive(0, scsi.ACK)
	assert.Equal(t, 3, told)
	assert.Equal(t, 5, seen, "the observer saw every change")
	assert.Equal(t, scsi.REQ|scsi.IO, bus.Lines()&^scsi.DBP)
}
