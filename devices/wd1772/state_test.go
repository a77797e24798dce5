package wd1772

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// A state taken at any instant of a command and set into a fresh chip,
// drive and scheduler finishes exactly as the uninterrupted run: same
// bytes, same end time, same status.
func TestStateRestoreMidCommand(t *testing.T) {
	type run struct {
		name  string
		setup func(r *rig)
		cmd   byte
	}
	runs := []run{
		{"read sector", func(r *rig) { r.f.Write(RegSector, 21) }, 0x88},
		{"write sector", func(r *rig) { r.f.Write(RegSector, 22); r.out = make([]byte, 512) }, 0xA8},
		{"seek verify", func(r *rig) { r.f.Write(RegData, 4) }, 0x1C},
		{"read address", func(r *rig) {}, 0xC0},
		{"read track", func(r *rig) {}, 0xE8},
	}
	for _, rc := range runs {
		// The uninterrupted run.
		ref := newRig(t, amp2(), false)
		ref.lag = 2 * us
		rc.setup(ref)
		ref.cmd(0, rc.cmd)
		end, ok := ref.waitIdle(5 * sched.Second)
		require.True(t, ok, rc.name)
		for _, cut := range []sched.Time{end / 7, end / 3, end / 2, end - 40*us} {
			a := newRig(t, amp2(), false)
			a.lag = 2 * us
			rc.setup(a)
			a.cmd(0, rc.cmd)
			a.s.Advance(cut)
			ss, err := a.s.State()
			require.NoError(t, err, "%s at %v", rc.name, cut)
			fs, ds := a.f.State(), a.d.State()

			b := newRig(t, amp2(), false)
			b.lag = 2 * us
			b.got = append([]byte(nil), a.got...)
			b.out = append([]byte(nil), a.out...)
			// The disk as a had written it so far.
			*b.media.Store().Disk() = *a.media.Store().Disk()
			require.NoError(t, b.s.SetState(ss))
			require.NoError(t, b.d.SetState(ds))
			require.NoError(t, b.f.SetState(fs, b.d))
			got, ok := b.waitIdle(5 * sched.Second)
			require.True(t, ok, "%s at %v", rc.name, cut)
			assert.Equal(t, end, got, "%s at %v", rc.name, cut)
			assert.Equal(t, ref.got, b.got, "%s at %v", rc.name, cut)
			assert.Equal(t, ref.f.Peek(RegStatus), b.f.Peek(RegStatus), "%s at %v", rc.name, cut)
			assert.Equal(t, ref.f.State(), b.f.State(), "%s at %v", rc.name, cut)
		}
	}
}
