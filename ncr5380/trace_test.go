package ncr5380_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// TestDMAReadTraceGolden pins the edge order and the chip's delays of a
// selection, a CDB by PIO, a polled DMA receive of 3 bytes and the status
// phase, as the bus tracer prints them.
func TestDMAReadTraceGolden(t *testing.T) {
	cdbIndex = map[*rig]int{}
	d := &dev{in: []byte{0x11, 0x22, 0x33}}
	r := newRig(t, d)
	var buf bytes.Buffer
	tr := scsi.NewTextTrace(&buf)
	r.bus.Observe(tr.Change)
	r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
	r.pollDMA(len(d.in))
	r.h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRIRQ != 0 }, "phase mismatch")
	r.finishPIO()
	require.NoError(t, tr.Err())
	golden.Equal(t, "dma_read.trace", buf.Bytes())
}

// BenchmarkDMARead8K moves 8192 bytes by INIR-paced DACK reads from a fast
// target: the emulator's cost per SCSI byte.
func BenchmarkDMARead8K(b *testing.B) {
	in := make([]byte, 8192)
	for i := 0; i < b.N; i++ {
		cdbIndex = map[*rig]int{}
		d := &dev{in: in}
		r := newRig(&testing.T{}, d)
		r.startDMA([]byte{0x08, 0, 0, 0, 16, 0}, 0)
		h := r.h
		h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
		h.step = 21 * sched.TState
		for range in {
			h.dmaRd()
		}
		if r.c.Stats.StaleReads != 0 {
			b.Fatalf("stale reads: %d", r.c.Stats.StaleReads)
		}
	}
	b.SetBytes(int64(len(in)))
}
