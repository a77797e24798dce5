package mcd403

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

func TestCommandSet(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 4})
	tests := []struct {
		name   string
		cdb    []byte
		out    []byte
		status byte
		in     []byte
	}{
		{"test unit ready", []byte{OpTestUnitReady, 0, 0, 0, 0, 0}, nil, scsi.StatusGood, nil},
		{"inquiry", []byte{OpInquiry, 0, 0, 0, 36, 0}, nil, scsi.StatusGood,
			append([]byte{1, 0x80, 1, 0, 31, 0, 0, 0}, "3M      MCD-403         4.0 "...)},
		{"inquiry short", []byte{OpInquiry, 0, 0, 0, 2, 0}, nil, scsi.StatusGood, []byte{1, 0x80}},
		{"mode sense", []byte{OpModeSense, 0, 0, 0, 13, 0}, nil, scsi.StatusGood,
			[]byte{12, 0, 0, 8, 0, 0, 0x12, 0xF0, 0, 0, 0x20, 0, 4}},
		{"mode select same interleave", []byte{OpModeSelect, 0, 0, 0, 13, 0},
			[]byte{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x20, 0, 4}, scsi.StatusGood, nil},
		{"rewind", []byte{OpRewind, 0, 0, 0, 0, 0}, nil, scsi.StatusGood, nil},
		{"request sense after good", []byte{OpRequestSense, 0, 0, 0, 0, 0}, nil, scsi.StatusGood, []byte{0x70, 0, 0, 0}},
		{"unknown opcode", []byte{0x04, 0, 0, 0, 0, 0}, nil, scsi.StatusCheckCondition, nil},
		{"LUN 1", []byte{OpTestUnitReady, 0x20, 0, 0, 0, 0}, nil, scsi.StatusCheckCondition, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := r.run(t, tc.cdb, tc.out)
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, byte(scsi.MsgCommandComplete), res.Message)
			if tc.in != nil {
				assert.Equal(t, tc.in, res.DataIn)
			}
			if tc.status == scsi.StatusCheckCondition {
				assert.Equal(t, byte(0x70), r.senseOf(t)[0])
			}
		})
	}
}

func TestSenseOnErrors(t *testing.T) {
	tests := []struct {
		name      string
		opts      rigOpts
		cdb       []byte
		key, asc  byte
		eom       bool
		info      int // -1: information not valid
		writeData bool
	}{
		{"beyond end of tape", rigOpts{}, rw(OpRead, 4848, 1), KeyVolumeOverflow, ASCEndOfMedium, true, 4848, false},
		{"write crossing the end", rigOpts{}, rw(OpWrite, 4847, 2), KeyVolumeOverflow, ASCEndOfMedium, true, 4848, true},
		{"write protect (read-only image)", rigOpts{readOnly: true}, rw(OpWrite, 0, 1), KeyDataProtect, ASCWriteProtected, false, -1, true},
		{"no cartridge", rigOpts{noTape: true}, rw(OpRead, 0, 1), KeyNotReady, ASCNoMedium, false, -1, false},
		{"no cartridge, TUR", rigOpts{noTape: true}, []byte{0, 0, 0, 0, 0, 0}, KeyNotReady, ASCNoMedium, false, -1, false},
		{"blank block", rigOpts{}, rw(OpRead, 7, 1), KeyBlankCheck, 0, false, 7, false},
		{"bad command", rigOpts{}, []byte{0xC1, 0, 0, 0, 0, 0}, KeyIllegalRequest, ASCInvalidCommand, false, -1, false},
		{"bad LUN", rigOpts{}, []byte{OpRead, 0x40, 0, 0, 1, 0}, KeyIllegalRequest, ASCInvalidLUN, false, -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.opts)
			var out []byte
			if tc.writeData {
				out = make([]byte, 2*8192)
			}
			res := r.run(t, tc.cdb, out)
			require.Equal(t, byte(scsi.StatusCheckCondition), res.Status)
			s := r.senseOf(t)
			require.Len(t, s, 18)
			assert.Equal(t, tc.key, s[2]&0x0F, "sense key")
			assert.Equal(t, tc.eom, s[2]&0x40 != 0, "EOM")
			assert.Equal(t, tc.asc, s[12], "ASC")
			if tc.info >= 0 {
				assert.Equal(t, byte(0xF0), s[0], "valid extended sense")
				assert.Equal(t, tc.info, int(s[3])<<24|int(s[4])<<16|int(s[5])<<8|int(s[6]))
			} else {
				assert.Equal(t, byte(0x70), s[0])
			}
			// REQUEST SENSE cleared it.
			assert.Equal(t, byte(KeyNoSense), r.senseOf(t)[2])
		})
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	data := append(pattern(10, 8192), pattern(11, 8192)...)
	res := r.run(t, rw(OpWrite, 10, 2), data)
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Equal(t, 2*8192, res.DataOut)
	assert.Equal(t, uint64(2), r.d.Stats().BlocksWritten)
	res = r.run(t, rw(OpRead, 10, 2), nil)
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Equal(t, data, res.DataIn)

	// Durable before GOOD: a second process sees the blocks and the list.
	m := Meta{}
	require.NoError(t, readSidecarForTest(r.path, &m))
	assert.Equal(t, [][]int{{10, 11}}, m.Written)
	raw, err := os.ReadFile(r.path)
	require.NoError(t, err)
	assert.Equal(t, data, raw[10*8192:12*8192])
}

func TestModeSelectReformats(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, 0, 1), make([]byte, 8192)).Status)
	sel := []byte{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x20, 0, 6}
	require.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{OpModeSelect, 0, 0, 0, 13, 0}, sel).Status)
	assert.Equal(t, 6, r.d.Tape().Interleave())
	assert.False(t, r.d.Tape().Written(0), "reformatting loses the old layout's blocks")
	res := r.run(t, []byte{OpModeSense, 0, 0, 0, 13, 0}, nil)
	assert.Equal(t, byte(6), res.DataIn[12])

	bad := append([]byte(nil), sel...)
	bad[10] = 0x02 // 512-byte blocks
	assert.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, []byte{OpModeSelect, 0, 0, 0, 13, 0}, bad).Status)
	assert.Equal(t, byte(ASCInvalidParam), r.senseOf(t)[12])
	bad = append([]byte(nil), sel...)
	bad[12] = 17
	assert.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, []byte{OpModeSelect, 0, 0, 0, 13, 0}, bad).Status)
}

func TestLoadRetensions(t *testing.T) {
	r := newRig(t, rigOpts{})
	start := r.s.Now()
	res := r.run(t, []byte{OpLoad, 1, 0, 0, 1, 0}, nil) // immediate
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	res = r.run(t, []byte{OpTestUnitReady, 0, 0, 0, 0, 0}, nil)
	assert.Equal(t, byte(scsi.StatusCheckCondition), res.Status, "retensioning")
	s := r.senseOf(t)
	assert.Equal(t, []byte{KeyNotReady, ASCNotReady, ASCQBecomingReady}, []byte{s[2], s[12], s[13]})
	r.s.Advance(start + DefaultParams().RetensionTime)
	assert.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{0, 0, 0, 0, 0, 0}, nil).Status)
	res = r.run(t, []byte{OpLoad, 0, 0, 0, 1, 0}, nil) // not immediate: status after the retension
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.GreaterOrEqual(t, res.End-res.Start, DefaultParams().RetensionTime)
	assert.Equal(t, 2, r.d.Stats().Retensions)
	// Unload: the cartridge is out.
	require.Equal(t, byte(scsi.StatusGood), r.run(t, []byte{OpLoad, 0, 0, 0, 0, 0}, nil).Status)
	assert.Equal(t, byte(scsi.StatusCheckCondition), r.run(t, []byte{0, 0, 0, 0, 0, 0}, nil).Status)
	assert.Equal(t, byte(ASCNoMedium), r.senseOf(t)[12])
}

// Streaming with a host that keeps up, stop-and-reposition with one that
// does not: a fast host with a delay between blocks, at several paces.
func TestStreamingVersusRepositioning(t *testing.T) {
	p := DefaultParams()
	for _, tc := range []struct {
		k       int
		delay   sched.Time
		streams bool
	}{
		{3, 0, true},
		{3, 50 * sched.Millisecond, true},
		{3, 120 * sched.Millisecond, false},
		{4, 200 * sched.Millisecond, true},
		{4, 400 * sched.Millisecond, false},
		{6, 200 * sched.Millisecond, true},
		{6, 300 * sched.Millisecond, false}, // IdleStop, not the slot, stops it
		{12, 300 * sched.Millisecond, false},
		{2, 0, false}, // even a host taking no time cannot make 2:1 (docs/TAPE.md)
	} {
		t.Run(fmt.Sprintf("%d:1 delay %v", tc.k, tc.delay), func(t *testing.T) {
			h := simHost{name: "fast", Disk: tc.delay, Pace: 6 * sched.Microsecond}
			res := simulate(t, p, tc.k, h, 2, 3)
			if tc.streams {
				assert.Zero(t, res.repositions)
				assert.InEpsilon(t, p.StreamRate(tc.k), res.rate, 0.001, "net rate = a block per k slots and a frame gap")
			} else {
				assert.Equal(t, 3, res.repositions)
				assert.Less(t, res.rate, p.StreamRate(tc.k+1), "slower than streaming one step higher")
			}
		})
	}
}

func TestLayout(t *testing.T) {
	for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 16} {
		l := newLayout(4848, k)
		seen := make([]bool, 4848)
		for b := 0; b < 4848; b++ {
			p := l.physical(b)
			require.False(t, seen[p], "k=%d slot %d used twice", k, p)
			seen[p] = true
			require.Equal(t, b, l.logical(p))
			if b > 0 && p > 0 && l.physical(b-1) < p {
				assert.Equal(t, k, p-l.physical(b-1), "consecutive blocks k slots apart")
			}
		}
	}
}

func TestBusResetDropsUnacknowledgedBlock(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.h.Start(tapeID, rw(OpWrite, 3, 1), make([]byte, 8192), false, 0)
	r.s.Advance(r.s.Now() + 20*sched.Millisecond) // mid DATA OUT
	rst := r.bus.Attach("rst", nil)
	rst.Drive(scsi.RST, scsi.RST)
	r.s.Advance(r.s.Now() + 100*sched.Microsecond)
	rst.Drive(0, scsi.RST)
	r.s.Advance(r.s.Now() + 10*sched.Second)
	assert.False(t, r.d.Tape().Written(3))
	assert.Zero(t, r.d.Stats().BlocksWritten)
}

func TestParamsValidate(t *testing.T) {
	require.NoError(t, DefaultParams().Validate())
	p := DefaultParams()
	p.DrainChunk = 100 // does not divide 8192
	assert.Error(t, p.Validate())
	p = DefaultParams()
	p.DataTime = p.SlotTime + 1
	assert.Error(t, p.Validate())
}

func TestTraceTellsTheStory(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 3})
	var evs []string
	full := 0
	r.d.Observe(func(_ sched.Time, e string) {
		if strings.HasPrefix(e, "FIFO full") {
			full++ // the host (200 ns a byte) outruns the firmware's copy
			return
		}
		evs = append(evs, e)
	})
	require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, 0, 1), make([]byte, 8192)).Status)
	r.s.Advance(r.s.Now() + 2*sched.Second) // too late for block 1
	require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, 1, 1), make([]byte, 8192)).Status)
	assert.Equal(t, []string{
		"WRITE block 0, 1 block(s)", "block 0 complete in the buffer", "start for block 0", "slot of block 0: written",
		"block 1 not ready at its deadline: stop and back up",
		"WRITE block 1, 1 block(s)", "block 1 complete in the buffer", "restart for block 1 (reposition 1)", "slot of block 1: written",
	}, evs)
	assert.Equal(t, 2*127, full, "full after bytes 126, 190, ... 8190 of each block")
}

// Sequential reads stream when the next READ comes in time; a host that
// jumps back seeks (no reposition counted).
func TestReads(t *testing.T) {
	for _, tc := range []struct {
		k           int
		repositions int
	}{{1, 0}, {2, 0}, {3, 0}} { // 1:1 streams: the frame gap after every slot leaves a fast host the time
		t.Run(fmt.Sprintf("%d:1", tc.k), func(t *testing.T) {
			r := newRig(t, rigOpts{interleave: tc.k})
			for b := 0; b < 5; b++ {
				require.NoError(t, r.d.Tape().WriteBlock(b, pattern(b, 8192)))
			}
			var t1 sched.Time
			for b := 0; b < 5; b++ {
				res := r.run(t, rw(OpRead, b, 1), nil)
				require.Equal(t, byte(scsi.StatusGood), res.Status)
				require.Equal(t, pattern(b, 8192), res.DataIn)
				if b == 1 {
					t1 = r.s.Now()
				}
			}
			assert.Equal(t, tc.repositions, r.d.Stats().Repositions)
			if tc.repositions == 0 {
				per := (r.s.Now() - t1) / 3
				assert.Equal(t, sched.Time(tc.k)*r.d.Params().SlotTime+r.d.Params().FrameGap, per, "one block per k slots and a frame gap")
			}
			seeks := r.d.Stats().Seeks
			require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpRead, 0, 1), nil).Status)
			assert.Equal(t, tc.repositions, r.d.Stats().Repositions, "jumping back is a seek")
			assert.Equal(t, seeks+1, r.d.Stats().Seeks)
		})
	}
}

// The host's pace matters only once it is slower than the firmware's FIFO
// copy (about 8.3 us a byte): faster hosts all take 68 ms for 8 KB.
func TestHostPace(t *testing.T) {
	p := DefaultParams()
	for _, tc := range []struct {
		pace    sched.Time
		k       int
		streams bool
	}{
		{2 * sched.Microsecond, 3, true},
		{6 * sched.Microsecond, 3, true},
		{15 * sched.Microsecond, 3, true},
		{30 * sched.Microsecond, 3, false}, // 246 ms of transfer > B(3)
		{30 * sched.Microsecond, 4, true},
	} {
		t.Run(fmt.Sprintf("%v a byte at %d:1", tc.pace, tc.k), func(t *testing.T) {
			res := simulate(t, p, tc.k, simHost{name: "paced", Pace: tc.pace}, 2, 3)
			assert.Equal(t, tc.streams, res.repositions == 0, "repositions %d", res.repositions)
		})
	}
	// Transfer time of one block for a fast and a slow host.
	for _, tc := range []struct {
		pace, min, max sched.Time
	}{
		{2 * sched.Microsecond, 67 * sched.Millisecond, 70 * sched.Millisecond},
		{30 * sched.Microsecond, 245 * sched.Millisecond, 250 * sched.Millisecond},
	} {
		r := newRig(t, rigOpts{})
		ack := max(tc.pace-p.ReqAfterAck-300*sched.Nanosecond, 200*sched.Nanosecond)
		r.h.ByteDelay = func(ph scsi.Phase, _ int) sched.Time {
			if ph == scsi.DataOut {
				return ack
			}
			return 200 * sched.Nanosecond
		}
		var first, last sched.Time
		r.bus.Observe(func(now sched.Time, l scsi.Line, _ uint8) {
			if scsi.InfoPhase(l) == scsi.DataOut && l&scsi.ACK != 0 {
				if first == 0 {
					first = now
				}
				last = now
			}
		})
		require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, 0, 1), make([]byte, 8192)).Status)
		assert.True(t, last-first >= tc.min && last-first <= tc.max, "pace %v: DATA OUT took %v", tc.pace, last-first)
	}
}

// Streaming crosses a track turnaround without stopping: the block after
// it comes Turnaround later. The last block of the tape can be written;
// a far block is reached by a seek.
func TestTurnaroundEndAndSeek(t *testing.T) {
	p := DefaultParams()
	// At 3:1 logical block b sits in slot 3b (first pass); slot 404 starts
	// track 1, so blocks 134 -> 135 (slots 402 -> 405) cross it.
	r := newRig(t, rigOpts{interleave: 3})
	var at []sched.Time
	r.d.Observe(func(now sched.Time, ev string) {
		if strings.HasSuffix(ev, ": written") {
			at = append(at, now)
		}
	})
	for b := 132; b <= 137; b++ {
		require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, b, 1), make([]byte, 8192)).Status)
	}
	assert.Zero(t, r.d.Stats().Repositions)
	assert.Equal(t, uint64(1), r.d.Stats().Seeks, "the first block is a seek from the load point")
	require.Len(t, at, 6)
	k := 3*p.SlotTime + p.FrameGap
	assert.Equal(t, []sched.Time{k, k, k + p.Turnaround, k, k}, []sched.Time{at[1] - at[0], at[2] - at[1], at[3] - at[2], at[4] - at[3], at[5] - at[4]})

	res := r.run(t, rw(OpWrite, 4847, 1), pattern(4847, 8192))
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.True(t, r.d.Tape().Written(4847))
	assert.Equal(t, uint64(2), r.d.Stats().Seeks)
	assert.Less(t, res.End-res.Start, 20*60*sched.Second, "searched at SearchFactor speed")
}

// The next interleave pass starts near the load point, where a serpentine
// path with an even track count ends: going from the last block of pass 1
// to the first block of pass 2 is a short seek, not a search back over the
// whole cartridge (which took longer than BACKUP's SCSI timeout).
func TestNextPassIsNearTheEndOfThePath(t *testing.T) {
	p := DefaultParams()
	r := newRig(t, rigOpts{interleave: 3})
	last := r.d.lay.passStart[1] - 1 // last block of pass 0, in the last track
	require.Equal(t, byte(scsi.StatusGood), r.run(t, rw(OpWrite, last, 1), make([]byte, 8192)).Status)
	tr, _ := r.d.physicalAt(r.d.slotPos(r.d.lay.physical(last)))
	assert.Equal(t, p.Tracks-1, tr)
	res := r.run(t, rw(OpWrite, last+1, 1), pattern(last+1, 8192))
	require.Equal(t, byte(scsi.StatusGood), res.Status)
	assert.Less(t, res.End-res.Start, 10*sched.Second, "a seek of a few slots plus the head stepping back to track 0")
	assert.Greater(t, res.End-res.Start, sched.Time(p.Tracks-1)*p.HeadStep)
}

func TestPhysicalPlaceOnTheSerpentine(t *testing.T) {
	r := newRig(t, rigOpts{interleave: 1})
	p := r.d.p
	tr0, a0 := r.d.physicalAt(r.d.slotPos(0))
	trE, aE := r.d.physicalAt(r.d.slotPos(p.SlotsPerTrack() - 1))
	tr1, a1 := r.d.physicalAt(r.d.slotPos(p.SlotsPerTrack()))
	assert.Equal(t, []int{0, 0, 1}, []int{tr0, trE, tr1})
	assert.Less(t, a0, aE)
	assert.Greater(t, a1, aE, "track 1 starts at the far end, where track 0 ended")
	trL, aL := r.d.physicalAt(r.d.endPos())
	assert.Equal(t, p.Tracks-1, trL)
	assert.Equal(t, r.d.startOffset(), aL, "an even track count ends back at the load point")
}
