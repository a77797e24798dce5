package ncr5380_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// FuzzChip feeds random register accesses, DACK accesses and time steps to
// a 5380 wired to a target whose data phases depend on the CDB. Nothing
// may panic, and an ICR reset must always bring the bus back to free.
func FuzzChip(f *testing.F) {
	// Selection then a CDB by PIO-ish writes, then DMA receive.
	f.Add([]byte{0, 0, 0x81, 0, 1, 0x01, 0, 1, 0x05, 4, 20, 0, 1, 0x01, 0, 1, 0x00, 0, 3, 2, 0, 1, 0x11, 4, 50, 0, 2, 0x02, 0, 7, 0, 2, 2, 2, 2})
	f.Add([]byte{0, 2, 0x01, 4, 10, 1, 1, 5, 0, 0, 1, 0x80})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, prog []byte) {
		s := sched.New()
		bus := scsi.NewBus(s)
		c := ncr5380.New(s, bus, "5380")
		d := &dev{in: []byte{1, 2, 3, 4}, outN: 3}
		tgt := scsi.NewTarget(bus, 0, "target0", d, scsi.DefaultTiming())
		now := sched.Time(0)
		step := func(dt sched.Time) { now += dt; s.Advance(now) }
		for i := 0; i < len(prog); {
			op := prog[i] % 6
			i++
			arg := func() uint8 {
				if i < len(prog) {
					i++
					return prog[i-1]
				}
				return 0
			}
			switch op {
			case 0:
				reg := int(arg() & 7)
				c.Write(reg, arg())
			case 1:
				c.Read(int(arg() & 7))
			case 2:
				c.DMARead()
			case 3:
				c.DMAWrite(arg())
			case 4:
				step(sched.Time(arg()) * 250 * sched.Nanosecond)
			case 5:
				c.EOP()
			}
			step(sched.TState)
		}
		step(sched.Millisecond)
		c.Write(ncr5380.RegICR, ncr5380.ICRRST)
		require.False(t, tgt.Connected())
		step(scsi.ResetHoldTime)
		c.Write(ncr5380.RegICR, 0)
		c.Read(ncr5380.RegReset)
		step(sched.Millisecond)
		require.Equal(t, scsi.BusFree, bus.Phase(), "lines %v chip %v target %v", bus.Lines(), c.Port().Lines(), tgt.Port().Lines())
		require.Zero(t, bus.Lines())
		require.False(t, c.IRQ())
		require.False(t, c.DRQ())
	})
}
