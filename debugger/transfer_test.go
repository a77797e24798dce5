package debugger

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The boot ROM's READ(6) of block 0 laid open: its CDB, the bytes of
// each phase, the handshake's timing per phase, and where the sector went
// in memory (the ROM's boot sector address, 9000h).
func TestTransferOfBootRead(t *testing.T) {
	r := newRig(t, true)
	runToBootRead(t, r)
	cmds := r.d.Rec.Commands(0, sched.MaxTime)
	require.Len(t, cmds, 1)
	tr := r.d.Transfer(&cmds[0])
	assert.False(t, tr.Partial)
	assert.Equal(t, []byte{0x08, 0, 0, 0, 1, 0}, tr.Bytes())
	assert.Equal(t, "READ(6) LUN 0 LBA 0 blocks 1", tr.Decoded)
	var phases []scsi.Phase
	for _, p := range tr.Phases {
		phases = append(phases, p.Phase)
	}
	require.Equal(t, []scsi.Phase{scsi.Command, scsi.DataIn, scsi.Status, scsi.MsgIn}, phases)
	cmd, din, status, msg := tr.Phases[0], tr.Phases[1], tr.Phases[2], tr.Phases[3]
	assert.Equal(t, []byte{0x08, 0, 0, 0, 1, 0}, cmd.Data)
	assert.Equal(t, []byte{0}, status.Data, "GOOD")
	assert.Equal(t, []byte{0}, msg.Data, "COMMAND COMPLETE")
	require.Len(t, din.Data, 512)
	// The handshake: one REQ-to-ACK per byte, one ACK-to-REQ between two
	// bytes of a phase; by programmed I/O both take microseconds.
	assert.Equal(t, 512, din.ReqAck.N)
	assert.Equal(t, 511, din.AckReq.N)
	assert.Equal(t, 6, cmd.ReqAck.N)
	assert.Equal(t, 5, cmd.AckReq.N)
	assert.Equal(t, 1, status.ReqAck.N)
	assert.Equal(t, 0, status.AckReq.N)
	for _, p := range tr.Phases {
		for _, iv := range []Interval{p.ReqAck, p.AckReq} {
			if iv.N == 0 {
				continue
			}
			assert.Positive(t, iv.Min, p.Phase.String())
			assert.LessOrEqual(t, iv.Min, iv.Mean())
			assert.LessOrEqual(t, iv.Mean(), iv.Max)
		}
	}
	assert.Greater(t, din.ReqAck.Min, sched.Microsecond, "a PIO loop answers in microseconds")
	// Each byte's REQ-to-ACK and the ACK-to-REQ after it make the byte's
	// period: the sums add up to the phase's span between first REQ and
	// last ACK.
	tx := r.d.Rec.Transfers(din.Start, din.End)
	require.Len(t, tx, 512)
	assert.Equal(t, tx[511].T-din.Start, din.ReqAck.Sum+din.AckReq.Sum)

	// The sector went to 9000h: the memory there holds the DATA IN.
	require.Equal(t, int32(0x9000), tr.Memory)
	for i, b := range din.Data {
		if r.b.Peek(0x9000+uint16(i)) != b {
			t.Fatalf("memory at %04Xh is %02Xh, the bus moved %02Xh", 0x9000+i, r.b.Peek(0x9000+uint16(i)), b)
		}
	}
}

// The destination's trace attaches a memory observer only while a DATA
// IN runs and detaches it at the first instruction after it found the
// destination.
func TestTransferTraceDetaches(t *testing.T) {
	r := newRig(t, true)
	_, err := r.d.StepPhase() // to DATA IN, step by step
	for err == nil && (r.d.Rec.Current() == nil || r.d.Rec.Current().Phase != scsi.DataIn) {
		_, err = r.d.StepPhase()
	}
	require.NoError(t, err)
	_, err = r.d.StepByte()
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		_, err = r.d.StepByte()
		require.NoError(t, err)
	}
	_, err = r.d.StepInstruction()
	require.NoError(t, err)
	assert.Nil(t, r.d.dest.remove, "detached once found")
	assert.False(t, r.d.destActive())
	assert.False(t, r.d.slow, "the hook is back to its fast path")
	assert.Equal(t, int32(0x9000), r.d.Rec.CurrentCommand().Memory)
}

// runToBootRead runs the boot ROM until its READ(6) has ended.
func runToBootRead(t *testing.T, r *rig) {
	t.Helper()
	for i := 0; i < 300; i++ {
		if cs := r.d.Rec.Commands(0, sched.MaxTime); len(cs) > 0 && cs[0].End != 0 {
			return
		}
		_, err := r.d.Continue(100 * sched.Millisecond)
		require.NoError(t, err)
	}
	t.Fatal("no READ ended in 30 s")
}

// In a backup run, with byte handshakes and with INIR bursts from the
// DACK port, the first disk READ's destination is found: the memory there
// holds the bytes the bus moved, as soon as its DATA IN has ended.
func TestTransferDestinationInBackupRun(t *testing.T) {
	rows := bench.Rows(2)
	for _, row := range []bench.Row{rows[0], rows[len(rows)-1]} {
		t.Run(row.Setup.Name, func(t *testing.T) {
			checked := false
			onStart := func(b *emu.Board) {
				d := ForBoard(b, NewRecorder(1<<18))
				d.BreakOnPhase(scsi.Status)
				for i := 0; i < 200 && !checked; i++ {
					st, err := d.Continue(sched.Second)
					require.NoError(t, err)
					c := d.Rec.CurrentCommand()
					if st == nil || c == nil || c.DataIn < 512 || d.Kinds[c.Target] == Tape {
						continue
					}
					tr := d.Transfer(c)
					require.GreaterOrEqual(t, tr.Memory, int32(0), "found")
					var din []byte
					for _, p := range tr.Phases {
						if p.Phase == scsi.DataIn {
							din = p.Data
						}
					}
					require.Len(t, din, c.DataIn)
					for k, v := range din {
						require.Equal(t, v, b.Peek(uint16(tr.Memory)+uint16(k)), "byte %d of the DATA IN at %04Xh", k, tr.Memory)
					}
					assert.Nil(t, d.dest.remove, "the trace detached")
					checked = true
				}
			}
			_, err := bench.Run(row.Setup, bench.Options{Dir: t.TempDir(), OnStart: onStart, Limit: 5 * sched.Second})
			require.NoError(t, err)
			assert.True(t, checked, "a disk READ ran")
		})
	}
}
