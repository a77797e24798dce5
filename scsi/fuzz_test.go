package scsi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// cdbDev moves a number of bytes chosen from the CDB, so random CDBs give
// random data phases.
type cdbDev struct{ resets int }

func (d *cdbDev) Command(t *scsi.Target, cdb []byte) {
	nIn, nOut := int(cdb[len(cdb)-1]&7), int(cdb[0]&3)
	var out func(i int)
	out = func(i int) {
		if i == nOut {
			t.Complete(cdb[1] & 0x0A)
			return
		}
		t.ReceiveByte(func(sched.Time, byte) { out(i + 1) })
	}
	var in func(i int)
	in = func(i int) {
		if i == nIn {
			out(0)
			return
		}
		t.SendByte(cdb[i%len(cdb)], func(sched.Time) { in(i + 1) })
	}
	in(0)
}

func (d *cdbDev) Reset() { d.resets++ }

// commands is how many CDBs the last fuzz run delivered (for
// TestFuzzSeedReachesCommand).
var commands uint64

// validSeed selects target 0 and answers every REQ: a full command.
var validSeed = func() []byte {
	// data 0x81 on, SEL on, wait 3 us, SEL and data off.
	p := []byte{0, 0x04, 0x81, 0, 0x02, 0, 30, 0x06, 0}
	for i := 0; i < 40; i++ {
		p = append(p, 120, 0x20, byte(i))
	}
	return p
}()

// FuzzTargetBus drives the target with a fake initiator that toggles lines
// and data at random times. Each 3 input bytes are one step: a delay, a set
// of lines to toggle, a data byte. The engine must never panic and must be
// back at bus free after RST.
func FuzzTargetBus(f *testing.F) {
	f.Add([]byte{1, 0x02, 0x01, 5, 0x02, 0x00, 9, 0x40, 0x08})
	f.Add([]byte{0, 0x82, 0x81, 200, 0x02, 0x00, 30, 0x40, 0x00, 30, 0x40, 0x00})
	f.Add([]byte{})
	f.Add(validSeed)
	f.Fuzz(runFuzzBody)
}

func runFuzzBody(t *testing.T, prog []byte) {
	{
		s := sched.New()
		bus := scsi.NewBus(s)
		dev := &cdbDev{}
		tgt := scsi.NewTarget(bus, 0, "fuzz target", dev, scsi.DefaultTiming())
		ini := bus.Attach("fuzz initiator", nil)
		var lines scsi.Line
		for i := 0; i+2 < len(prog); i += 3 {
			s.Advance(s.Now() + sched.Time(prog[i])*100*sched.Nanosecond)
			if prog[i+1]&0x20 != 0 { // the REQ bit, never driven by an initiator
				// A well-behaved handshake, so the fuzzer reaches the
				// command and data phases: answer REQ with the byte and
				// ACK, wait for REQ to drop, release ACK.
				if bus.Lines()&scsi.REQ != 0 {
					ini.DriveData(prog[i+2], bus.Lines()&scsi.IO == 0)
					lines |= scsi.ACK
					ini.Drive(lines, scsi.ACK)
					for n := 0; n < 100 && bus.Lines()&scsi.REQ != 0; n++ {
						s.Advance(s.Now() + 100*sched.Nanosecond)
					}
					lines &^= scsi.ACK
					ini.Drive(lines, scsi.ACK)
				}
				continue
			}
			// Toggle among SEL, ATN, ACK, BSY and the data drive; RST is
			// tested at the end.
			tog := scsi.Line(prog[i+1]) & (scsi.SEL | scsi.ATN | scsi.ACK | scsi.BSY | scsi.CD)
			if tog&scsi.CD != 0 { // reuse the C/D bit as "drive data"
				tog &^= scsi.CD
				_, on := ini.DrivenData()
				ini.DriveData(prog[i+2], !on)
			}
			lines ^= tog
			ini.Drive(lines, scsi.SEL|scsi.ATN|scsi.ACK|scsi.BSY)
		}
		commands = tgt.Stats.Commands
		s.Advance(s.Now() + sched.Millisecond)

		ini.Drive(scsi.RST, scsi.AllControl)
		require.False(t, tgt.Connected())
		require.Zero(t, tgt.Port().Lines())
		s.Advance(s.Now() + scsi.ResetHoldTime)
		ini.Release()
		s.Advance(s.Now() + sched.Millisecond)
		require.Equal(t, scsi.BusFree, bus.Phase())
		require.Zero(t, bus.Lines())
		require.False(t, tgt.Busy())
	}
}

// The fuzz harness can reach Device.Command: a handshaking seed does.
func TestFuzzSeedReachesCommand(t *testing.T) {
	commands = 0
	runFuzzBody(t, validSeed)
	require.Equal(t, uint64(1), commands)
}
