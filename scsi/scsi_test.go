package scsi_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

// fakeDev answers every command by sending in, then taking outN bytes, then
// completing with status. pace, if set, is the wait before each data byte.
type fakeDev struct {
	in     []byte
	outN   int
	status byte
	pace   sched.Time

	cdbs   [][]byte
	luns   []int
	got    []byte
	resets int
	ev     *sched.Event
}

func (d *fakeDev) Command(t *scsi.Target, cdb []byte) {
	d.cdbs = append(d.cdbs, append([]byte(nil), cdb...))
	d.luns = append(d.luns, t.LUN(cdb))
	d.sendFrom(t, 0)
}

func (d *fakeDev) after(t *scsi.Target, fn func()) {
	if d.pace == 0 {
		fn()
		return
	}
	d.ev = t.Sched().After(d.pace, "fake pace", func(sched.Time) { d.ev = nil; fn() })
}

func (d *fakeDev) sendFrom(t *scsi.Target, i int) {
	if i == len(d.in) {
		d.recvFrom(t, 0)
		return
	}
	d.after(t, func() { t.SendByte(d.in[i], func(sched.Time) { d.sendFrom(t, i+1) }) })
}

func (d *fakeDev) recvFrom(t *scsi.Target, i int) {
	if i == d.outN {
		t.Complete(d.status)
		return
	}
	d.after(t, func() {
		t.ReceiveByte(func(_ sched.Time, b byte) { d.got = append(d.got, b); d.recvFrom(t, i+1) })
	})
}

func (d *fakeDev) Reset() {
	d.resets++
	if d.ev != nil {
		d.ev = nil // the scheduler still runs it; Target ignores calls after a reset
	}
}

type rig struct {
	s   *sched.Scheduler
	bus *scsi.Bus
	tgt *scsi.Target
	dev *fakeDev
	ini *scsitest.Initiator
}

func newRig(dev *fakeDev) *rig {
	s := sched.New()
	bus := scsi.NewBus(s)
	r := &rig{s: s, bus: bus, dev: dev}
	r.tgt = scsi.NewTarget(bus, 0, "disk", dev, scsi.DefaultTiming())
	r.ini = scsitest.New(bus, 7)
	return r
}

func TestPhaseOf(t *testing.T) {
	tests := []struct {
		lines scsi.Line
		want  scsi.Phase
	}{
		{0, scsi.BusFree},
		{scsi.SEL, scsi.Selection},
		{scsi.SEL | scsi.BSY, scsi.Selection},
		{scsi.BSY, scsi.DataOut},
		{scsi.BSY | scsi.IO, scsi.DataIn},
		{scsi.BSY | scsi.CD, scsi.Command},
		{scsi.BSY | scsi.CD | scsi.IO, scsi.Status},
		{scsi.BSY | scsi.MSG | scsi.CD, scsi.MsgOut},
		{scsi.BSY | scsi.MSG | scsi.CD | scsi.IO | scsi.REQ, scsi.MsgIn},
		{scsi.MSG | scsi.CD | scsi.IO, scsi.BusFree},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, scsi.PhaseOf(tc.lines), "lines %v", tc.lines)
	}
	for p := scsi.DataOut; p <= scsi.MsgIn; p++ {
		assert.Equal(t, p, scsi.InfoPhase(p.Lines()), "round trip %v", p)
	}
	assert.Equal(t, "BSY|C/D|REQ", (scsi.BSY | scsi.CD | scsi.REQ).String())
	assert.Equal(t, "-", scsi.Line(0).String())
}

func TestCDBLen(t *testing.T) {
	for _, tc := range []struct {
		op   byte
		want int
	}{{0x00, 6}, {0x08, 6}, {0x28, 10}, {0x55, 10}, {0xA8, 12}, {0x60, 6}, {0xE0, 6}, {0x7F, 6}, {0x9F, 6}} {
		assert.Equal(t, tc.want, scsi.CDBLen(tc.op), "opcode %02X", tc.op)
	}
}

func TestBusWiredOR(t *testing.T) {
	s := sched.New()
	bus := scsi.NewBus(s)
	var aSeen, bSeen int
	a := bus.Attach("a", func(sched.Time) { aSeen++ })
	b := bus.Attach("b", func(sched.Time) { bSeen++ })
	var stamps []sched.Time
	bus.Observe(func(now sched.Time, _ scsi.Line, _ uint8) { stamps = append(stamps, now) })

	s.Advance(100 * sched.Nanosecond)
	a.Drive(scsi.BSY|scsi.REQ, scsi.BSY|scsi.REQ)
	b.Drive(scsi.BSY, scsi.BSY)
	assert.Equal(t, scsi.BSY|scsi.REQ, bus.Lines())
	a.Drive(0, scsi.BSY)
	assert.Equal(t, scsi.BSY|scsi.REQ, bus.Lines(), "b still holds BSY")
	b.Drive(0, scsi.BSY)
	assert.Equal(t, scsi.REQ, bus.Lines())
	assert.Equal(t, 1, aSeen, "a is told only of b's release, the one change b made to the OR")
	assert.Equal(t, 1, bSeen, "b is told only of a's first drive")

	s.Advance(200 * sched.Nanosecond)
	a.DriveData(0x81, true)
	b.DriveData(0x02, true)
	assert.Equal(t, uint8(0x83), bus.Data())
	a.DriveData(0, false)
	assert.Equal(t, uint8(0x02), bus.Data())
	assert.Zero(t, bus.Lines()&scsi.DBP, "0x02 has one bit set: already odd")
	b.DriveData(0x03, true)
	assert.NotZero(t, bus.Lines()&scsi.DBP, "0x03 has two bits: DBP makes it odd")
	a.Drive(scsi.DBP, scsi.DBP) // ignored: DBP follows the data
	assert.Equal(t, 3, aSeen)
	assert.Equal(t, 3, bSeen)
	require.Len(t, stamps, 6)
	assert.Equal(t, 100*sched.Nanosecond, stamps[0])
	assert.Equal(t, 200*sched.Nanosecond, stamps[len(stamps)-1])
}

func TestTargetReadCommand(t *testing.T) {
	dev := &fakeDev{in: []byte{0xDE, 0xAD, 0xBE, 0xEF}, status: scsi.StatusGood}
	r := newRig(dev)
	res := r.ini.Run(0, []byte{0x08, 0x20, 0, 5, 4, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.False(t, res.Timeout)
	assert.Equal(t, []scsi.Phase{scsi.Command, scsi.DataIn, scsi.Status, scsi.MsgIn}, res.Phases)
	assert.Equal(t, dev.in, res.DataIn)
	assert.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Equal(t, byte(scsi.MsgCommandComplete), res.Message)
	require.Len(t, dev.cdbs, 1)
	assert.Equal(t, []byte{0x08, 0x20, 0, 5, 4, 0}, dev.cdbs[0])
	assert.Equal(t, []int{1}, dev.luns, "LUN from CDB byte 1 without IDENTIFY")
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
	assert.Zero(t, r.tgt.Port().Lines())
	assert.False(t, r.tgt.Connected())
	assert.Equal(t, scsi.TargetStats{Selections: 1, Commands: 1, BytesIn: 6, BytesOut: 6}, r.tgt.Stats)
	tm := scsi.DefaultTiming()
	assert.Equal(t, tm.SelectResponse, res.Selected-res.Start, "BSY after the selection response delay")
}

func TestTargetIdentifyAndGroups(t *testing.T) {
	tests := []struct {
		name string
		cdb  []byte
	}{
		{"group0", []byte{0x00, 0, 0, 0, 0, 0}},
		{"group1", []byte{0x28, 0, 0, 0, 0, 1, 0, 0, 1, 0}},
		{"group2", []byte{0x5A, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
		{"group5", []byte{0xA8, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}},
		{"vendor6", []byte{0xC0, 0, 0, 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := &fakeDev{status: scsi.StatusCheckCondition}
			r := newRig(dev)
			res := r.ini.Run(0, tc.cdb, nil, true, 3, sched.Second)
			require.True(t, res.Done)
			assert.Equal(t, []scsi.Phase{scsi.MsgOut, scsi.Command, scsi.Status, scsi.MsgIn}, res.Phases)
			require.Len(t, dev.cdbs, 1)
			assert.Equal(t, tc.cdb, dev.cdbs[0])
			assert.Equal(t, []int{3}, dev.luns, "LUN from IDENTIFY")
			assert.Equal(t, byte(scsi.StatusCheckCondition), res.Status)
		})
	}
}

func TestTargetDataOut(t *testing.T) {
	dev := &fakeDev{outN: 3}
	r := newRig(dev)
	res := r.ini.Run(0, []byte{0x0A, 0, 0, 0, 1, 0}, []byte{1, 2, 3}, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, []scsi.Phase{scsi.Command, scsi.DataOut, scsi.Status, scsi.MsgIn}, res.Phases)
	assert.Equal(t, []byte{1, 2, 3}, dev.got)
	assert.Equal(t, 3, res.DataOut)
	assert.Zero(t, res.Overrun)
}

// A device with no data holds REQ off: the transfer takes the device's pace,
// not the engine's.
func TestTargetDevicePacing(t *testing.T) {
	for _, pace := range []sched.Time{0, 100 * sched.Microsecond, sched.Millisecond} {
		dev := &fakeDev{in: make([]byte, 10), pace: pace}
		r := newRig(dev)
		var reqs []sched.Time
		reqOn := false
		r.bus.Observe(func(now sched.Time, l scsi.Line, _ uint8) {
			if l&scsi.REQ != 0 && !reqOn && scsi.InfoPhase(l) == scsi.DataIn {
				reqs = append(reqs, now)
			}
			reqOn = l&scsi.REQ != 0
		})
		res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, false, 0, sched.Second)
		require.True(t, res.Done)
		require.GreaterOrEqual(t, len(reqs), 10)
		gap := reqs[5] - reqs[4]
		if pace > 0 {
			assert.GreaterOrEqual(t, gap, pace, "pace %v", pace)
			assert.Less(t, gap, pace+2*sched.Microsecond, "pace %v", pace)
		} else {
			tm := scsi.DefaultTiming()
			assert.Less(t, gap, sched.Microsecond+tm.ReqAfterAck, "engine-paced byte cycle")
		}
	}
}

func TestSelectionTimeout(t *testing.T) {
	r := newRig(&fakeDev{})
	res := r.ini.Run(5, []byte{0, 0, 0, 0, 0, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.True(t, res.Timeout)
	assert.Equal(t, scsi.SelectionTimeout, res.End-res.Start)
	assert.Zero(t, r.tgt.Stats.Selections)
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
}

func TestBusResetMidTransfer(t *testing.T) {
	dev := &fakeDev{in: make([]byte, 100), pace: 10 * sched.Microsecond}
	r := newRig(dev)
	rst := r.bus.Attach("reset switch", nil)
	r.ini.Start(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, false, 0)
	r.s.Advance(300 * sched.Microsecond)
	require.True(t, r.tgt.Connected())
	rst.Drive(scsi.RST, scsi.RST)
	assert.Equal(t, 1, dev.resets)
	assert.False(t, r.tgt.Connected())
	assert.Zero(t, r.tgt.Port().Lines(), "target released the bus")
	r.s.Advance(r.s.Now() + scsi.ResetHoldTime)
	rst.Drive(0, scsi.RST)
	r.ini.Port().Release()
	r.s.Advance(r.s.Now() + sched.Millisecond) // stale device events must do nothing
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
	assert.Zero(t, r.bus.Lines())

	// The target answers again after the reset.
	ini2 := scsitest.New(r.bus, 6)
	dev.in = []byte{7}
	dev.pace = 0
	res := ini2.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	assert.Equal(t, []byte{7}, res.DataIn)
}

func TestTextTraceGolden(t *testing.T) {
	dev := &fakeDev{in: []byte{0x55, 0xAA}}
	r := newRig(dev)
	var buf bytes.Buffer
	tr := scsi.NewTextTrace(&buf)
	r.bus.Observe(tr.Change)
	res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, true, 0, sched.Second)
	require.True(t, res.Done)
	require.NoError(t, tr.Err())
	golden.Equal(t, "read2.trace", buf.Bytes())
}

// vcdEdges counts rising edges of the named 1-bit wire in a VCD.
func vcdEdges(t *testing.T, vcd []byte, name string) int {
	t.Helper()
	id := ""
	level := byte('0')
	edges := 0
	sc := bufio.NewScanner(bytes.NewReader(vcd))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 5 && f[0] == "$var" && f[4] == name {
			id = f[3]
			continue
		}
		// Value changes may share a line with the timestamp (sigrok does that).
		for _, tok := range f {
			if id == "" || len(tok) < 2 || (tok[0] != '0' && tok[0] != '1') || tok[1:] != id {
				continue
			}
			if tok[0] == '1' && level == '0' {
				edges++
			}
			level = tok[0]
		}
	}
	require.NotEmpty(t, id, "wire %s not declared", name)
	return edges
}

func TestVCDEdgesMatchBytes(t *testing.T) {
	dev := &fakeDev{in: []byte("hello, world"), outN: 5}
	r := newRig(dev)
	var buf bytes.Buffer
	v := scsi.NewVCD(&buf)
	r.bus.Observe(v.Change)
	res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, []byte("12345"), true, 0, sched.Second)
	require.True(t, res.Done)
	require.NoError(t, v.End(r.s.Now()+sched.Microsecond))
	moved := int(r.tgt.Stats.BytesIn + r.tgt.Stats.BytesOut) // all phases
	assert.Equal(t, 1+6+12+5+2, moved)
	assert.Equal(t, moved, vcdEdges(t, buf.Bytes(), "REQ"))
	assert.Equal(t, moved, vcdEdges(t, buf.Bytes(), "ACK"))

	sigrok, err := exec.LookPath("sigrok-cli")
	if err != nil {
		t.Skip("sigrok-cli not installed: VCD checked by our own parser only")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "bus.vcd")
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o644))
	out, err := exec.Command(sigrok, "-I", "vcd", "-i", in, "-O", "vcd").Output()
	require.NoError(t, err, "sigrok-cli could not read our VCD")
	assert.Equal(t, moved, vcdEdges(t, out, "REQ"), "REQ edges as sigrok reads them")
	assert.Equal(t, moved, vcdEdges(t, out, "ACK"), "ACK edges as sigrok reads them")
}

func TestRecorderMeasuresFromTheBus(t *testing.T) {
	in := []byte{10, 20, 30, 40, 50}
	dev := &fakeDev{in: in, pace: 7 * sched.Microsecond}
	r := newRig(dev)
	rec := scsi.NewRecorder()
	r.bus.Observe(rec.Change)
	res := r.ini.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, false, 0, sched.Second)
	require.True(t, res.Done)
	data := rec.PhaseTransfers(scsi.DataIn)
	require.Len(t, data, len(in))
	for i, tr := range data {
		assert.Equal(t, in[i], tr.Data)
	}
	assert.Len(t, rec.PhaseTransfers(scsi.Command), 6)
	assert.Len(t, rec.Transfers(), 6+5+2)
	assert.Len(t, rec.Rising(scsi.REQ), 6+5+2)
	// The device paces at 7 us a byte; the handshake adds its own few
	// hundred ns.
	mean := scsi.MeanInterval(data)
	assert.GreaterOrEqual(t, mean, 7*sched.Microsecond)
	assert.Less(t, mean, 8*sched.Microsecond)

	rec.Max = len(rec.Changes)
	r.ini.Run(0, []byte{0x08, 0, 0, 0, 1, 0}, nil, false, 0, sched.Second)
	assert.Positive(t, rec.Dropped)
	rec.Reset()
	assert.Empty(t, rec.Changes)
}
