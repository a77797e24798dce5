package scsihd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// The debugger's panel shows the head, the transfer and the read-ahead,
// and looking changes nothing.
func TestPanel(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.run(t, rw6(OpRead6, 0, 1), nil)
	res := r.h.Start(0, rw10(OpRead10, 100, 20), nil, false, 0)
	for r.d.Stats().BlocksRead < 5 {
		r.s.Advance(r.s.Next())
	}
	before := r.d.State()
	text := r.d.PanelTitle(3) + "\n" + strings.Join(r.d.PanelLines(r.s.Now()), "\n")
	assert.Equal(t, before, r.d.State(), "looking changes nothing")
	assert.Contains(t, text, "SCSI disk (ST225N) at SCSI ID 3\n")
	assert.Contains(t, text, "370 blocks, 6 cylinders x 4 heads x 17 sectors; spinning; cylinder 1 head 2")
	assert.Contains(t, text, "READ LBA 100 x20: disk 4, host ")
	assert.NotContains(t, text, "read ahead", "the READ elsewhere took the buffer over")
	assert.Contains(t, text, "commands 2, checks 0; blocks read 5 (from read-ahead 0), written 0; seeks 1")
	for !res.Done {
		r.s.Advance(r.s.Next())
	}
	lines := r.d.PanelLines(r.s.Now())
	assert.Contains(t, lines, "no transfer")
	assert.Contains(t, strings.Join(lines, "\n"), "read ahead: LBA 120-")
	r.s.Advance(r.s.Now() + sched.Millisecond)
	require.NotEmpty(t, lines)
}

// BenchmarkSequentialRead is the host cost of the model: one cylinder (68
// blocks) read by a fast initiator, per iteration.
func BenchmarkSequentialRead(b *testing.B) {
	r := newRig(b, rigOpts{})
	cdb := rw10(OpRead10, 0, 68)
	b.SetBytes(68 * BlockSize)
	for i := 0; i < b.N; i++ {
		if res := r.h.Run(0, cdb, nil, false, 0, 60*sched.Second); !res.Done {
			b.Fatal("READ did not complete")
		}
	}
}

// Platters tells where the platter is: degrees past the index, the time
// to the next index, the block whose slot is under the head through the
// track skew; a stopped spindle has none.
func TestPlatters(t *testing.T) {
	r := newRig(t, rigOpts{})
	r.run(t, rw10(OpRead10, 100, 1), nil) // cylinder 1, head 1, sector 15
	m := r.d.m
	now := r.s.Now()
	ps := r.d.Platters(now)
	require.Len(t, ps, 1)
	assert.Equal(t, [2]int{1, 1}, [2]int{ps[0].Cyl, ps[0].Head})
	assert.InDelta(t, float64(m.rev)*(360-ps[0].Angle)/360, float64(ps[0].ToIndex), float64(sched.Nanosecond))
	at := m.slotStart(m.slot(1, 1, 15), now) + sched.Nanosecond
	got := r.d.Platters(at)[0]
	assert.Equal(t, int64(100), got.LBA)
	assert.InDelta(t, 360*float64(m.slot(1, 1, 15))/17, got.Angle, 0.001)
	idx := m.slotStart(0, now)
	got = r.d.Platters(idx)[0]
	assert.Equal(t, 0.0, got.Angle)
	assert.Equal(t, m.rev, got.ToIndex)
	assert.Equal(t, int64(85)+int64((17-m.slot(1, 1, 0))%17), got.LBA, "track 5's sector in slot 0")
	r.run(t, []byte{0x1B, 0, 0, 0, 0, 0}, nil) // START STOP UNIT: stop
	assert.Empty(t, r.d.Platters(r.s.Now()))
}
