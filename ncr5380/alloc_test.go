package ncr5380_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// streamDev sends in as DATA IN with one callback bound once, as a device
// that cares about speed does: no closure per byte.
type streamDev struct {
	t    *scsi.Target
	in   []byte
	i    int
	next func(sched.Time)
}

func newStreamDev(in []byte) *streamDev {
	d := &streamDev{in: in}
	d.next = d.sendNext
	return d
}

func (d *streamDev) Command(t *scsi.Target, _ []byte) { d.t = t; d.sendNext(0) }
func (d *streamDev) Reset()                           {}

func (d *streamDev) sendNext(sched.Time) {
	if d.i == len(d.in) {
		d.t.Complete(scsi.StatusGood)
		return
	}
	b := d.in[d.i]
	d.i++
	d.t.SendByte(b, d.next)
}

// TestDMAByteAllocatesNothing guards the cost of a SCSI byte: a DMA receive
// through the chip, the bus and the target engine allocates nothing per
// byte (every edge is an event its owner reschedules), so a long transfer
// does not feed the garbage collector.
func TestDMAByteAllocatesNothing(t *testing.T) {
	cdbIndex = map[*rig]int{}
	const chunk = 4096
	d := newStreamDev(make([]byte, 3*chunk))
	r := newRig(t, nil)
	r.tgt = scsi.NewTarget(r.bus, 0, "target0", d, scsi.DefaultTiming())
	r.startDMA([]byte{0x08, 0, 0, 0, 24, 0}, 0)
	h := r.h
	h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
	h.step = 21 * sched.TState // INIR
	allocs := testing.AllocsPerRun(1, func() {
		for range chunk {
			h.dmaRd()
		}
	})
	assert.Zero(t, r.c.Stats.StaleReads)
	assert.Less(t, allocs, 8.0, "allocations per %d DMA bytes", chunk)
}
