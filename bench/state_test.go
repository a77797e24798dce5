package bench

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// stateRow is the row the pause and save-state tests run: the story's
// best, which streams the tape and has every SCSI path busy.
const stateRow = "burst-hd3-8Kx1-tape3"

// statePasses keeps the runs short: 8 KB a pass, enough passes for the
// steady rate (SteadyMinPasses) and several tape repositions.
const statePasses = 8

// repositionRow is the row whose tape stops and backs up for every block.
const repositionRow = "bios-baseline"

func stateSetup(t *testing.T) Setup { return rowSetup(t, stateRow) }

func rowSetup(t testing.TB, id string) Setup {
	row, err := FindRow(id, statePasses)
	require.NoError(t, err)
	return row.Setup
}

// comparable drops what differs by construction between two runs of the
// same setup (nothing, today: every field must match).
func sameRun(t *testing.T, want, got Result) {
	t.Helper()
	assert.Equal(t, want.BytesPerSec, got.BytesPerSec, "B/s")
	assert.Equal(t, want.Repositions, got.Repositions, "repositions")
	assert.Equal(t, want.TraceHash, got.TraceHash, "trace hash")
	assert.Equal(t, want.TStates, got.TStates, "T-states")
	assert.Equal(t, want, got, "every result")
}

// TestPauseAtDataInAndResumeChangesNothing runs the rows of bench seed
// (shortened) twice: plainly, and paused from a bus observer at the first
// DATA IN phase of every READ, resumed at once. Every result, the T-state
// count and the trace hash must be equal; an observer counting REQ and ACK
// edges meanwhile counts exactly the bytes the targets moved. -short runs
// two rows.
func TestPauseAtDataInAndResumeChangesNothing(t *testing.T) {
	for _, row := range Rows(statePasses) {
		if testing.Short() && row.Name != stateRow && row.Name != repositionRow {
			continue
		}
		t.Run(row.Name, func(t *testing.T) { pauseAtDataIn(t, row.Setup) })
	}
}

func pauseAtDataIn(t *testing.T, s Setup) {
	want, err := Run(s, Options{Dir: scratch(t)})
	require.NoError(t, err)
	require.Empty(t, want.Failed)

	var targets []*scsi.Target
	pauses, reqs, acks := 0, 0, 0
	var prev scsi.Line
	got, err := Run(s, Options{Dir: scratch(t), OnStart: func(b *emu.Board) {
		for _, id := range []int{DiskID, TapeID} {
			targets = append(targets, b.SCSIDevice(id).(interface{ Target() *scsi.Target }).Target())
		}
		b.SCSIBus().Observe(func(_ sched.Time, l scsi.Line, _ uint8) {
			rise := l &^ prev
			if scsi.PhaseOf(l) == scsi.DataIn && scsi.PhaseOf(prev) != scsi.DataIn {
				pauses++
				b.Stop()
			}
			if rise&scsi.REQ != 0 {
				reqs++
			}
			if rise&scsi.ACK != 0 {
				acks++
			}
			prev = l
		})
	}})
	require.NoError(t, err)
	sameRun(t, want, got)
	assert.GreaterOrEqual(t, pauses, statePasses, "a DATA IN phase per disk READ at least")

	var moved uint64
	for _, tgt := range targets {
		moved += tgt.Stats.BytesIn + tgt.Stats.BytesOut
	}
	assert.Greater(t, moved, uint64(2*statePasses*8192))
	assert.Equal(t, moved, uint64(reqs), "one REQ per byte")
	assert.Equal(t, moved, uint64(acks), "one ACK per byte")
}

// TestSaveStateRestoreInNewProcess saves the machine at random times in
// the middle of the row, restores each state in a new process (this test
// binary again, running TestRestoreChild) and finishes there: the same
// B/s, repositions, trace hash and every other result as the uninterrupted
// run. The saving run itself goes on after the save and must not change
// either. LBPLUS_STATE_SEED picks other times.
func TestSaveStateRestoreInNewProcess(t *testing.T) {
	for _, id := range []string{stateRow, repositionRow} {
		t.Run(id, func(t *testing.T) { saveRestore(t, id) })
	}
}

func saveRestore(t *testing.T, id string) {
	s := rowSetup(t, id)
	want, err := Run(s, Options{Dir: scratch(t)})
	require.NoError(t, err)
	require.Empty(t, want.Failed)
	if id == repositionRow {
		require.Greater(t, want.Repositions, 0)
	}

	seed := uint64(1990)
	if v, err := strconv.ParseUint(os.Getenv("LBPLUS_STATE_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	times := 3
	if testing.Short() {
		times = 1
	}
	for i := range times {
		// Anywhere between 10% and 90% of the row: tape streaming or
		// repositioning, disk transfers, the program between commands.
		at := sched.Time(float64(want.BoardTime) * (0.1 + 0.8*rng.Float64()))
		dir := filepath.Join(scratch(t), "saved")
		saver, err := Run(s, Options{Dir: scratch(t), SaveAt: at, SaveTo: dir})
		require.NoError(t, err)
		sameRun(t, want, saver)

		cmd := exec.Command(os.Args[0], "-test.run=^TestRestoreChild$", "-test.v")
		cmd.Env = append(os.Environ(), "LBPLUS_RESTORE_DIR="+dir, "LBPLUS_RESTORE_ROW="+id)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "restore %d at %v:\n%s", i, at, out)
		data, err := os.ReadFile(filepath.Join(dir, "result.json"))
		require.NoError(t, err, "%s", out)
		var got Result
		require.NoError(t, json.Unmarshal(data, &got))
		t.Logf("saved at %v (seed %d), restored in pid %d: %.1f B/s, %d repositions, trace hash %016x",
			at, seed, cmd.ProcessState.Pid(), got.BytesPerSec, got.Repositions, got.TraceHash)
		sameRun(t, want, got)
	}
}

// TestRestoreChild is the new process of TestSaveStateRestoreInNewProcess:
// it runs only when LBPLUS_RESTORE_DIR names a saved state.
func TestRestoreChild(t *testing.T) {
	dir := os.Getenv("LBPLUS_RESTORE_DIR")
	if dir == "" {
		t.Skip("run by TestSaveStateRestoreInNewProcess")
	}
	r, err := Run(rowSetup(t, os.Getenv("LBPLUS_RESTORE_ROW")), Options{Dir: scratch(t), LoadFrom: dir})
	require.NoError(t, err)
	data, err := json.Marshal(r)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "result.json"), data, 0o644))
}

// TestLoadStateRefusesAChangedImage: a state loaded against an image that
// changed since the save is one clear error, not a run on other data.
func TestLoadStateRefusesAChangedImage(t *testing.T) {
	s := stateSetup(t)
	dir := filepath.Join(scratch(t), "saved")
	_, err := Run(s, Options{Dir: scratch(t), SaveAt: 200 * sched.Millisecond, SaveTo: dir})
	require.NoError(t, err)
	imgs, err := filepath.Glob(filepath.Join(dir, "*.img"))
	require.NoError(t, err)
	require.Len(t, imgs, 1)
	f, err := os.OpenFile(imgs[0], os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{0xFF}, 12345)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	_, err = Run(s, Options{Dir: scratch(t), LoadFrom: dir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has changed since the state was saved")
	assert.Contains(t, err.Error(), filepath.Base(imgs[0]))
}

// attachIdleObservers attaches what a debugger holds while it waits for
// something rare, one on every kind of hook: a bus reset or a selection,
// a 5380 interrupt reset (register 7), a write to the board's latch, a
// named scheduler event (the CTC's channel 3), every sector of the
// ACB-4000 and every decision of the MCD-403. (Memory and instruction
// observers are never idle: they take the CPU off its fast path, the price
// of seeing every access.)
func attachIdleObservers(b *emu.Board) {
	n := 0
	count := func() { n++ }
	b.SCSIBus().ObserveLines(scsi.RST|scsi.SEL, func(sched.Time, scsi.Line, uint8) { count() })
	b.NCR5380().ObserveRegs(1<<ncr5380.RegReset, func(sched.Time, ncr5380.Access) { count() })
	b.ObservePorts(0x00, 0x00, func(uint64, uint16, uint8, bool) { count() })
	b.Sched().ObserveEvent(b.CTC().ZeroCountEvent(3), func(sched.Time, *sched.Event) { count() })
	b.SCSIDevice(DiskID).(*acb4000.Controller).ObserveSectors(func(acb4000.SectorEvent) { count() })
	b.SCSIDevice(TapeID).(*mcd403.Drive).Observe(func(sched.Time, string) { count() })
}

// attachWatchAll attaches an observer that does nothing to every event,
// bus change, 5380 access and I/O access: the cost of seeing everything.
func attachWatchAll(b *emu.Board) {
	b.Sched().Observe(func(sched.Time, *sched.Event) {})
	b.SCSIBus().Observe(func(sched.Time, scsi.Line, uint8) {})
	b.NCR5380().Observe(func(sched.Time, ncr5380.Access) {})
	b.ObserveIO(func(uint64, uint16, uint8, bool) {})
}

// BenchmarkIdleObservers runs the story's best row with no observers, with
// idle ones attached and with watch-everything ones, in turn in one
// benchmark so all see the same machine load, and reports the CPU time of
// the emulation alone (from the start of the program to the end of the
// run; the images' creation is left out): idle_overhead_% and
// watch_all_overhead_%, the fastest run of each against the fastest
// without (the minimum is what a loaded host disturbs least). The goal for
// idle observers is under 2.
func BenchmarkIdleObservers(b *testing.B) {
	s := rowSetup(b, stateRow)
	dir := scratch(b)
	cpu := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	var hash [3]uint64
	for b.Loop() {
		for i, attach := range []func(*emu.Board){nil, attachIdleObservers, attachWatchAll} {
			var t0 float64
			r, err := Run(s, Options{Dir: dir, OnStart: func(bd *emu.Board) {
				if attach != nil {
					attach(bd)
				}
				t0 = hostcpu.Process()
			}})
			cpu[i] = min(cpu[i], hostcpu.Process()-t0)
			if err != nil || r.Failed != "" {
				b.Fatal(err, r.Failed)
			}
			hash[i] = r.TraceHash
		}
	}
	if hash[0] != hash[1] || hash[0] != hash[2] {
		b.Fatalf("observers changed the run: trace hash %016x, %016x, %016x", hash[0], hash[1], hash[2])
	}
	b.ReportMetric(100*(cpu[1]-cpu[0])/cpu[0], "idle_overhead_%")
	b.ReportMetric(100*(cpu[2]-cpu[0])/cpu[0], "watch_all_overhead_%")
}

// TestPauseAtEveryCallbackChangesNothing pauses the machine from every
// observer callback there is (each scheduler event, bus change, 5380
// access and I/O access: millions of pauses) and resumes at once: the run
// is identical to one never paused. -short runs one row.
func TestPauseAtEveryCallbackChangesNothing(t *testing.T) {
	for _, id := range []string{stateRow, repositionRow} {
		if testing.Short() && id != stateRow {
			continue
		}
		t.Run(id, func(t *testing.T) {
			s := rowSetup(t, id)
			want, err := Run(s, Options{Dir: scratch(t)})
			require.NoError(t, err)
			pauses := 0
			pause := func(b *emu.Board) { pauses++; b.Stop() }
			got, err := Run(s, Options{Dir: scratch(t), OnStart: func(b *emu.Board) {
				b.SCSIBus().Observe(func(sched.Time, scsi.Line, uint8) { pause(b) })
				b.NCR5380().Observe(func(sched.Time, ncr5380.Access) { pause(b) })
				b.Sched().Observe(func(sched.Time, *sched.Event) { pause(b) })
				b.ObserveIO(func(uint64, uint16, uint8, bool) { pause(b) })
			}})
			require.NoError(t, err)
			sameRun(t, want, got)
			assert.Greater(t, pauses, 1_000_000)
		})
	}
}

// TestDevicePathsAllocateNothingPerByte: in the middle of a backup row,
// with the disk and the tape both transferring through their saveable
// continuations, half a second of machine time (thousands of bytes) allocates
// next to nothing: no closure, event or buffer per byte.
func TestDevicePathsAllocateNothingPerByte(t *testing.T) {
	s := rowSetup(t, stateRow)
	var allocs float64
	var moved uint64
	_, err := Run(s, Options{Dir: scratch(t), OnStart: func(b *emu.Board) {
		require.NoError(t, b.RunFor(1500*sched.Millisecond)) // into the steady state
		var tgts []*scsi.Target
		for _, id := range []int{DiskID, TapeID} {
			tgts = append(tgts, b.SCSIDevice(id).(interface{ Target() *scsi.Target }).Target())
		}
		bytes := func() (n uint64) {
			for _, tg := range tgts {
				n += tg.Stats.BytesIn + tg.Stats.BytesOut
			}
			return n
		}
		before := bytes()
		allocs = testing.AllocsPerRun(1, func() { require.NoError(t, b.RunFor(500*sched.Millisecond)) })
		moved = bytes() - before
	}})
	require.NoError(t, err)
	require.Greater(t, moved, uint64(1000))
	assert.Less(t, allocs/float64(moved), 0.01, "%.0f allocations for %d bytes", allocs, moved)
	t.Logf("%.0f allocations for %d bytes", allocs, moved)
}
