package acb4000

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

func TestCommandTable(t *testing.T) {
	blocks := small.Blocks()
	cases := []struct {
		name   string
		cdb    []byte
		status int
		sense  []byte // expected REQUEST SENSE afterwards
		nIn    int    // DATA IN bytes
	}{
		{"test unit ready", []byte{OpTestUnitReady, 0, 0, 0, 0, 0}, scsi.StatusGood, []byte{0, 0, 0, 0}, 0},
		{"rezero", []byte{OpRezeroUnit, 0, 0, 0, 0, 0}, scsi.StatusGood, []byte{0, 0, 0, 0}, 0},
		{"seek", rw(OpSeek, 0, 100, 0), scsi.StatusGood, []byte{0, 0, 0, 0}, 0},
		{"read 1", rw(OpRead, 0, 5, 1), scsi.StatusGood, []byte{0, 0, 0, 0}, 512},
		{"read 3", rw(OpRead, 0, blocks-3, 3), scsi.StatusGood, []byte{0, 0, 0, 0}, 1536},
		{"mode sense", []byte{OpModeSense, 0, 0, 0, 0x18, 0}, scsi.StatusGood, []byte{0, 0, 0, 0}, 0x18},
		{"mode sense short", []byte{OpModeSense, 0, 0, 0, 4, 0}, scsi.StatusGood, []byte{0, 0, 0, 0}, 4},
		{"read buffer", []byte{OpReadBuffer, 0, 0, 0, 0, 0}, scsi.StatusGood, []byte{0, 0, 0, 0}, 1024},
		{"inquiry is not a command", []byte{0x12, 0, 0, 0, 36, 0}, scsi.StatusCheckCondition, []byte{0x20, 0, 0, 0}, 0},
		{"bad group-1 opcode", []byte{0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0}, scsi.StatusCheckCondition, []byte{0x20, 0, 0, 0}, 0},
		{"read past end", rw(OpRead, 0, blocks, 1), scsi.StatusCheckCondition,
			[]byte{0x80 | 0x21, byte(blocks >> 16), byte(blocks >> 8), byte(blocks)}, 0},
		{"read runs past end", rw(OpRead, 0, blocks-1, 2), scsi.StatusCheckCondition,
			[]byte{0x80 | 0x21, byte(blocks >> 16), byte(blocks >> 8), byte(blocks)}, 0},
		{"seek past end", rw(OpSeek, 0, 0x1fffff, 0), scsi.StatusCheckCondition, []byte{0xa1, 0x1f, 0xff, 0xff}, 0},
		{"bad LUN", rw(OpRead, 3, 0, 1), scsi.StatusCheckCondition, []byte{0x25, 3 << 5, 0, 0}, 0},
		{"LUN 1 not ready", rw(OpTestUnitReady, 1, 0, 0), scsi.StatusCheckCondition, []byte{0x04, 1 << 5, 0, 0}, 0},
		{"format interleave 17", []byte{OpFormatUnit, 0, 0, 0, 17, 0}, scsi.StatusCheckCondition, []byte{0x24, 0, 0, 0}, 0},
		{"format byte 3", []byte{OpFormatUnit, 0, 0, 1, 3, 0}, scsi.StatusCheckCondition, []byte{0x24, 0, 0, 0}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, rigOpts{})
			st, in := r.run(t, c.cdb, nil)
			assert.Equal(t, c.status, st)
			assert.Len(t, in, c.nIn)
			assert.Equal(t, []byte{scsi.MsgCommandComplete}, r.h.msgs)
			lun := int(c.cdb[1] >> 5)
			assert.Equal(t, c.sense, r.senseOf(t, lun))
			assert.Equal(t, []byte{0, 0, 0, 0}, r.senseOf(t, lun), "REQUEST SENSE clears the sense")
		})
	}
}

func TestReadFormattedFill(t *testing.T) {
	r := newRig(t, rigOpts{})
	st, in := r.run(t, rw(OpRead, 0, 0, 2), nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Equal(t, bytes.Repeat([]byte{FormatFill}, 1024), in)
}

func TestWriteReadRoundTripAndDurable(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 2})
	data := make([]byte, 40*512) // crosses tracks and a cylinder
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	st, _ := r.run(t, rw(OpWrite, 0, 10, 40), data)
	require.Equal(t, scsi.StatusGood, st)
	// GOOD means on disk: read the raw file behind the emulator's back.
	raw, err := os.ReadFile(r.path)
	require.NoError(t, err)
	assert.Equal(t, data, raw[10*512:50*512])
	st, in := r.run(t, rw(OpRead, 0, 10, 40), nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Equal(t, data, in)
	assert.Equal(t, uint64(40), r.c.Stats.BlocksWritten)
}

func TestBufferCommands(t *testing.T) {
	r := newRig(t, rigOpts{})
	data := make([]byte, 1024)
	for i := range data {
		data[i] = byte(i ^ 0x55)
	}
	st, _ := r.run(t, []byte{OpWriteBuffer, 0, 0, 0, 0, 0}, data)
	require.Equal(t, scsi.StatusGood, st)
	st, in := r.run(t, []byte{OpReadBuffer, 0, 0, 0, 0, 0}, nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Equal(t, data, in)
}

func TestModeSelect(t *testing.T) {
	r := newRig(t, rigOpts{})
	_, page := r.run(t, []byte{OpModeSense, 0, 0, 0, 0x18, 0}, nil)
	require.Len(t, page, 0x18)
	assert.Equal(t, []byte{0, byte(small.Cylinders)}, page[13:15])
	assert.Equal(t, byte(small.Heads), page[15])
	assert.Equal(t, byte(17), page[23])

	unbuffered := append([]byte(nil), page...)
	unbuffered[21] = 0
	st, _ := r.run(t, []byte{OpModeSelect, 0, 0, 0, 0x18, 0}, unbuffered)
	require.Equal(t, scsi.StatusGood, st)
	_, got := r.run(t, []byte{OpModeSense, 0, 0, 0, 0x18, 0}, nil)
	assert.Equal(t, unbuffered, got)
	// Unbuffered 3 ms steps make a 5-cylinder seek slower than the curve.
	start := r.s.Now()
	r.run(t, rw(OpSeek, 0, 5*2*17, 0), nil)
	assert.Greater(t, r.s.Now()-start, 5*3*sched.Millisecond)

	for name, mut := range map[string]func(b []byte){
		"block length":  func(b []byte) { b[10] = 1 },
		"too many cyl":  func(b []byte) { b[14] = 200 },
		"sectors":       func(b []byte) { b[23] = 33 },
		"format code":   func(b []byte) { b[12] = 7 },
		"step code":     func(b []byte) { b[21] = 9 },
		"too many head": func(b []byte) { b[15] = 8 },
	} {
		bad := append([]byte(nil), page...)
		mut(bad)
		st, _ := r.run(t, []byte{OpModeSelect, 0, 0, 0, 0x18, 0}, bad)
		assert.Equal(t, scsi.StatusCheckCondition, st, name)
		assert.Equal(t, []byte{0x24, 0, 0, 0}, r.senseOf(t, 0), name)
	}
}

func TestFormatUnit(t *testing.T) {
	r := newRig(t, rigOpts{unformat: true})
	st, _ := r.run(t, rw(OpRead, 0, 7, 1), nil)
	require.Equal(t, scsi.StatusCheckCondition, st)
	assert.Equal(t, []byte{0x80 | SenseNoIDAddressMark, 0, 0, 7}, r.senseOf(t, 0))

	start := r.s.Now()
	st, _ = r.run(t, []byte{OpFormatUnit, 0, 0, 0, 5, 0}, nil)
	require.Equal(t, scsi.StatusGood, st)
	tracks := small.Cylinders * small.Heads
	assert.Greater(t, r.s.Now()-start, sched.Time(tracks)*r.c.Revolution(), "a revolution per track at least")
	m := r.disk.Meta()
	assert.True(t, m.Formatted)
	assert.Equal(t, 5, m.Interleave)
	var onDisk Meta
	_, err := Open(r.path, true)
	assert.Error(t, err, "still locked by the rig")
	require.NoError(t, readSidecar(r.path, &onDisk))
	assert.Equal(t, m, onDisk)
	assert.Equal(t, Interleave(17, 5), r.c.drives[0].layout)

	st, in := r.run(t, rw(OpRead, 0, 7, 1), nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Equal(t, bytes.Repeat([]byte{FormatFill}, 512), in)

	// Fill byte from CDB byte 2 when byte 1 bit 1 is set.
	st, _ = r.run(t, []byte{OpFormatUnit, 0x02, 0xE5, 0, 0, 0}, nil)
	require.Equal(t, scsi.StatusGood, st)
	_, in = r.run(t, rw(OpRead, 0, 0, 1), nil)
	assert.Equal(t, bytes.Repeat([]byte{0xE5}, 512), in)
	assert.Equal(t, 1, r.disk.Meta().Interleave, "interleave 0 means 1")
}

func TestBusResetAbortsTransfer(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.h.command(0, rw(OpRead, 0, 0, 8), nil, func(sched.Time) {})
	r.s.Advance(r.s.Now() + 5*sched.Millisecond)
	r.h.done = nil
	r.h.port.Drive(scsi.RST, scsi.RST)
	r.s.Advance(r.s.Now() + scsi.ResetHoldTime)
	r.h.port.Release()
	r.h.acked = false
	r.s.Advance(r.s.Now() + 100*sched.Millisecond) // stale events must not act
	assert.Equal(t, uint64(1), r.tgt.Stats.Resets)
	st, in := r.run(t, rw(OpRead, 0, 0, 2), nil)
	assert.Equal(t, scsi.StatusGood, st)
	assert.Len(t, in, 1024)
}

func TestReadOnlyIsWriteProtected(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.disk.Close()
	d, err := Open(r.path, true)
	require.NoError(t, err)
	defer d.Close()
	r.c.drives[0] = newDrive(DefaultParams(), d)
	st, _ := r.run(t, rw(OpWrite, 0, 0, 1), make([]byte, 512))
	assert.Equal(t, scsi.StatusCheckCondition, st)
	assert.Equal(t, []byte{SenseWriteProtected, 0, 0, 0}, r.senseOf(t, 0))
}

// TestFormatUnitAfterLongUptime: with the heads already on cylinder 0 the
// format must start now, not at the heads' last ready time, which after a
// long idle spell lies in the past (the format used to end before it began
// and the scheduler refused the event).
func TestFormatUnitAfterLongUptime(t *testing.T) {
	for _, idle := range []sched.Time{0, 90 * sched.Second, 1000 * sched.Second} {
		r := newRig(t, rigOpts{})
		r.s.Advance(r.s.Now() + idle)
		start := r.s.Now()
		st, _ := r.run(t, []byte{OpFormatUnit, 0, 0, 0, 5, 0}, nil)
		require.Equal(t, scsi.StatusGood, st, "idle %v", idle)
		tracks := small.Cylinders * small.Heads
		assert.Greater(t, r.s.Now()-start, sched.Time(tracks)*r.c.Revolution(), "idle %v: a revolution per track at least", idle)
	}
}
