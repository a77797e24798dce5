package debugger

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/debugger/internal/debuggertest"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
)

// The boot ROM tries floppy A first: stepping to the next WD1772 command
// stops at its first one, after the OUT that wrote the command register.
func TestStepFloppyCommand(t *testing.T) {
	rom, err := monitor.Image()
	require.NoError(t, err)
	cfg := emu.DefaultConfig(rom)
	cfg.Floppies = []emu.Floppy{{Drive: 0}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	d := ForBoard(b, NewRecorder(1<<12))
	st, err := d.StepFloppyCommand()
	require.NoError(t, err)
	require.Equal(t, "floppy", st.Why, st.Text)
	h := d.History(1)
	require.Len(t, h, 1)
	in := d.Disassemble(h[0].PC, 1)[0]
	assert.Regexp(t, `^out \(0?c[0-3]h\),a|^out \(c\)`, in.Text, "the command register is port C0h")
	assert.Less(t, st.T, 2*sched.Second)
}

// With a diskette in drive A the spindle turns: stepping to the next index
// pulse stops once a revolution (200 ms at 300 rpm), and the recorder
// keeps the INDEX edges.
func TestStepIndexPulse(t *testing.T) {
	d := ForBoard(debuggertest.BlankFloppyBoard(t), NewRecorder(1<<12))
	var ts []sched.Time
	for i := 0; i < 3; i++ {
		st, err := d.StepIndex()
		require.NoError(t, err)
		require.Equal(t, "index", st.Why, st.Text)
		ts = append(ts, st.T)
	}
	assert.InDelta(t, float64(200*sched.Millisecond), float64(ts[2]-ts[1]), float64(sched.Millisecond))
	assert.Equal(t, ts[1:], d.Rec.Rising(INDEX, ts[1], ts[2]+1))
}
