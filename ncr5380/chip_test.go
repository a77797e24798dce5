package ncr5380_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// dev is a fake SCSI device: it sends in, takes outN bytes, then completes.
// pace delays every data byte (a slow platter or tape).
type dev struct {
	in     []byte
	outN   int
	status byte
	pace   sched.Time

	cdbs   [][]byte
	got    []byte
	resets int
	ev     *sched.Event
}

func (d *dev) Command(t *scsi.Target, cdb []byte) {
	d.cdbs = append(d.cdbs, append([]byte(nil), cdb...))
	d.send(t, 0)
}

func (d *dev) later(t *scsi.Target, fn func()) {
	if d.pace == 0 {
		fn()
		return
	}
	d.ev = t.Sched().After(d.pace, "dev pace", func(sched.Time) { d.ev = nil; fn() })
}

func (d *dev) send(t *scsi.Target, i int) {
	if i == len(d.in) {
		d.recv(t, 0)
		return
	}
	d.later(t, func() { t.SendByte(d.in[i], func(sched.Time) { d.send(t, i+1) }) })
}

func (d *dev) recv(t *scsi.Target, i int) {
	if i == d.outN {
		t.Complete(d.status)
		return
	}
	d.later(t, func() {
		t.ReceiveByte(func(_ sched.Time, b byte) { d.got = append(d.got, b); d.recv(t, i+1) })
	})
}

func (d *dev) Reset() { d.resets++ }

// host plays the Z80: every register access happens at h.t, which then
// moves on by step (the time of one IN or OUT with its loop overhead).
type host struct {
	t    *testing.T
	s    *sched.Scheduler
	c    *ncr5380.Chip
	bus  *scsi.Bus
	now  sched.Time
	step sched.Time
}

func (h *host) at() { h.s.Advance(h.now); h.now += h.step }
func (h *host) rd(reg int) uint8 {
	h.at()
	return h.c.Read(reg)
}
func (h *host) wr(reg int, v uint8) { h.at(); h.c.Write(reg, v) }
func (h *host) dmaRd() uint8        { h.at(); return h.c.DMARead() }
func (h *host) dmaWr(v uint8)       { h.at(); h.c.DMAWrite(v) }
func (h *host) wait(d sched.Time)   { h.now += d }

// until polls register reg until cond holds (bounded: a hang fails the test).
func (h *host) until(reg int, cond func(uint8) bool, what string) uint8 {
	h.t.Helper()
	for i := 0; i < 100000; i++ {
		if v := h.rd(reg); cond(v) {
			return v
		}
	}
	h.t.Fatalf("timeout waiting for %s", what)
	return 0
}

type rig struct {
	s   *sched.Scheduler
	bus *scsi.Bus
	c   *ncr5380.Chip
	tgt *scsi.Target
	dev *dev
	h   *host
	irq []bool
	drq int
}

func newRig(t *testing.T, d *dev) *rig {
	s := sched.New()
	bus := scsi.NewBus(s)
	c := ncr5380.New(s, bus, "5380")
	r := &rig{s: s, bus: bus, c: c, dev: d}
	if d != nil {
		r.tgt = scsi.NewTarget(bus, 0, "target0", d, scsi.DefaultTiming())
	}
	c.OnIRQ = func(v bool) { r.irq = append(r.irq, v) }
	c.OnDRQ = func(v bool) {
		if v {
			r.drq++
		}
	}
	r.h = &host{t: t, s: s, c: c, bus: bus, step: sched.Microsecond}
	return r
}

// selectTarget runs the FUZIX-style selection without arbitration.
func (r *rig) selectTarget(id int, atn bool) {
	h := r.h
	h.wr(ncr5380.RegData, uint8(1<<7|1<<id))
	h.wr(ncr5380.RegICR, ncr5380.ICRDataBus)
	icr := uint8(ncr5380.ICRDataBus | ncr5380.ICRSEL)
	if atn {
		icr |= ncr5380.ICRATN
	}
	h.wr(ncr5380.RegICR, icr)
	h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBBSY != 0 }, "target BSY")
	h.wr(ncr5380.RegICR, icr&ncr5380.ICRATN)
}

// pioByte moves one byte in the current phase by the ICR handshake
// (docs/HARDWARE.md 3.2). out is sent for outbound phases.
func (r *rig) pioByte(out uint8) (phase scsi.Phase, in uint8) {
	h := r.h
	csb := h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBREQ != 0 }, "REQ")
	phase = scsi.Phase(csb >> 2 & 7) // CSB bits 4-2 are MSG C/D I/O
	h.wr(ncr5380.RegTCR, uint8(phase))
	icr := h.rd(ncr5380.RegICR) & ncr5380.ICRATN
	if phase&1 != 0 {
		in = h.rd(ncr5380.RegData)
		h.wr(ncr5380.RegICR, icr|ncr5380.ICRACK)
	} else {
		if phase == scsi.MsgOut {
			icr = 0 // last message byte: drop ATN
		}
		h.wr(ncr5380.RegData, out)
		h.wr(ncr5380.RegICR, icr|ncr5380.ICRDataBus)
		h.wr(ncr5380.RegICR, icr|ncr5380.ICRDataBus|ncr5380.ICRACK)
	}
	h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBREQ == 0 }, "REQ off")
	h.wr(ncr5380.RegICR, icr)
	return phase, in
}

type pioResult struct {
	phases  []scsi.Phase
	dataIn  []byte
	status  byte
	message byte
}

// pioCommand runs a whole command by programmed I/O until bus free.
func (r *rig) pioCommand(cdb, out []byte, identify bool) pioResult {
	var res pioResult
	r.selectTarget(0, identify)
	ci, oi := 0, 0
	for i := 0; i < 10000; i++ {
		csb := r.h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBREQ != 0 || v&ncr5380.CSBBSY == 0 }, "REQ or bus free")
		if csb&ncr5380.CSBBSY == 0 {
			return res
		}
		ph := scsi.InfoPhase(r.bus.Lines())
		var b byte
		switch ph {
		case scsi.Command:
			b = cdb[ci]
			ci++
		case scsi.DataOut:
			b = out[oi]
			oi++
		case scsi.MsgOut:
			b = scsi.MsgIdentify
		}
		ph, in := r.pioByte(b)
		if len(res.phases) == 0 || res.phases[len(res.phases)-1] != ph {
			res.phases = append(res.phases, ph)
		}
		switch ph {
		case scsi.DataIn:
			res.dataIn = append(res.dataIn, in)
		case scsi.Status:
			res.status = in
		case scsi.MsgIn:
			res.message = in
		}
	}
	r.h.t.Fatal("command did not end")
	return res
}

func TestRegisters(t *testing.T) {
	r := newRig(t, nil)
	other := r.bus.Attach("other", nil)
	h := r.h
	for reg := 0; reg < 7; reg++ {
		want := uint8(0)
		if reg == ncr5380.RegBSR {
			want = ncr5380.BSRPhaseMatch // bus free reads as DATA OUT = TCR 0
		}
		assert.Equal(t, want, h.rd(reg), "register %d after power-on", reg)
	}
	tests := []struct {
		name       string
		reg        int
		write      uint8
		readReg    int
		want       uint8
		lines      scsi.Line // bus lines the chip drives after the write
		withDriven bool
	}{
		{"ICR read-back drops AIP/LA write bits", ncr5380.RegICR, 0xFF &^ ncr5380.ICRRST, ncr5380.RegICR, 0x1F, scsi.ACK | scsi.BSY | scsi.SEL | scsi.ATN, true},
		{"ICR clear", ncr5380.RegICR, 0, ncr5380.RegICR, 0, 0, false},
		{"MR read-back", ncr5380.RegMR, 0xFC, ncr5380.RegMR, 0xFC, 0, false},
		{"MR clear", ncr5380.RegMR, 0, ncr5380.RegMR, 0, 0, false},
		{"TCR keeps REQ and phase", ncr5380.RegTCR, 0xFF, ncr5380.RegTCR, 0x0F, 0, false},
		{"TCR phase", ncr5380.RegTCR, 3, ncr5380.RegTCR, 3, 0, false},
		{"select enable is write-only", ncr5380.RegSelEn, 0x01, ncr5380.RegCSB, 0, 0, false},
		{"start DMA target receive ignored", ncr5380.RegDMATRx, 0xFF, ncr5380.RegMR, 0, 0, false},
		{"ODR not driven without ICR bit 0", ncr5380.RegData, 0x5A, ncr5380.RegData, 0, 0, false},
	}
	for _, tc := range tests {
		h.wr(tc.reg, tc.write)
		assert.Equal(t, tc.want, h.rd(tc.readReg), tc.name)
		assert.Equal(t, tc.lines, r.c.Port().Lines(), tc.name)
		_, driven := r.c.Port().DrivenData()
		assert.Equal(t, tc.withDriven, driven, tc.name)
	}

	// ICR bit 0 drives ODR only with I/O false and the phase matching TCR.
	h.wr(ncr5380.RegTCR, 0)
	h.wr(ncr5380.RegICR, ncr5380.ICRDataBus)
	assert.Equal(t, uint8(0x5A), h.rd(ncr5380.RegData))
	other.Drive(scsi.BSY|scsi.IO, scsi.BSY|scsi.IO) // DATA IN: chip must let go
	_, driven := r.c.Port().DrivenData()
	assert.False(t, driven, "data bus released when I/O goes true")
	other.Drive(scsi.CD, scsi.IO|scsi.CD) // COMMAND, TCR says DATA OUT
	_, driven = r.c.Port().DrivenData()
	assert.False(t, driven, "phase mismatch: not driven")
	h.wr(ncr5380.RegTCR, uint8(scsi.Command))
	_, driven = r.c.Port().DrivenData()
	assert.True(t, driven, "phase matches again")
	h.wr(ncr5380.RegICR, 0)

	// CSB and BSR follow the bus.
	other.Drive(scsi.BSY|scsi.REQ|scsi.MSG|scsi.CD|scsi.IO|scsi.ATN|scsi.ACK, scsi.AllControl)
	other.DriveData(0x00, true) // DBP set for odd parity
	assert.Equal(t, uint8(ncr5380.CSBBSY|ncr5380.CSBREQ|ncr5380.CSBMSG|ncr5380.CSBCD|ncr5380.CSBIO|ncr5380.CSBDBP), h.rd(ncr5380.RegCSB))
	assert.Equal(t, uint8(ncr5380.BSRATN|ncr5380.BSRACK), h.rd(ncr5380.RegBSR), "TCR=COMMAND, bus MESSAGE IN: no phase match")
	h.wr(ncr5380.RegTCR, uint8(scsi.MsgIn))
	assert.Equal(t, uint8(ncr5380.BSRATN|ncr5380.BSRACK|ncr5380.BSRPhaseMatch), h.rd(ncr5380.RegBSR))
	other.Release()
}

func TestArbitration(t *testing.T) {
	r := newRig(t, nil)
	h := r.h
	h.step = 100 * sched.Nanosecond
	h.wr(ncr5380.RegData, 0x80)
	h.wr(ncr5380.RegMR, ncr5380.MRArbitrate)
	assert.Zero(t, h.rd(ncr5380.RegICR)&ncr5380.ICRAIP, "bus free not yet settled")
	h.wait(400 * sched.Nanosecond)
	assert.NotZero(t, h.rd(ncr5380.RegICR)&ncr5380.ICRAIP, "AIP after the bus-free settle")
	assert.Equal(t, scsi.BSY, r.bus.Lines()&^scsi.DBP)
	assert.Equal(t, uint8(0x80), r.bus.Data(), "own ID on the bus")
	assert.Equal(t, uint64(1), r.c.Stats.Arbitrations)

	// Another device asserts SEL: lost arbitration, the chip lets go.
	other := r.bus.Attach("other", nil)
	other.Drive(scsi.SEL|scsi.BSY, scsi.SEL|scsi.BSY)
	icr := h.rd(ncr5380.RegICR)
	assert.NotZero(t, icr&ncr5380.ICRLA)
	assert.Zero(t, icr&ncr5380.ICRAIP)
	assert.Zero(t, r.c.Port().Lines())
	h.wr(ncr5380.RegMR, 0)
	assert.Zero(t, h.rd(ncr5380.RegICR)&ncr5380.ICRLA, "clearing MR arbitrate clears LA")

	// Busy bus: the chip waits for bus free, then arbitrates.
	h.wr(ncr5380.RegMR, ncr5380.MRArbitrate)
	h.wait(5 * sched.Microsecond)
	assert.Zero(t, h.rd(ncr5380.RegICR)&ncr5380.ICRAIP)
	h.at()
	other.Release()
	h.wait(ncr5380.DefaultTiming().ArbBusFree)
	assert.NotZero(t, h.rd(ncr5380.RegICR)&ncr5380.ICRAIP)

	// Won: software asserts SEL and BSY, then clears arbitrate.
	h.wr(ncr5380.RegICR, ncr5380.ICRBSY|ncr5380.ICRSEL|ncr5380.ICRDataBus)
	h.wr(ncr5380.RegMR, 0)
	assert.Equal(t, scsi.BSY|scsi.SEL, r.c.Port().Lines())
}

func TestPIOCommand(t *testing.T) {
	tests := []struct {
		name     string
		identify bool
		cdb      []byte
		in       []byte
		out      []byte
		phases   []scsi.Phase
	}{
		{"read", false, []byte{0x08, 0, 0, 1, 3, 0}, []byte{1, 2, 3}, nil,
			[]scsi.Phase{scsi.Command, scsi.DataIn, scsi.Status, scsi.MsgIn}},
		{"write with IDENTIFY", true, []byte{0x0A, 0, 0, 1, 2, 0}, nil, []byte{0xA5, 0x5A},
			[]scsi.Phase{scsi.MsgOut, scsi.Command, scsi.DataOut, scsi.Status, scsi.MsgIn}},
		{"no data", false, []byte{0x00, 0, 0, 0, 0, 0}, nil, nil,
			[]scsi.Phase{scsi.Command, scsi.Status, scsi.MsgIn}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := &dev{in: tc.in, outN: len(tc.out), status: scsi.StatusCheckCondition}
			r := newRig(t, d)
			res := r.pioCommand(tc.cdb, tc.out, tc.identify)
			assert.Equal(t, tc.phases, res.phases)
			require.Len(t, d.cdbs, 1)
			assert.Equal(t, tc.cdb, d.cdbs[0])
			assert.Equal(t, []byte(tc.in), res.dataIn)
			assert.Equal(t, []byte(tc.out), d.got)
			assert.Equal(t, byte(scsi.StatusCheckCondition), res.status)
			assert.Equal(t, byte(scsi.MsgCommandComplete), res.message)
			assert.Equal(t, tc.identify, r.tgt.Identified())
			assert.Equal(t, scsi.BusFree, r.bus.Phase())
			assert.Zero(t, r.c.Stats.StaleReads+r.c.Stats.Overwrites)
		})
	}
}

// startDMA runs selection and the CDB by PIO, then waits for the data
// phase's first REQ and arms DMA in that direction.
func (r *rig) startDMA(cdb []byte, mr uint8) scsi.Phase {
	return r.startDMAICR(cdb, mr, ncr5380.ICRDataBus)
}

// startDMAICR is startDMA with the ICR value written before a DMA send.
func (r *rig) startDMAICR(cdb []byte, mr, sendICR uint8) scsi.Phase {
	r.selectTarget(0, false)
	for range cdb {
		r.pioByteFrom(cdb)
	}
	h := r.h
	h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBREQ != 0 }, "data REQ")
	ph := scsi.InfoPhase(r.bus.Lines())
	h.wr(ncr5380.RegTCR, uint8(ph))
	h.wr(ncr5380.RegMR, ncr5380.MRDMA|mr)
	if ph == scsi.DataIn {
		h.wr(ncr5380.RegDMAIRx, 0)
	} else {
		h.wr(ncr5380.RegICR, sendICR)
		h.wr(ncr5380.RegDMASnd, 0)
	}
	return ph
}

var cdbIndex = map[*rig]int{}

func (r *rig) pioByteFrom(cdb []byte) {
	i := cdbIndex[r]
	r.pioByte(cdb[i])
	cdbIndex[r] = i + 1
}

// pollDMA takes n bytes in DMA receive, each after polling the BSR for
// DRQ, as the byte-by-byte loop does.
func (r *rig) pollDMA(n int) []byte {
	var got []byte
	for range n {
		r.h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
		got = append(got, r.h.dmaRd())
	}
	return got
}

// finishPIO leaves DMA mode, clears the interrupt and takes status and
// message by PIO.
func (r *rig) finishPIO() (status, msg byte) {
	h := r.h
	h.wr(ncr5380.RegMR, 0)
	h.wr(ncr5380.RegICR, 0)
	h.rd(ncr5380.RegReset)
	_, status = r.pioByte(0)
	_, msg = r.pioByte(0)
	h.until(ncr5380.RegCSB, func(v uint8) bool { return v&ncr5380.CSBBSY == 0 }, "bus free")
	return status, msg
}

func TestDMAReceivePolled(t *testing.T) {
	in := []byte("the quick brown fox")
	d := &dev{in: in}
	r := newRig(t, d)
	require.Equal(t, scsi.DataIn, r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0))
	h := r.h
	assert.Equal(t, in, r.pollDMA(len(in)))
	// The target now asks for STATUS: phase mismatch, IRQ, no DRQ.
	bsr := h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRIRQ != 0 }, "phase mismatch IRQ")
	assert.Zero(t, bsr&ncr5380.BSRPhaseMatch)
	assert.Zero(t, bsr&ncr5380.BSRDRQ)
	assert.True(t, r.c.IRQ())
	assert.Equal(t, uint64(1), r.c.Stats.PhaseMismatches)
	st, msg := r.finishPIO()
	assert.False(t, r.c.IRQ(), "reading register 7 cleared IRQ")
	assert.Equal(t, byte(scsi.StatusGood), st)
	assert.Equal(t, byte(scsi.MsgCommandComplete), msg)
	assert.Equal(t, uint64(len(in)), r.c.Stats.DMABytesIn)
	assert.Zero(t, r.c.Stats.StaleReads)
	assert.Equal(t, len(in), r.drq, "one DRQ per byte")
	assert.Equal(t, []bool{true, false}, r.irq)
}

func TestDMASendPolled(t *testing.T) {
	for _, icr := range []uint8{ncr5380.ICRDataBus, 0} {
		cdbIndex = map[*rig]int{}
		testDMASend(t, icr)
	}
}

// testDMASend sends with ICR bit 0 set (as Linux does) or clear (the chip
// still drives ODR in its ACK cycle).
func testDMASend(t *testing.T, icr uint8) {
	out := []byte("jumps over the lazy dog")
	d := &dev{outN: len(out)}
	r := newRig(t, d)
	require.Equal(t, scsi.DataOut, r.startDMAICR([]byte{0x0A, 0, 0, 0, 1, 0}, 0, icr))
	h := r.h
	for _, b := range out {
		h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "DRQ")
		h.dmaWr(b)
	}
	h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRIRQ != 0 }, "phase mismatch IRQ")
	st, msg := r.finishPIO()
	assert.Equal(t, out, d.got)
	assert.Equal(t, byte(scsi.StatusGood), st)
	assert.Equal(t, byte(scsi.MsgCommandComplete), msg)
	assert.Equal(t, uint64(len(out)), r.c.Stats.DMABytesOut)
	assert.Zero(t, r.c.Stats.Overwrites)
}

// Hypothesis A: an INIR burst (one DACK every 5.25 us, no DRQ check) from a
// target slower than that returns stale bytes; from a fast one it is exact.
func TestBurstReadHypothesisA(t *testing.T) {
	in := make([]byte, 64)
	for i := range in {
		in[i] = byte(i + 1)
	}
	tests := []struct {
		name  string
		pace  sched.Time
		stale bool
	}{
		{"fast target", 0, false},
		{"slow target", 12 * sched.Microsecond, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cdbIndex = map[*rig]int{}
			d := &dev{in: in, pace: tc.pace}
			r := newRig(t, d)
			r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
			h := r.h
			h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "first DRQ")
			h.step = 21 * sched.TState // INIR: 21 T per byte
			var events []string
			r.c.ObserveEvents(func(_ sched.Time, e string) { events = append(events, e) })
			got := make([]byte, len(in))
			for i := range got {
				got[i] = h.dmaRd()
			}
			if !tc.stale {
				assert.Equal(t, in, got)
				assert.Zero(t, r.c.Stats.StaleReads)
				return
			}
			assert.NotEqual(t, in, got)
			assert.NotZero(t, r.c.Stats.StaleReads)
			assert.Len(t, events, int(r.c.Stats.StaleReads))
			assert.Contains(t, events, "stale DACK read")
			dups := 0
			for i := 1; i < len(got); i++ {
				if got[i] == got[i-1] {
					dups++
				}
			}
			assert.Equal(t, int(r.c.Stats.StaleReads), dups, "every stale read repeats the previous byte")
			assert.Equal(t, uint64(len(in))-r.c.Stats.StaleReads, r.c.Stats.DMABytesIn)
		})
	}
}

// Hypothesis A: an OTIR burst to a slow target overwrites the output latch;
// the lost bytes leave the target waiting in DATA OUT (the tape hang).
func TestBurstWriteHypothesisA(t *testing.T) {
	out := make([]byte, 64)
	for i := range out {
		out[i] = byte(0x80 + i)
	}
	tests := []struct {
		name string
		pace sched.Time
		lost bool
	}{
		{"fast target", 0, false},
		{"slow target", 12 * sched.Microsecond, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cdbIndex = map[*rig]int{}
			d := &dev{outN: len(out), pace: tc.pace}
			r := newRig(t, d)
			r.startDMA([]byte{0x0A, 0, 0, 0, 1, 0}, 0)
			h := r.h
			h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRDRQ != 0 }, "first DRQ")
			h.step = 21 * sched.TState // OTIR
			for _, b := range out {
				h.dmaWr(b)
			}
			h.wait(10 * sched.Millisecond)
			h.at()
			if !tc.lost {
				assert.Equal(t, out, d.got)
				assert.Zero(t, r.c.Stats.Overwrites)
				return
			}
			assert.NotZero(t, r.c.Stats.Overwrites)
			assert.Equal(t, len(out)-int(r.c.Stats.Overwrites), len(d.got), "each overwrite loses one byte")
			assert.Equal(t, scsi.DataOut, r.bus.Phase(), "target still waiting in DATA OUT: hang")
			assert.True(t, r.c.DRQ(), "chip asks for a byte the host will never send")
		})
	}
}

func TestBusyLoss(t *testing.T) {
	for _, monitor := range []bool{false, true} {
		r := newRig(t, nil)
		other := r.bus.Attach("target", nil)
		h := r.h
		other.Drive(scsi.BSY|scsi.IO, scsi.BSY|scsi.IO)
		h.wr(ncr5380.RegTCR, uint8(scsi.DataIn))
		mr := uint8(ncr5380.MRDMA)
		if monitor {
			mr |= ncr5380.MRMonitorBSY
		}
		h.wr(ncr5380.RegMR, mr)
		h.wr(ncr5380.RegICR, ncr5380.ICRATN)
		h.wr(ncr5380.RegDMAIRx, 0)
		h.at()
		other.Release()
		bsr := h.rd(ncr5380.RegBSR)
		assert.Zero(t, h.rd(ncr5380.RegMR)&ncr5380.MRDMA, "loss of BSY ends DMA mode")
		assert.Equal(t, uint64(1), r.c.Stats.BusyLosses)
		if !monitor {
			assert.Zero(t, bsr&(ncr5380.BSRBusyError|ncr5380.BSRIRQ))
			assert.Equal(t, uint8(ncr5380.ICRATN), h.rd(ncr5380.RegICR))
			continue
		}
		assert.Equal(t, uint8(ncr5380.BSRBusyError|ncr5380.BSRIRQ), bsr&(ncr5380.BSRBusyError|ncr5380.BSRIRQ))
		assert.Zero(t, h.rd(ncr5380.RegICR), "ICR bits 0-5 cleared")
		assert.Zero(t, r.c.Port().Lines(), "signals removed from the bus")
		h.rd(ncr5380.RegReset)
		assert.Zero(t, h.rd(ncr5380.RegBSR)&(ncr5380.BSRBusyError|ncr5380.BSRIRQ), "register 7 clears busy error and IRQ")
	}
}

func TestResetViaICR(t *testing.T) {
	d := &dev{in: make([]byte, 10), pace: 50 * sched.Microsecond}
	r := newRig(t, d)
	cdbIndex = map[*rig]int{}
	r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0)
	h := r.h
	require.True(t, r.tgt.Connected())
	h.wr(ncr5380.RegICR, ncr5380.ICRRST)
	assert.NotZero(t, r.bus.Lines()&scsi.RST)
	assert.True(t, r.c.IRQ())
	assert.Equal(t, 1, d.resets)
	assert.False(t, r.tgt.Connected())
	assert.Zero(t, h.rd(ncr5380.RegMR), "registers cleared")
	assert.Equal(t, uint8(ncr5380.ICRRST), h.rd(ncr5380.RegICR), "RST stays until cleared")
	h.wait(scsi.ResetHoldTime)
	h.wr(ncr5380.RegICR, 0)
	h.rd(ncr5380.RegReset)
	assert.False(t, r.c.IRQ())
	h.wait(sched.Millisecond)
	h.at()
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
	assert.Zero(t, r.bus.Lines())
}

func TestEOP(t *testing.T) {
	r := newRig(t, nil)
	h := r.h
	r.c.EOP()
	assert.Zero(t, h.rd(ncr5380.RegBSR)&ncr5380.BSREndOfDMA, "ignored outside DMA mode")
	h.wr(ncr5380.RegMR, ncr5380.MRDMA|ncr5380.MREOPIRQ)
	r.c.EOP()
	assert.NotZero(t, h.rd(ncr5380.RegBSR)&ncr5380.BSREndOfDMA)
	assert.True(t, r.c.IRQ())
	h.wr(ncr5380.RegMR, 0)
	assert.Zero(t, h.rd(ncr5380.RegBSR)&ncr5380.BSREndOfDMA, "cleared with MR bit 1")
}

// Observers of the IRQ and DRQ outputs see every edge the board's wires
// (OnIRQ, OnDRQ) see, after them, at the time it happens; removed, they
// see no more while the wires go on.
func TestObserveOutputs(t *testing.T) {
	in := []byte("observed")
	r := newRig(t, &dev{in: in})
	var order []string
	wireIRQ := r.c.OnIRQ
	r.c.OnIRQ = func(v bool) { order = append(order, "wire"); wireIRQ(v) }
	var irq []bool
	drq := 0
	remove := r.c.ObserveOutputs(func(now sched.Time, o ncr5380.Output, v bool) {
		assert.Equal(t, r.s.Now(), now)
		switch o {
		case ncr5380.IRQ:
			order = append(order, "observer")
			irq = append(irq, v)
		case ncr5380.DRQ:
			if v {
				drq++
			}
		}
	})
	require.Equal(t, scsi.DataIn, r.startDMA([]byte{0x08, 0, 0, 0, 1, 0}, 0))
	assert.Equal(t, in, r.pollDMA(len(in)))
	r.h.until(ncr5380.RegBSR, func(v uint8) bool { return v&ncr5380.BSRIRQ != 0 }, "phase mismatch IRQ")
	assert.Equal(t, len(in), drq, "one DRQ per byte")
	assert.Equal(t, []bool{true}, irq)
	assert.Equal(t, []string{"wire", "observer"}, order, "the wire first")
	remove()
	r.finishPIO()
	assert.Equal(t, []bool{true}, irq, "removed: the IRQ's fall unseen")
	assert.Equal(t, []bool{true, false}, r.irq, "the wire saw it")
}
