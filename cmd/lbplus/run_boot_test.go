package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

func TestBootPhaseRule(t *testing.T) {
	s := sched.Second
	for _, tc := range []struct {
		name         string
		speed        string
		fast         bool
		now, busyIO  sched.Time
		typed, going bool
	}{
		{"booting: disk and floppy I/O", "max", true, 20 * s, 19 * s, false, true},
		{"the ROM's 5 s pause polls only the console", "max", true, 12 * s, 7 * s, false, true},
		{"waiting for a key", "max", true, 30 * s, 22 * s, false, false},
		{"a key typed", "max", true, 2 * s, 2 * s, true, false},
		{"never settles: bootMax", "max", true, 60 * s, 60 * s, false, false},
		{"--boot-speed realtime", "realtime", true, 1 * s, 1 * s, false, false},
		{"--speed max or a loaded state", "max", false, 1 * s, 1 * s, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newBootPhase(tc.speed, tc.fast, 0)
			require.NoError(t, err)
			assert.Equal(t, tc.going, p.running(tc.now, tc.busyIO, tc.typed))
			if !tc.going {
				assert.False(t, p.running(tc.now+s, tc.now+s, false), "once over, over")
			}
		})
	}
	_, err := newBootPhase("fast", true, 0)
	assert.EqualError(t, err, `--boot-speed "fast": want max or realtime`)
}

// fastBoot runs a board from reset as run's loop does during the fast
// boot, slice by slice, and returns when the fast boot ended and when the
// console first showed A> (0: not during the fast boot).
func fastBoot(tb testing.TB, scsi []scsidev.Spec) (end, prompt sched.Time) {
	rom, err := monitor.Image()
	require.NoError(tb, err)
	tr := &console.Transcript{}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = tr.Out
	cfg.SCSI = scsi
	b, err := emu.New(cfg)
	require.NoError(tb, err)
	defer b.Close()
	p, err := newBootPhase("max", true, b.Now())
	require.NoError(tb, err)
	for p.running(b.Now(), b.LastBusyIO(), false) {
		require.NoError(tb, b.RunFor(runSlice))
		if prompt == 0 && strings.Contains(tr.String(), "A>") {
			prompt = b.Now()
		}
	}
	return b.Now(), prompt
}

// The fast boot of the default machine lasts until CP/M waits at A> for a
// key: through the ROM's waits (the 1 s power-up wait and the 5 s pause
// before SCSI poll only the console) and the load, and no further than
// bootIdle past the prompt. With nothing to boot it ends at bootMax.
func TestFastBootEndsAtThePrompt(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	disk, err := defaultSystemDisk(io.Discard)
	require.NoError(t, err)
	end, prompt := fastBoot(t, []scsidev.Spec{{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}}})
	require.NotZero(t, prompt, "A> during the fast boot")
	assert.Greater(t, prompt, 10*sched.Second, "the boot's own timing is kept (the ROM's floppy attempt and 5 s pause)")
	assert.GreaterOrEqual(t, end, prompt)
	assert.LessOrEqual(t, end, prompt+bootIdle+runSlice)

	end, prompt = fastBoot(t, nil)
	assert.Zero(t, prompt)
	assert.InDelta(t, float64(bootMax), float64(end), float64(runSlice))
}

// BenchmarkFastBoot is the goal "make run reaches A> within 2 s of wall
// time": one op is a new default machine run through its fast boot to
// its end (A> and bootIdle of waiting for a key after it). ns/op is the
// wall time on this host, cpu-s/op the host CPU time.
func BenchmarkFastBoot(b *testing.B) {
	b.Setenv("XDG_DATA_HOME", b.TempDir())
	disk, err := defaultSystemDisk(io.Discard)
	require.NoError(b, err)
	spec := []scsidev.Spec{{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}}}
	b.ResetTimer()
	cpu0 := hostcpu.Process()
	for i := 0; i < b.N; i++ {
		fastBoot(b, spec)
	}
	b.ReportMetric((hostcpu.Process()-cpu0)/float64(b.N), "cpu-s/op")
}

// A piped run is over once its input has ended and the board has been
// quiet for pipeQuiet: nothing printed and no port but the console's
// touched; a program still at work on its disks keeps it going.
func TestPipeSettleWaitsForBusyIO(t *testing.T) {
	s := sched.Second
	var p pipeSettle
	p.printed(10 * s)
	assert.False(t, p.done(20*s, 19*s, 0, 0), "the input has not ended")
	p.ended = true
	assert.False(t, p.done(20*s, 19*s, 0, 0), "disk I/O 1 s ago")
	assert.False(t, p.done(20*s, 10*s, 1, 0), "a byte still waits for the DART")
	p.printed(10 * s)
	assert.False(t, p.done(11*s, 10*s, 0, 0), "printed 1 s ago")
	assert.True(t, p.done(12*s+1, 10*s, 0, 0), "quiet for pipeQuiet")
}
