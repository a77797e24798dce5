package scsi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// An idle target hears the data lines only while SEL is asserted, yet
// answers a selection whatever the order in which the initiator puts its
// IDs on the data lines and asserts SEL, and a change of the IDs while SEL
// is already asserted.
func TestIdleTargetSelectionOrders(t *testing.T) {
	const own, other = 1 << 0, 1 << 3
	for _, tc := range []struct {
		name  string
		drive func(p *scsi.Port)
		want  bool
	}{
		{"IDs then SEL", func(p *scsi.Port) {
			p.DriveData(0x80|own, true)
			p.Drive(scsi.SEL, scsi.SEL)
		}, true},
		{"SEL then IDs", func(p *scsi.Port) {
			p.Drive(scsi.SEL, scsi.SEL)
			p.DriveData(0x80|own, true)
		}, true},
		{"another target's ID, then ours under SEL", func(p *scsi.Port) {
			p.DriveData(0x80|other, true)
			p.Drive(scsi.SEL, scsi.SEL)
			p.DriveData(0x80|own, true)
		}, true},
		{"our ID without SEL", func(p *scsi.Port) {
			p.DriveData(0x80|other, true)
			p.DriveData(0x80|own, true)
		}, false},
		{"our ID only after SEL fell", func(p *scsi.Port) {
			p.DriveData(0x80|other, true)
			p.Drive(scsi.SEL, scsi.SEL)
			p.Drive(0, scsi.SEL)
			p.DriveData(0x80|own, true)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sched.New()
			bus := scsi.NewBus(s)
			tgt := scsi.NewTarget(bus, 0, "disk", &fakeDev{}, scsi.DefaultTiming())
			ini := bus.Attach("initiator", nil)
			tc.drive(ini)
			s.Advance(s.Now() + sched.Millisecond)
			assert.Equal(t, tc.want, tgt.Port().Lines()&scsi.BSY != 0, "BSY from the target")
			assert.Equal(t, tc.want, tgt.Connected())
		})
	}
}
