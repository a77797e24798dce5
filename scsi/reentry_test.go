package scsi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// syncInitiator answers every edge inside its change callback, with no
// delay at all: ACK as soon as REQ rises, ACK off as soon as REQ falls, SEL
// off as soon as BSY rises, and a new selection as soon as the bus goes
// free. Real hosts are slower, but a 5380 model or a test harness may react
// synchronously, and the target engine must not care.
type syncInitiator struct {
	bus   *scsi.Bus
	port  *scsi.Port
	id    int
	cdb   []byte
	ci    int
	runs  int // commands still to start
	sel   bool
	done  int
	data  []byte
	stat  []byte
	msgs  []byte
	phase []scsi.Phase
}

func newSyncInitiator(bus *scsi.Bus, id int, cdb []byte, runs int) *syncInitiator {
	in := &syncInitiator{bus: bus, id: id, cdb: cdb, runs: runs}
	in.port = bus.Attach("sync initiator", in.onChange)
	return in
}

func (in *syncInitiator) selectTarget(target int) {
	in.runs--
	in.sel, in.ci = true, 0
	in.port.DriveData(1<<in.id|1<<target, true)
	in.port.Drive(scsi.SEL, scsi.SEL)
}

func (in *syncInitiator) onChange(sched.Time) {
	l := in.bus.Lines()
	switch {
	case in.sel:
		if l&scsi.BSY != 0 {
			in.sel = false
			in.port.Release()
		}
	case l&(scsi.BSY|scsi.SEL) == 0:
		if in.port.Lines()&scsi.ACK != 0 {
			in.port.Release()
		}
		if in.ci > 0 { // a command ran to bus free
			in.done++
			in.ci = 0
			if in.runs > 0 {
				in.selectTarget(0)
			}
		}
	case l&scsi.REQ != 0 && in.port.Lines()&scsi.ACK == 0:
		p := scsi.InfoPhase(l)
		if len(in.phase) == 0 || in.phase[len(in.phase)-1] != p {
			in.phase = append(in.phase, p)
		}
		switch p {
		case scsi.Command:
			in.port.DriveData(in.cdb[in.ci], true)
			in.ci++
		case scsi.DataIn:
			in.data = append(in.data, in.bus.Data())
		case scsi.Status:
			in.stat = append(in.stat, in.bus.Data())
		case scsi.MsgIn:
			in.msgs = append(in.msgs, in.bus.Data())
		case scsi.DataOut:
			in.port.DriveData(0x5A, true)
		}
		in.port.Drive(scsi.ACK, scsi.ACK)
	case l&scsi.REQ == 0 && in.port.Lines()&scsi.ACK != 0:
		in.port.Drive(0, scsi.ACK)
		in.port.DriveData(0, false)
	}
}

// An initiator that handshakes inside its callbacks (ACK off while the
// target is still releasing REQ, a new selection while the target is still
// releasing BSY) must see the same commands as a slow one.
func TestTargetSynchronousInitiator(t *testing.T) {
	tests := []struct {
		name string
		dev  *fakeDev
		runs int
	}{
		{"read", &fakeDev{in: []byte{1, 2, 3, 4}}, 1},
		{"write", &fakeDev{outN: 3}, 1},
		{"paced read", &fakeDev{in: []byte{9, 8, 7}, pace: sched.Microsecond}, 1},
		{"back to back", &fakeDev{in: []byte{0xAA}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(tc.dev)
			// The rig's own initiator stays idle on the bus.
			in := newSyncInitiator(r.bus, 6, []byte{0x08, 0, 0, 0, 1, 0}, tc.runs)
			in.selectTarget(0)
			r.s.Advance(r.s.Now() + 10*sched.Millisecond)
			require.Equal(t, tc.runs, in.done, "commands run to bus free")
			want := []byte(nil)
			for range tc.runs {
				want = append(want, tc.dev.in...)
			}
			assert.Equal(t, want, in.data)
			assert.Len(t, in.stat, tc.runs)
			assert.Len(t, in.msgs, tc.runs)
			assert.Equal(t, make([]byte, tc.runs), in.msgs, "COMMAND COMPLETE")
			if tc.dev.outN > 0 {
				assert.Equal(t, []byte{0x5A, 0x5A, 0x5A}, tc.dev.got)
			}
			assert.Equal(t, uint64(tc.runs), r.tgt.Stats.Commands)
			assert.Equal(t, uint64(tc.runs), r.tgt.Stats.Selections)
			assert.Equal(t, scsi.BusFree, r.bus.Phase())
			assert.False(t, r.tgt.Connected())
			assert.False(t, r.tgt.Busy())
		})
	}
}

// An initiator that pulls RST inside its callback, at the REQ of a data
// byte, resets the target there; once RST is released the target serves the
// next command from the same synchronous initiator.
func TestTargetResetInsideCallback(t *testing.T) {
	dev := &fakeDev{in: []byte{1, 2, 3, 4}}
	r := newRig(dev)
	in := newSyncInitiator(r.bus, 6, []byte{0x08, 0, 0, 0, 1, 0}, 1)
	rst := r.bus.Attach("reset on REQ", nil)
	fired := false
	r.bus.Observe(func(_ sched.Time, l scsi.Line, _ uint8) {
		if !fired && l&scsi.REQ != 0 && scsi.InfoPhase(l) == scsi.DataIn && len(in.data) == 2 {
			fired = true
			rst.Drive(scsi.RST, scsi.RST) // from inside the REQ edge's delivery
		}
	})
	in.selectTarget(0)
	r.s.Advance(r.s.Now() + sched.Millisecond)
	require.True(t, fired)
	assert.Equal(t, 1, dev.resets)
	assert.False(t, r.tgt.Connected())
	assert.False(t, r.tgt.Busy())
	assert.Zero(t, r.tgt.Port().Lines(), "the target let go of the bus")

	rst.Drive(0, scsi.RST)
	in.port.Release()
	in.data, in.ci, in.runs, in.done = nil, 0, 1, 0
	in.selectTarget(0)
	r.s.Advance(r.s.Now() + 10*sched.Millisecond)
	assert.Equal(t, 1, in.done)
	assert.Equal(t, dev.in, in.data)
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
}
