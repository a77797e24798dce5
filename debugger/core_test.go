package debugger

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The acceptance session through the core API: break on COMMAND, step
// phase by phase through the monitor's READ(6) of block 0.
func TestStepPhasesThroughBootRead(t *testing.T) {
	r := newRig(t, true)
	r.d.BreakOnPhase(scsi.Command)
	st, err := r.d.Continue(ContinueLimit)
	require.NoError(t, err)
	require.NotNil(t, st, "the COMMAND phase stops the machine")
	assert.Equal(t, "breakpoint", st.Why)
	require.NotNil(t, st.Ended)
	assert.Equal(t, scsi.Selection, st.Ended.Phase)
	assert.Equal(t, "arbitration/selection of target 0", st.Ended.Describe(nil))
	require.NoError(t, r.d.Delete(1))

	type step struct {
		phase scsi.Phase
		desc  string
	}
	want := []step{
		{scsi.Command, "READ(6) LUN 0 LBA 0 blocks 1"},
		{scsi.DataIn, "512 bytes"},
		{scsi.Status, "GOOD (00h)"},
		{scsi.MsgIn, "COMMAND COMPLETE (00h)"},
	}
	last := st.T
	for _, w := range want {
		st, err := r.d.StepPhase()
		require.NoError(t, err)
		require.Equal(t, "phase", st.Why, st.Text)
		require.NotNil(t, st.Ended)
		assert.Equal(t, w.phase, st.Ended.Phase)
		assert.Equal(t, w.desc, st.Ended.Describe(nil))
		assert.Equal(t, last, st.Ended.Start, "segments follow each other")
		assert.Greater(t, st.T, last)
		assert.LessOrEqual(t, st.T, r.b.Now(), "the stop comes after the edge")
		last = st.T
	}
	// The last stop was entering BUS FREE.
	assert.Equal(t, scsi.BusFree, r.d.Rec.Current().Phase)
	assert.Equal(t, last, r.d.Rec.Current().Start)
	cmds := r.d.Rec.Commands(0, r.b.Now())
	require.Len(t, cmds, 1)
	assert.Equal(t, 512, cmds[0].DataIn)
	assert.Equal(t, 0, cmds[0].Status)
	assert.Equal(t, 0, cmds[0].Message)
	assert.Equal(t, last, cmds[0].End)
}

// A run paused at every phase and resumed is identical to one never
// stopped, to the T-state: same trace hash, same console output.
func TestPausedRunIsIdentical(t *testing.T) {
	const total = 15100 * sched.Millisecond
	plain := newRig(t, false)
	require.NoError(t, plain.b.RunFor(total))

	dbg := newRig(t, true)
	end := total
	dbg.d.BreakIOPort(0x21, true, -1) // every ICR write
	dbg.d.BreakOnPhase(scsi.DataIn)
	stops := 0
	for dbg.b.Now() < end {
		st, err := dbg.d.Continue(end - dbg.b.Now())
		require.NoError(t, err)
		if st == nil {
			break
		}
		stops++
		if stops%7 == 0 {
			_, err := dbg.d.StepInstruction()
			require.NoError(t, err)
		}
	}
	assert.Greater(t, stops, 1000, "the ICR breakpoint stopped at every handshake")
	assert.Equal(t, plain.b.Now(), dbg.b.Now())
	assert.Equal(t, plain.b.TraceHash(), dbg.b.TraceHash())
	assert.Equal(t, plain.tr.String(), dbg.tr.String())
	assert.Contains(t, dbg.tr.String(), "No boot disk")
}

// Watchpoints see every read and write on the machine's memory observer:
// the boot ROM's copy of itself to 8000h reads 0000h and writes 8000h.
func TestWatchpoints(t *testing.T) {
	r := newRig(t, true)
	rom, err := monitor.Image()
	require.NoError(t, err)
	w, err := r.d.WatchMem(0x8000, 0x8000, false, true)
	require.NoError(t, err)
	st, err := r.d.Continue(sched.Second)
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Equal(t, "watchpoint", st.Why)
	assert.Contains(t, st.Text, fmt.Sprintf("write of %02Xh at 8000h", rom[0]))
	assert.Equal(t, rom[0], r.b.RAM(0x8000))
	assert.Regexp(t, `^(ldir|ldi|ld \(|push|ex \(sp\))`, r.d.Disassemble(st.PC, 1)[0].Text, "the instruction that wrote")
	require.NoError(t, r.d.Delete(w.ID))

	_, err = r.d.WatchMem(0x0003, 0x0003, true, false)
	require.NoError(t, err)
	st, err = r.d.Continue(sched.Second)
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Contains(t, st.Text, "read of")
}

// save and load through the text front-end: a run continued from a loaded
// state ends exactly where the first continuation did.
func TestTextSaveLoad(t *testing.T) {
	_, x, out := textRig(t)
	path := filepath.Join(t.TempDir(), "m.state")
	for _, line := range []string{"continue 50ms", "save " + path, "continue 30ms", "regs", "time"} {
		require.NoError(t, x.Exec(line), line)
	}
	first := out.String()
	first = first[strings.Index(first, "AF="):]
	out.Reset()
	for _, line := range []string{"load " + path, "continue 30ms", "regs", "time"} {
		require.NoError(t, x.Exec(line), line)
	}
	again := out.String()
	assert.Contains(t, again, "loaded "+path)
	again = again[strings.Index(again, "AF="):]
	assert.Equal(t, first, again)
	assert.Error(t, x.Exec("load "+path+".missing"))
	assert.Error(t, x.Exec("save "+filepath.Join(path, "no", "dir")))
}

// The backtrace at the COMMAND phase of the boot READ names the routines
// the ROM called to get there.
func TestBacktrace(t *testing.T) {
	r := newRig(t, true)
	r.d.BreakOnPhase(scsi.Command)
	st, err := r.d.Continue(ContinueLimit)
	require.NoError(t, err)
	require.NotNil(t, st)
	bt := r.d.Backtrace(8, 64)
	require.NotEmpty(t, bt)
	for _, f := range bt {
		assert.Equal(t, f.Return, f.Call+3, "every frame here is a CALL")
		assert.Equal(t, f.Return, uint16(r.d.m.Peek(f.SP))|uint16(r.d.m.Peek(f.SP+1))<<8)
	}
	// The innermost call went to the routine the PC is in.
	assert.LessOrEqual(t, bt[0].Target, r.d.PC())
}
