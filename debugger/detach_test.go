package debugger

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// funcPtr identifies a func value (the board's wires before and after).
func funcPtr(f any) uintptr { return reflect.ValueOf(f).Pointer() }

// A debugger attached to a backup run, stopped at the tape WRITE with a
// watchpoint set, then detached: the board's
// wires are its own again, the CPU hook and the memory pages are back on
// the paths they had, nothing of the debugger runs for the rest of the
// run (the recorder and the history stand still), and the run ends
// exactly as one never debugged.
func TestDetachLeavesTheBoardAsBefore(t *testing.T) {
	row := bench.Rows(2)[0]
	plain, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	require.Empty(t, plain.Failed)

	var d *Debugger
	var edges, hist uint64
	onStart := func(b *emu.Board) {
		chip := b.NCR5380()
		require.NotNil(t, chip)
		irq, drq := funcPtr(chip.OnIRQ), funcPtr(chip.OnDRQ)
		ctcINT, dartINT := funcPtr(b.CTC().OnINT), funcPtr(b.DART().OnINT)
		require.Nil(t, b.CPU().Hook, "no instruction observer before")
		read, write := b.MemoryPages()
		// Which pages take the slow path (the harness watches its
		// result's bytes): the same after Detach as before.
		slow := func() (s [2][256]bool) {
			for p := range read {
				s[0][p], s[1][p] = read[p] == nil, write[p] == nil
			}
			return s
		}
		before := slow()

		d = ForBoard(b, NewRecorder(1<<16))
		d.BreakOnCDB(0x0A, -1)
		_, err := d.WatchMem(0x4000, 0x4000, false, true)
		require.NoError(t, err)
		assert.NotNil(t, b.CPU().Hook)
		assert.NotEqual(t, before, slow(), "the watchpoint takes its page off the fast path")
		st, err := d.Continue(10 * sched.Second)
		require.NoError(t, err)
		require.NotNil(t, st)
		require.Greater(t, d.Rec.Total(), uint64(100), "the recorder saw the bus")
		require.Greater(t, d.histN, uint64(0))

		d.Detach()
		assert.Nil(t, b.CPU().Hook, "the CPU hook is gone")
		assert.Equal(t, before, slow(), "every page back on the path it had")
		assert.Equal(t, irq, funcPtr(chip.OnIRQ), "the 5380's IRQ wire is the board's")
		assert.Equal(t, drq, funcPtr(chip.OnDRQ), "the 5380's DRQ wire is the board's")
		assert.Equal(t, ctcINT, funcPtr(b.CTC().OnINT))
		assert.Equal(t, dartINT, funcPtr(b.DART().OnINT))
		edges, hist = d.Rec.Total(), d.histN
		d.Detach() // twice does nothing
	}
	got, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), OnStart: onStart})
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.Equal(t, edges, d.Rec.Total(), "no edge recorded after Detach")
	assert.Equal(t, hist, d.histN, "no instruction seen after Detach")
	assert.Equal(t, plain.TStates, got.TStates)
	assert.Equal(t, plain.Elapsed, got.Elapsed)
	assert.Equal(t, plain.Repositions, got.Repositions)
	assert.Equal(t, plain.Bytes, got.Bytes)
}

// Detached while it traces where a DATA IN's bytes go (a memory observer
// of its own, attached byte by byte in the boot ROM's programmed-I/O
// READ), the debugger leaves every page on its fast path.
func TestDetachWhileTracingATransfer(t *testing.T) {
	r := newRig(t, true)
	read, write := r.b.MemoryPages()
	for p := range read {
		require.True(t, read[p] != nil && write[p] != nil, "page %02Xh fast before", p)
	}
	_, err := r.d.StepPhase()
	for err == nil && (r.d.Rec.Current() == nil || r.d.Rec.Current().Phase != scsi.DataIn) {
		_, err = r.d.StepPhase()
	}
	require.NoError(t, err)
	_, err = r.d.StepByte()
	require.NoError(t, err)
	require.NotNil(t, r.d.dest.remove, "tracing the destination")
	slow := 0
	for p := range read {
		if read[p] == nil || write[p] == nil {
			slow++
		}
	}
	require.Equal(t, 256, slow, "the trace watches every page")

	r.d.Detach()
	for p := range read {
		assert.True(t, read[p] != nil && write[p] != nil, "page %02Xh fast after", p)
	}
	assert.Nil(t, r.b.CPU().Hook)
	total := r.d.Rec.Total()
	require.NoError(t, r.b.RunFor(20*sched.Millisecond))
	assert.Equal(t, total, r.d.Rec.Total(), "nothing recorded after Detach")
}
