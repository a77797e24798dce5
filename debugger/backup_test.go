package debugger

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/z80host/disasm"
)

// Breakpoints on port 28h writes, on a WRITE(6) CDB and on a tape
// reposition each stop at the instruction that caused them in a backup run
// (the story's baseline, whose tape stops and restarts every block); the
// run, paused three times, ends exactly as one never paused.
func TestBreakpointsInBackupRun(t *testing.T) {
	row := bench.Rows(2)[0]
	require.Equal(t, "bios-baseline", row.Setup.Name)
	prog, err := backup.Build()
	require.NoError(t, err)

	plain, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	require.Empty(t, plain.Failed)
	require.Greater(t, plain.Repositions, 0)

	var stops []*Stop
	onStart := func(b *emu.Board) {
		d := ForBoard(b, NewRecorder(1<<16))
		state, err := prog.Symbol("r_state")
		require.NoError(t, err)
		doneV, err := prog.Symbol("ST_DONE")
		require.NoError(t, err)
		failV, err := prog.Symbol("ST_FAIL")
		require.NoError(t, err)
		done := func() bool { s := uint16(b.RAM(state)); return s == doneV || s == failV }
		run := func() *Stop {
			for !done() {
				st, err := d.Continue(sched.Second)
				require.NoError(t, err)
				if st != nil {
					stops = append(stops, st)
					return st
				}
			}
			return nil
		}
		// The instruction that stopped is the last one executed, and
		// decodes as what the stop says it did.
		executed := func(st *Stop) string {
			h := d.History(1)
			require.Len(t, h, 1)
			assert.Equal(t, st.PC, h[0].PC, "the stop names the instruction just executed")
			return disasm.Decode(d.m.Peek, st.PC, nil).Text
		}

		bp := d.BreakIOPort(0x28, true, -1)
		st := run()
		require.NotNil(t, st)
		text := executed(st)
		assert.Regexp(t, `^(out|otir|outi|otdr|outd)`, text)
		if text == "out (c),a" || text == "otir" || text == "outi" {
			assert.Equal(t, uint16(0x28), d.m.Regs().BC&0xFF, "C addresses port 28h")
		}
		require.NoError(t, d.Delete(bp.ID))

		bp = d.BreakOnCDB(0x0A, -1)
		st = run()
		require.NotNil(t, st)
		c := d.Rec.CurrentCommand()
		require.NotNil(t, c)
		assert.Equal(t, 0x0A, c.Opcode())
		assert.Equal(t, bench.TapeID, c.Target)
		assert.Equal(t, 6, c.CDBLen, "stopped when the CDB's last byte moved")
		assert.Regexp(t, `^out`, executed(st), "the last CDB byte was handed over by an OUT")
		assert.Regexp(t, `WRITE\(6\) LUN 0 LBA [0-9]+ blocks 1,`, st.Text)
		require.NoError(t, d.Delete(bp.ID))

		tape := b.SCSIDevice(bench.TapeID).(*mcd403.Drive)
		n := tape.Repositions()
		bp = d.BreakOnCounter("tape reposition", TapeRepositions(b))
		st = run()
		require.NotNil(t, st)
		assert.Equal(t, n+1, tape.Repositions(), "stopped at the first reposition")
		executed(st)
		// The tape's panel shows the drive restarting after it backed up.
		var panel string
		for _, p := range DevicePanels(b) {
			if strings.HasPrefix(p.Title(), "MCD-403") {
				panel = strings.Join(p.Lines(), "\n")
			}
		}
		assert.Contains(t, panel, "starting (ramp to speed)")
		assert.Contains(t, panel, fmt.Sprintf("repositions %d,", n+1))
		assert.Regexp(t, `track [0-9]+[ ,].* along the tape`, panel)
		require.NoError(t, d.Delete(bp.ID))
	}
	dbg, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), OnStart: onStart})
	require.NoError(t, err)
	assert.Len(t, stops, 3)
	assert.Equal(t, plain.TStates, dbg.TStates)
	assert.Equal(t, plain.Elapsed, dbg.Elapsed)
	assert.Equal(t, plain.Repositions, dbg.Repositions)
	assert.Equal(t, plain.Bytes, dbg.Bytes)
}

// The story's 256-byte OTIR bursts overrun the tape drive's FIFO: the
// 5380's output latch is overwritten while DRQ is off. The lost-data
// breakpoint stops after the OTIR that lost the byte.
func TestBreakOnLostByte(t *testing.T) {
	rows := bench.Rows(2)
	row := rows[len(rows)-1]
	row.Setup.Program.TapeBurst = 256
	var st *Stop
	var overwrites uint64
	onStart := func(b *emu.Board) {
		d := ForBoard(b, NewRecorder(1<<12))
		_, err := d.BreakOnLost()
		require.NoError(t, err)
		st, err = d.Continue(20 * sched.Second)
		require.NoError(t, err)
		require.NotNil(t, st, "a byte was lost")
		h := d.History(1)
		require.Len(t, h, 1)
		assert.Equal(t, st.PC, h[0].PC)
		assert.Equal(t, "otir", disasm.Decode(d.m.Peek, st.PC, nil).Text)
		overwrites = b.NCR5380().Stats.Overwrites
	}
	_, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), OnStart: onStart, Limit: 30 * sched.Second})
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Equal(t, uint64(1), overwrites, "stopped at the first lost byte")
	assert.Contains(t, st.Text, "5380 lost data")
}

// A DACK read (port 28h) with no byte latched returns a stale byte: the
// lost-data breakpoint stops after the IN that read it, not before.
func TestBreakOnStaleRead(t *testing.T) {
	src := "        org 0100h\n        ld b,3\nloop:   djnz loop\n        in a,(28h)\n        nop\n        halt\n"
	b, _ := ramProgramBoard(t, src)
	d := ForBoard(b, NewRecorder(1<<12))
	_, err := d.BreakOnLost()
	require.NoError(t, err)
	st, err := d.Continue(sched.Second)
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Equal(t, "in a,(028h)", disasm.Decode(d.m.Peek, st.PC, nil).Text)
	assert.Equal(t, st.PC+2, d.PC(), "stopped after the IN")
	assert.Equal(t, uint64(1), b.NCR5380().Stats.StaleReads)
	assert.Contains(t, st.Text, "5380 lost data")
}
