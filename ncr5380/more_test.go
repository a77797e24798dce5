package ncr5380_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The Linux-style sequence (docs/HARDWARE.md 3.2): arbitrate, win, select with
// ATN, IDENTIFY, command, status, message.
func TestArbitrateSelectIdentify(t *testing.T) {
	d := &dev{in: []byte{9, 8, 7}}
	r := newRig(t, d)
	h := r.h
	h.step = 250 * sched.Nanosecond
	h.wr(ncr5380.RegData, 0x80) // own ID 7
	h.wr(ncr5380.RegMR, ncr5380.MRArbitrate)
	h.until(ncr5380.RegICR, func(v uint8) bool { return v&ncr5380.ICRAIP != 0 }, "AIP")
	h.wait(scsi.ArbitrationDelay)
	icr := h.rd(ncr5380.RegICR)
	require.Zero(t, icr&ncr5380.ICRLA, "single initiator never loses")
	require.Zero(t, h.rd(ncr5380.RegData)&0x7F, "no higher ID on the bus")
	h.wr(ncr5380.RegICR, ncr5380.ICRBSY|ncr5380.ICRSEL|ncr5380.ICRATN)
	h.wait(scsi.BusClearDelay + scsi.BusSettleDelay)
	h.wr(ncr5380.RegData, 0x81)
	h.wr(ncr5380.RegICR, ncr5380.ICRBSY|ncr5380.ICRSEL|ncr5380.ICRATN|ncr5380.ICRDataBus)
	h.wr(ncr5380.RegMR, 0)
	assert.Equal(t, scsi.BSY|scsi.SEL|scsi.ATN, r.c.Port().Lines(), "ICR holds BSY after arbitration ends")
	h.wr(ncr5380.RegICR, ncr5380.ICRSEL|ncr5380.ICRATN|ncr5380.ICRDataBus)
	h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBBSY != 0 }, "target BSY")
	h.wr(ncr5380.RegICR, ncr5380.ICRATN)
	h.step = sched.Microsecond

	ph, _ := r.pioByte(scsi.MsgIdentify | 2)
	assert.Equal(t, scsi.MsgOut, ph)
	for _, b := range []byte{0x08, 0, 0, 0, 1, 0} {
		ph, _ = r.pioByte(b)
		assert.Equal(t, scsi.Command, ph)
	}
	var got []byte
	for range d.in {
		_, b := r.pioByte(0)
		got = append(got, b)
	}
	assert.Equal(t, d.in, got)
	_, st := r.pioByte(0)
	_, msg := r.pioByte(0)
	assert.Equal(t, byte(scsi.StatusGood), st)
	assert.Equal(t, byte(scsi.MsgCommandComplete), msg)
	assert.True(t, r.tgt.Identified())
	assert.Equal(t, 2, r.tgt.LUN(d.cdbs[0]))
}

// A selection of an ID enabled in register 4 raises IRQ (reselection).
func TestSelectEnableIRQ(t *testing.T) {
	r := newRig(t, nil)
	other := r.bus.Attach("target reselecting", nil)
	h := r.h
	h.wr(ncr5380.RegSelEn, 0x80)
	other.DriveData(0x01, true)
	other.Drive(scsi.SEL, scsi.SEL)
	assert.False(t, r.c.IRQ(), "ID 0 is not enabled")
	other.Release()
	other.DriveData(0x81, true)
	other.Drive(scsi.SEL|scsi.IO, scsi.SEL|scsi.IO)
	assert.True(t, r.c.IRQ())
	h.rd(ncr5380.RegReset)
	assert.False(t, r.c.IRQ())
}

// The REQ and ACK edges a VCD records for a DMA transfer through the chip
// equal the bytes moved.
func TestVCDEdgesThroughChip(t *testing.T) {
	cdbIndex = map[*rig]int{}
	in := []byte("0123456789abcdef")
	d := &dev{in: in}
	r := newRig(t, d)
	var buf bytes.Buffer
	v := scsi.NewVCD(&buf)
	r.bus.Observe(v.Change)
	r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
	r.pollDMA(len(in))
	r.h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRIRQ != 0 }, "phase mismatch")
	r.finishPIO()
	require.NoError(t, v.End(r.s.Now()))
	moved := int(r.tgt.Stats.BytesIn + r.tgt.Stats.BytesOut)
	assert.Equal(t, 6+len(in)+2, moved)
	assert.Equal(t, moved, strings.Count(buf.String(), "\n1"+vcdID(t, buf.String(), "REQ")+"\n"))
	assert.Equal(t, moved, strings.Count(buf.String(), "\n1"+vcdID(t, buf.String(), "ACK")+"\n"))
}

func vcdID(t *testing.T, vcd, name string) string {
	t.Helper()
	for _, line := range strings.Split(vcd, "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && f[0] == "$var" && f[4] == name {
			return f[3]
		}
	}
	t.Fatalf("no wire %s", name)
	return ""
}
