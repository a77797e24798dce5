package debugger

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/hostcpu"
)

// benchRow runs the story's best row (burst, 8K x1, 3:1, tape 3:1) b.N
// times, with the debugger attached and recording when debug is set, and
// reports the emulation speed in millions of T-states per second of host
// time and of this process's CPU time (the target with recording on: at
// least 100). Every op includes making the images.
func benchRow(b *testing.B, debug bool) {
	rows := bench.Rows(48)
	row := rows[len(rows)-1]
	require.Equal(b, "burst-hd3-8Kx1-tape3", row.Setup.Name)
	var tstates uint64
	var rec *Recorder
	o := bench.Options{Dir: b.TempDir()}
	if debug {
		o.OnStart = func(bd *emu.Board) {
			rec = NewRecorder(0)
			ForBoard(bd, rec)
		}
	}
	b.ResetTimer()
	cpu0 := hostcpu.Process()
	for i := 0; i < b.N; i++ {
		r, err := bench.Run(row.Setup, o)
		require.NoError(b, err)
		require.Empty(b, r.Failed)
		tstates += r.TStates
	}
	b.ReportMetric(float64(tstates)/b.Elapsed().Seconds()/1e6, "MT/s")
	// Per second of this process's CPU time: what the host would give on
	// a quiet machine (the build machine is shared).
	if cpu := hostcpu.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(tstates)/cpu/1e6, "MT/cpu-s")
	}
	if rec != nil {
		b.ReportMetric(float64(rec.Total())/float64(b.N), "edges/op")
		b.ReportMetric(float64(rec.MemoryBytes())/(1<<20), "recorder-MiB")
	}
}

func BenchmarkBackupRecordingOn(b *testing.B)  { benchRow(b, true) }
func BenchmarkBackupRecordingOff(b *testing.B) { benchRow(b, false) }
