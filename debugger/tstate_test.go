package debugger

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A run moved through by T-state steps (and instruction steps from
// inside an instruction) ends identical to one never stepped: the same
// T-states, trace hash and console output.
func TestTStepRunIsIdentical(t *testing.T) {
	const total = 15 * sched.Second
	plain := newRig(t, false)
	require.NoError(t, plain.b.RunFor(total))

	dbg := newRig(t, true)
	dbg.d.BreakOnPhase(scsi.DataIn)
	st, err := dbg.d.Continue(total)
	require.NoError(t, err)
	require.NotNil(t, st, "the boot READ's DATA IN")
	entered := 0
	for i := 0; i < 400; i++ {
		_, _, err := dbg.d.TStep(1 + i%7)
		require.NoError(t, err)
		if c := dbg.d.Cursor(); c != nil && c.K == 0 {
			entered++
		}
		if i%50 == 49 && dbg.d.Cursor() != nil {
			_, err := dbg.d.StepInstruction() // finishes the instruction under the cursor
			require.NoError(t, err)
			assert.Nil(t, dbg.d.Cursor())
		}
	}
	assert.Greater(t, entered, 30)
	for dbg.b.Now() < total {
		st, err := dbg.d.Continue(total - dbg.b.Now())
		require.NoError(t, err)
		if st == nil {
			break
		}
	}
	assert.Equal(t, plain.b.Now(), dbg.b.Now())
	assert.Equal(t, plain.b.TraceHash(), dbg.b.TraceHash())
	assert.Equal(t, plain.tr.String(), dbg.tr.String())
}

// tstepTo moves the cursor T-state by T-state until it enters an
// instruction whose disassembly contains text, and returns its listing
// (tstep through all its T-states).
func tstepTo(t *testing.T, x *Text, text string, limit int) (*TCursor, string) {
	t.Helper()
	var out strings.Builder
	for i := 0; i < limit; i++ {
		_, _, err := x.D.TStep(1)
		require.NoError(t, err)
		c := x.D.Cursor()
		if c == nil || c.K != 0 || !strings.Contains(c.Text, text) {
			continue
		}
		for k := range c.States {
			out.WriteString(c.Line(k) + "\n")
		}
		return c, out.String()
	}
	t.Fatalf("no %q within %d T-states", text, limit)
	return nil, ""
}

// names lists "cycle name" per T-state.
func names(c *TCursor) string {
	var s []string
	for _, st := range c.States {
		s = append(s, st.Cycle+" "+st.Name)
	}
	return strings.Join(s, ", ")
}

// OUT (21h),A in the boot ROM's byte loop: M1 T1-T4, MR T1-T3 (the port
// number), IOW T1 T2 TW T3 with the 5380's ICR written at T2, and ACK
// on the bus within that I/O cycle.
func TestTStepOutToICR(t *testing.T) {
	_, x, _ := textRig(t)
	x.D.BreakOnPhase(scsi.DataIn)
	_, err := x.D.Continue(ContinueLimit)
	require.NoError(t, err)
	c, list := tstepTo(t, x, "out (021h),a", 20000)
	assert.Equal(t, "M1 T1, M1 T2, M1 T3, M1 T4, MR T1, MR T2, MR T3, IOW T1, IOW T2, IOW TW, IOW T3", names(c))
	assert.Equal(t, c.T0+11*sched.TState, c.T1)
	assert.Equal(t, "M1 MREQ RD", c.States[0].Pins)
	assert.Equal(t, "MREQ RFSH", c.States[2].Pins)
	assert.True(t, c.States[2].Refresh)
	assert.Equal(t, c.PC+1, c.States[4].Addr)
	assert.Equal(t, uint8(0x21), c.States[4].Data, "the port number read in MR")
	iow := c.States[7:]
	assert.Equal(t, "", iow[0].Pins)
	assert.Equal(t, "IORQ WR", iow[1].Pins)
	assert.Equal(t, "IORQ WR WAIT", iow[2].Pins)
	assert.Equal(t, uint8(0x21), uint8(iow[1].Addr))
	assert.Equal(t, uint8(c.Regs.AF>>8), iow[1].Data, "A on the data bus")
	assert.Contains(t, iow[1].Access, "5380 ICR (port 21h) written")
	for _, s := range c.States[:8] {
		assert.Empty(t, s.Access)
	}
	assert.Regexp(t, `IOW  3   T2 .* IORQ WR +5380 ICR \(port 21h\) written`, list)
	// The ICR write moves ACK: its edge falls in the I/O cycle's T-states,
	// and the bus at the cursor shows it from then on.
	ackAt := -1
	for k, s := range c.States {
		for _, e := range s.Edges {
			if ackAt < 0 && (e.Sig^c.before[0].Sig)&Signal(scsi.ACK) != 0 {
				ackAt = k
			}
		}
	}
	require.GreaterOrEqual(t, ackAt, 8, "ACK changes in the IOW cycle from T2 on:\n%s", list)
	sig0, _ := c.Signals()
	for c.K < ackAt {
		_, _, err := x.D.TStep(1)
		require.NoError(t, err)
	}
	sig1, _ := c.Signals()
	assert.NotEqual(t, sig0&Signal(scsi.ACK), sig1&Signal(scsi.ACK), "the bus at the cursor follows the edge")
	// Registers stay those at the instruction's start.
	assert.Equal(t, c.PC, c.Regs.PC)
	// Past the last T-state the machine stands where it has since the
	// cursor entered: the next instruction.
	for x.D.Cursor() != nil {
		_, _, err := x.D.TStep(1)
		require.NoError(t, err)
	}
	assert.Equal(t, c.T1, x.D.Machine().Now())
	assert.Equal(t, c.PC+2, x.D.PC())
}

// LDIR (the boot ROM copying itself up) repeats: each repeat is one
// instruction of 21 T-states at the same address: M1 M1 MR MW, the
// write followed by seven internal T-states (optable's cycle list), its
// byte in memory from the write's T2 on.
func TestTStepLDIR(t *testing.T) {
	_, x, _ := textRig(t)
	c1, _ := tstepTo(t, x, "ldir", 2000)
	assert.Equal(t, "M1 T1, M1 T2, M1 T3, M1 T4, M1 T1, M1 T2, M1 T3, M1 T4, MR T1, MR T2, MR T3, MW T1, MW T2, MW T3, MW T4, MW T5, MW T6, MW T7, MW T8, MW T9, MW T10", names(c1))
	require.Len(t, c1.States, 21)
	de := c1.Regs.DE
	k := -1
	for i, s := range c1.States {
		if s.Access != "" {
			k = i
			assert.Contains(t, s.Access, "written")
		}
	}
	require.Equal(t, 12, k, "MW T2")
	assert.Equal(t, "MREQ WR", c1.States[k].Pins)
	assert.Equal(t, de, c1.States[k].Addr)
	for c1.K < k-1 {
		_, _, err := x.D.TStep(1)
		require.NoError(t, err)
	}
	assert.Equal(t, x.D.Machine().Peek(de), c1.States[k].Data, "the machine has run the instruction")
	old := c1.mem[de]
	assert.Equal(t, old, x.D.PeekView(de), "not yet written at MW T1")
	_, _, err := x.D.TStep(1)
	require.NoError(t, err)
	assert.Equal(t, c1.States[k].Data, x.D.PeekView(de), "written from T2 of the write")
	for x.D.Cursor() == c1 {
		_, _, err := x.D.TStep(1)
		require.NoError(t, err)
	}
	assert.Nil(t, x.D.Cursor(), "past the last T-state: at the boundary")
	assert.Equal(t, c1.T1, x.D.Machine().Now())
	_, _, err = x.D.TStep(1)
	require.NoError(t, err)
	c2 := x.D.Cursor()
	require.NotNil(t, c2)
	assert.Equal(t, c1.PC, c2.PC, "the repeat refetches the LDIR")
	assert.Equal(t, c1.T1, c2.T0)
	assert.Len(t, c2.States, 21)
	assert.Equal(t, de+1, c2.Regs.DE)
}
