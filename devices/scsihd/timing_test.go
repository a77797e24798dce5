package scsihd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The seek curve passes through the drive's three figures, whatever the
// image's size, and never falls with distance.
func TestSeekCurve(t *testing.T) {
	p := DefaultParams()
	for _, tt := range []struct {
		name   string
		blocks int64
	}{
		{"ST-225N size, 615 cylinders", 615 * 68},
		{"64 MiB", 64 << 11},
		{"1 GiB", 1 << 21},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newMech(p, tt.blocks)
			full := m.cylinders - 1
			assert.Equal(t, sched.Time(0), m.seek(0))
			assert.Equal(t, p.TrackToTrack, m.seek(1))
			assert.Equal(t, p.TrackToTrack, m.seek(-1))
			assert.Equal(t, p.AverageSeek, m.seek(full/3))
			assert.Equal(t, p.FullStroke, m.seek(full))
			for d := 2; d <= full; d += 1 + full/500 {
				require.GreaterOrEqual(t, m.seek(d), m.seek(d-1), "distance %d", d)
			}
		})
	}
	assert.Equal(t, 615, newMech(p, 615*68).cylinders)
	assert.Equal(t, 30841, newMech(p, 1<<21).cylinders, "the last cylinder partial")
}

// Where blocks lie: a track, then the next head, then the next cylinder;
// each track skewed one slot.
func TestLayout(t *testing.T) {
	m := newMech(DefaultParams(), rigBlocks)
	for _, tt := range []struct {
		b                    int64
		cyl, head, sec, slot int
	}{
		{0, 0, 0, 0, 0}, {16, 0, 0, 16, 16}, {17, 0, 1, 0, 1}, {33, 0, 1, 16, 0},
		{68, 1, 0, 0, 4}, {69, 1, 0, 1, 5}, {rigBlocks - 1, 5, 1, 12, 16},
	} {
		cyl, head, sec := m.chs(tt.b)
		assert.Equal(t, []int{tt.cyl, tt.head, tt.sec, tt.slot}, []int{cyl, head, sec, m.slot(cyl, head, sec)}, "block %d", tt.b)
	}
	rev := m.rev
	assert.Equal(t, sched.Time(16_666_666_666), rev, "3600 rpm")
	var sum sched.Time
	for s := 0; s < 17; s++ {
		sum += m.slotLen(s)
		assert.Equal(t, m.slotStart(s, 0)+m.slotLen(s), m.slotStart((s+1)%17, 0)+map[bool]sched.Time{true: rev}[s == 16])
	}
	assert.Equal(t, rev, sum, "the slots make a revolution")
	assert.Equal(t, rev, m.slotStart(0, 1), "slot 0 has just begun at 0: the next is a turn later")
}

// slot is one seventeenth of a revolution.
var slot = DefaultParams().Revolution() / 17

// A fast host reads a cylinder in one pass: 68 slots plus one per head
// switch (the skew), after at most a revolution's wait. A slow host sets
// the pace: the buffer lets the platter run ahead, then waits for room.
func TestReadStreams(t *testing.T) {
	for _, tt := range []struct {
		name     string
		ack      sched.Time // host: REQ -> ACK
		min, max sched.Time
	}{
		{"fast host", 200 * sched.Nanosecond, 71*slot + sched.Millisecond, 71*slot + 17*slot + 3*sched.Millisecond},
		{"slow host, 5 us a byte", 5 * sched.Microsecond, 68 * 512 * 5 * sched.Microsecond, 68*512*6*sched.Microsecond + 17*slot},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, rigOpts{})
			r.h.AckDelay = tt.ack
			res := r.run(t, rw10(OpRead10, 0, 68), nil)
			require.Equal(t, byte(scsi.StatusGood), res.Status)
			assert.Equal(t, r.data[:68*512], res.DataIn)
			took := res.End - res.Start
			assert.GreaterOrEqual(t, took, tt.min)
			assert.LessOrEqual(t, took, tt.max)
			t.Logf("%s: %v", tt.name, took)
		})
	}
}

// After a READ the drive reads ahead: the next block is in the buffer when
// the next READ asks for it. Without read-ahead that READ waits for its
// slot to come round again.
func TestReadAhead(t *testing.T) {
	for _, tt := range []struct {
		name     string
		ahead    int
		hits     uint64
		min, max sched.Time
	}{
		{"read-ahead", 16, 2, 0, 4 * sched.Millisecond},
		{"none", 0, 0, 12 * sched.Millisecond, 20 * sched.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			p.ReadAheadBlocks = tt.ahead
			r := newRig(t, rigOpts{params: &p})
			require.Equal(t, r.data[:512], r.run(t, rw6(OpRead6, 0, 1), nil).DataIn)
			res := r.run(t, rw6(OpRead6, 1, 2), nil)
			assert.Equal(t, r.data[512:3*512], res.DataIn)
			assert.Equal(t, tt.hits, r.d.Stats().CacheHits)
			took := res.End - res.Start
			assert.GreaterOrEqual(t, took, tt.min)
			assert.LessOrEqual(t, took, tt.max)
			t.Logf("%s: %v", tt.name, took)
		})
	}
}

// A seek elsewhere ends the read-ahead; blocks read ahead before it stay.
func TestReadAheadStopsAtASeek(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.run(t, rw6(OpRead6, 0, 1), nil)
	r.s.Advance(r.s.Now() + 20*sched.Millisecond) // idle: the track passes
	r.run(t, rw6(OpSeek6, 300, 0), nil)
	seg := r.d.State().Segment
	assert.Equal(t, int64(1), seg.First)
	assert.Equal(t, int64(17), seg.End, "the rest of the track was in before the seek")
	res := r.run(t, rw6(OpRead6, 16, 1), nil)
	assert.Equal(t, r.data[16*512:17*512], res.DataIn)
	assert.Equal(t, uint64(1), r.d.Stats().CacheHits, "served from the buffer though the head is away")
	assert.Equal(t, uint64(1), r.d.Stats().Seeks, "and without a seek back")
}

// The same commands give the same times to the picosecond.
func TestDeterministic(t *testing.T) {
	var ends [2][]sched.Time
	for i := range ends {
		r := newRig(t, rigOpts{})
		for _, cdb := range [][]byte{rw6(OpRead6, 0, 3), rw10(OpRead10, 200, 30), rw6(OpWrite6, 40, 2), rw6(OpSeek6, 360, 0), rw6(OpRead6, 3, 1)} {
			ends[i] = append(ends[i], r.run(t, cdb, make([]byte, 1024)).End)
		}
	}
	assert.Equal(t, ends[0], ends[1])
}
