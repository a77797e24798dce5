package scsihd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Every command of the set, with what it returns and the sense it leaves:
// GOOD with the data a host reads, or CHECK CONDITION with key and code.
func TestCommands(t *testing.T) {
	last := int64(rigBlocks - 1)
	for _, tt := range []struct {
		name   string
		cdb    []byte
		out    []byte
		status byte
		data   func(r *rig) []byte // nil: no DATA IN
		check  func(t *testing.T, in []byte)
		key    byte
		asc    byte
		info   int64 // -1: not valid
	}{
		{name: "test unit ready", cdb: []byte{OpTestUnitReady, 0, 0, 0, 0, 0}},
		{name: "rezero", cdb: []byte{OpRezeroUnit, 0, 0, 0, 0, 0}},
		{name: "seek", cdb: rw6(OpSeek6, 200, 0)},
		{name: "seek past the end", cdb: rw6(OpSeek6, rigBlocks, 0), status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCBadBlock, info: rigBlocks},
		{name: "read(6) one block", cdb: rw6(OpRead6, 5, 1), data: func(r *rig) []byte { return r.data[5*512 : 6*512] }},
		{name: "read(6) count 0 is 256", cdb: rw6(OpRead6, 7, 0), data: func(r *rig) []byte { return r.data[7*512 : 263*512] }},
		{name: "read(10) three blocks", cdb: rw10(OpRead10, 10, 3), data: func(r *rig) []byte { return r.data[10*512 : 13*512] }},
		{name: "read(10) the last block", cdb: rw10(OpRead10, last, 1), data: func(r *rig) []byte { return r.data[last*512:] }},
		{name: "read(10) count 0 moves nothing", cdb: rw10(OpRead10, 10, 0)},
		{name: "read(6) past the end", cdb: rw6(OpRead6, rigBlocks, 1), status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCBadBlock, info: rigBlocks},
		{name: "read(10) across the end: the first block missing", cdb: rw10(OpRead10, last, 2), status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCBadBlock, info: rigBlocks},
		{name: "verify", cdb: rw10(OpVerify10, 3, 40)},
		{name: "verify with byte compare", cdb: []byte{OpVerify10, 2, 0, 0, 0, 3, 0, 0, 1, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidField, info: -1},
		{name: "read capacity", cdb: []byte{OpReadCapacity, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			data: func(*rig) []byte { return []byte{0, 0, byte(last >> 8), byte(last), 0, 0, 2, 0} }},
		{name: "inquiry", cdb: []byte{OpInquiry, 0, 0, 0, 36, 0}, check: func(t *testing.T, in []byte) {
			require.Len(t, in, 36)
			assert.Equal(t, byte(0), in[0], "direct access, LUN present")
			assert.Equal(t, "SEAGATE ST225N          1.0 ", string(in[8:36]))
		}},
		{name: "inquiry, short allocation", cdb: []byte{OpInquiry, 0, 0, 0, 5, 0}, check: func(t *testing.T, in []byte) {
			assert.Equal(t, []byte{0, 0, 1, 1, 31}, in)
		}},
		{name: "inquiry of LUN 1", cdb: []byte{OpInquiry, 1 << 5, 0, 0, 36, 0}, check: func(t *testing.T, in []byte) {
			assert.Equal(t, byte(0x7F), in[0])
		}},
		{name: "inquiry EVPD", cdb: []byte{OpInquiry, 1, 0, 0, 36, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidField, info: -1},
		{name: "LUN 1", cdb: []byte{OpTestUnitReady, 1 << 5, 0, 0, 0, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidLUN, info: -1},
		{name: "write buffer is not in the set", cdb: []byte{0x3B, 0, 0, 0, 0, 0, 0, 0, 0, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidCommand, info: -1},
		{name: "mode sense, geometry page", cdb: []byte{OpModeSense6, 0, pageGeometry, 0, 255, 0}, check: func(t *testing.T, in []byte) {
			require.Len(t, in, 4+8+24)
			assert.Equal(t, byte(len(in)-1), in[0])
			assert.Equal(t, []byte{0, 0, 0x01, 0x72, 0, 0, 2, 0}, in[4:12], "block descriptor: 370 blocks of 512")
			assert.Equal(t, []byte{4, 22, 0, 0, 6, 4}, in[12:18], "6 cylinders, 4 heads")
			assert.Equal(t, []byte{0x0E, 0x10}, in[32:34], "3600 rpm")
		}},
		{name: "mode sense, format page without descriptor", cdb: []byte{OpModeSense6, 0x08, pageFormat, 0, 255, 0}, check: func(t *testing.T, in []byte) {
			require.Len(t, in, 4+24)
			assert.Equal(t, byte(0), in[3])
			assert.Equal(t, []byte{3, 22, 0, 4}, in[4:8], "a zone is a cylinder of 4 tracks")
			assert.Equal(t, []byte{0, 17, 2, 0, 0, 1, 0, 1}, in[14:22], "17 sectors of 512, 1:1, skew 1")
		}},
		{name: "mode sense, all pages", cdb: []byte{OpModeSense6, 0, pageAll, 0, 255, 0}, check: func(t *testing.T, in []byte) {
			assert.Len(t, in, 4+8+8+24+24)
		}},
		{name: "mode sense, changeable values", cdb: []byte{OpModeSense6, 0x08, 0x40 | pageGeometry, 0, 255, 0}, check: func(t *testing.T, in []byte) {
			assert.Equal(t, make([]byte, 22), in[6:], "nothing can be changed")
		}},
		{name: "mode sense, no such page", cdb: []byte{OpModeSense6, 0, 0x08, 0, 255, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidField, info: -1},
		{name: "mode select 512-byte blocks", cdb: []byte{OpModeSelect6, 0, 0, 0, 12, 0}, out: []byte{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 2, 0}},
		{name: "mode select 1024-byte blocks", cdb: []byte{OpModeSelect6, 0, 0, 0, 12, 0}, out: []byte{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 4, 0},
			status: scsi.StatusCheckCondition, key: KeyIllegalRequest, asc: ASCInvalidParam, info: -1},
		{name: "mode select, descriptor longer than the list", cdb: []byte{OpModeSelect6, 0, 0, 0, 4, 0}, out: []byte{0, 0, 0, 8},
			status: scsi.StatusCheckCondition, key: KeyIllegalRequest, asc: ASCInvalidParam, info: -1},
		{name: "format with interleave 2", cdb: []byte{OpFormatUnit, 0, 0, 0, 2, 0}, status: scsi.StatusCheckCondition,
			key: KeyIllegalRequest, asc: ASCInvalidField, info: -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, rigOpts{})
			res := r.run(t, tt.cdb, tt.out)
			require.Equal(t, tt.status, res.Status)
			switch {
			case tt.data != nil:
				assert.Equal(t, tt.data(r), res.DataIn)
			case tt.check != nil:
				tt.check(t, res.DataIn)
			default:
				assert.Empty(t, res.DataIn)
			}
			s := r.sense(t)
			assert.Equal(t, tt.key, s[2]&0x0F, "sense key")
			assert.Equal(t, tt.asc, s[12], "ASC")
			if tt.status == scsi.StatusCheckCondition {
				assert.Equal(t, uint64(1), r.d.Stats().Checks)
				if tt.info >= 0 {
					assert.Equal(t, byte(0xF0), s[0], "information valid")
					assert.Equal(t, []byte{byte(tt.info >> 24), byte(tt.info >> 16), byte(tt.info >> 8), byte(tt.info)}, s[3:7])
				} else {
					assert.Equal(t, byte(0x70), s[0])
				}
			}
			assert.Equal(t, make([]byte, senseLength-8), r.sense(t)[8:], "REQUEST SENSE clears it")
		})
	}
}

// REQUEST SENSE with allocation length 0 returns the first 4 bytes [F
// SCSI-1].
func TestRequestSenseZeroAllocation(t *testing.T) {
	r := newRig(t, rigOpts{})
	require.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, []byte{0x3B, 0, 0, 0, 0, 0, 0, 0, 0, 0}, nil).Status)
	res := r.run(t, []byte{OpRequestSense, 0, 0, 0, 0, 0}, nil)
	assert.Equal(t, []byte{0x70, 0, KeyIllegalRequest, 0}, res.DataIn)
}

// Blocks written come back, land in the image at their LBA and are synced
// before GOOD; a read-only image refuses writes and FORMAT.
func TestWriteReadBack(t *testing.T) {
	data := make([]byte, 40*512) // more than the buffer holds
	for i := range data {
		data[i] = byte(i*13 + i/512*29 + 5) // differs block to block
	}
	for _, buffer := range []int{16, 2} {
		p := DefaultParams()
		p.BufferBlocks, p.ReadAheadBlocks = buffer, buffer
		r := newRig(t, rigOpts{params: &p})
		require.Equal(t, byte(scsi.StatusGood), r.run(t, rw10(OpWrite10, 100, 40), data).Status)
		require.Equal(t, byte(scsi.StatusGood), r.run(t, rw6(OpWrite6, 3, 1), data[:512]).Status)
		res := r.run(t, rw10(OpRead10, 100, 40), nil)
		assert.Equal(t, data, res.DataIn, "buffer of %d blocks", buffer)
		res = r.run(t, rw6(OpRead6, 2, 3), nil)
		assert.Equal(t, r.data[2*512:3*512], res.DataIn[:512])
		assert.Equal(t, data[:512], res.DataIn[512:1024])
		assert.Equal(t, uint64(41), r.d.Stats().BlocksWritten)
	}
	r := newRig(t, rigOpts{})
	require.Equal(t, byte(scsi.StatusGood), r.run(t, rw10(OpWrite10, 100, 40), data).Status)
	var block [512]byte
	require.NoError(t, r.d.disk.f.ReadBlock(139, block[:]))
	assert.Equal(t, data[39*512:], block[:])

	ro := newRig(t, rigOpts{readOnly: true})
	for _, cdb := range [][]byte{rw10(OpWrite10, 0, 1), {OpFormatUnit, 0, 0, 0, 0, 0}} {
		require.Equal(t, byte(scsi.StatusCheckCondition), ro.run(t, cdb, data[:512]).Status)
		s := ro.sense(t)
		assert.Equal(t, []byte{KeyDataProtect, ASCWriteProtected}, []byte{s[2], s[12]})
	}
	sense := ro.run(t, []byte{OpModeSense6, 0, 0, 0, 4, 0}, nil).DataIn
	assert.Equal(t, byte(0x80), sense[2], "MODE SENSE says write protected")
	assert.Equal(t, ro.data[:512], ro.run(t, rw6(OpRead6, 0, 1), nil).DataIn)
}

// FORMAT UNIT leaves zeros, with or without a (ignored) defect list, and
// takes the time of every track.
func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		name string
		cdb  []byte
		out  []byte
	}{
		{"plain", []byte{OpFormatUnit, 0, 0, 0, 0, 0}, nil},
		{"interleave 1", []byte{OpFormatUnit, 0, 0, 0, 1, 0}, nil},
		{"empty defect list", []byte{OpFormatUnit, 0x10, 0, 0, 0, 0}, []byte{0, 0, 0, 0}},
		{"a defect", []byte{OpFormatUnit, 0x10, 0, 0, 0, 0}, []byte{0, 0, 0, 4, 0, 0, 0, 9}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, rigOpts{})
			res := r.run(t, tt.cdb, tt.out)
			require.Equal(t, byte(scsi.StatusGood), res.Status)
			assert.Equal(t, len(tt.out), res.DataOut)
			rev := DefaultParams().Revolution()
			tracks := sched.Time(6 * 4)
			assert.GreaterOrEqual(t, res.End-res.Start, tracks*2*rev, "two revolutions a track")
			assert.Less(t, res.End-res.Start, tracks*2*rev+6*DefaultParams().TrackToTrack+10*sched.Millisecond)
			assert.Equal(t, make([]byte, 3*512), r.run(t, rw6(OpRead6, 100, 3), nil).DataIn)
		})
	}
}

// A stopped drive is not ready until started; a start takes SpinUp, and
// with Immed the host sees "becoming ready" meanwhile.
func TestStartStop(t *testing.T) {
	r := newRig(t, rigOpts{})
	notReady := func(ascq byte) {
		t.Helper()
		require.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, []byte{OpTestUnitReady, 0, 0, 0, 0, 0}, nil).Status)
		s := r.sense(t)
		assert.Equal(t, []byte{KeyNotReady, ASCNotReady, ascq}, []byte{s[2], s[12], s[13]})
	}
	require.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{OpStartStopUnit, 0, 0, 0, 0, 0}, nil).Status)
	notReady(ASCQStartNeeded)
	require.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, rw6(OpRead6, 0, 1), nil).Status)
	r.sense(t)
	require.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{OpStartStopUnit, 1, 0, 0, 1, 0}, nil).Status)
	notReady(ASCQBecomingReady)
	res := r.run(t, []byte{OpStartStopUnit, 0, 0, 0, 1, 0}, nil)
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Greater(t, res.End-res.Start, 9*sched.Second, "a start without Immed waits for the spindle")
	require.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{OpTestUnitReady, 0, 0, 0, 0, 0}, nil).Status)
	assert.Equal(t, r.data[:512], r.run(t, rw6(OpRead6, 0, 1), nil).DataIn)
}
