package debugger

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
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

// tstepTo steps instructions until the next one's disassembly contains
// text, moves the T-state cursor into it and returns it with its listing.
func tstepTo(t *testing.T, x *Text, text string, limit int) (*TCursor, string) {
	t.Helper()
	var out strings.Builder
	for i := 0; i < limit; i++ {
		if x.D.Cursor() == nil && !strings.Contains(x.D.Disassemble(x.D.PC(), 1)[0].Text, text) {
			// Not the instruction looked for: on by one instruction,
			// which is what the T-state steps through it would do.
			_, err := x.D.StepInstruction()
			require.NoError(t, err)
			continue
		}
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
	assert.Equal(t, "IORQ WR", iow[2].Pins, "the automatic wait state: no WAIT")
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

// With WAIT on DRQ (hypothesis B) an INIR from the DACK port 28h waits in
// its I/O read cycle until the 5380's DRQ: the cursor lists the wait
// states after the automatic one (WAIT asserted in all of them), T3
// after them, and the memory write and internal T-states shifted by as
// many.
func TestTStepWaitOnDRQ(t *testing.T) {
	prog, err := asm.Assemble(os.DirFS("testdata"), "dmaread.asm", asm.Options{})
	require.NoError(t, err)
	cfg := emu.DefaultConfig(emu.StubROM(prog.Org))
	cfg.WaitOnDRQ = true
	path := filepath.Join(t.TempDir(), "hd0.img")
	require.NoError(t, acb4000.Create(path, acb4000.Geometries["st125"], true, 3))
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	b.LoadRAM(0, emu.Stub(prog.Org))
	b.LoadRAM(prog.Org, prog.Bytes)
	d := ForBoard(b, NewRecorder(1<<14))
	d.Syms.AddResult(prog)
	_, err = d.BreakExecAt(uint16(prog.Symbols["dmain"]), "")
	require.NoError(t, err)
	st, err := d.Continue(sched.Second)
	require.NoError(t, err)
	require.NotNil(t, st, "the CDB sent")
	assert.Equal(t, scsi.Command, d.Rec.Current().Phase, "DMA set up before DATA IN")
	x := &Text{D: d, Out: io.Discard}
	waited := false
	for i := 0; i < 4 && !waited; i++ {
		c, _ := tstepTo(t, x, "inir", 5000)
		var ns []string
		for _, s := range c.States {
			ns = append(ns, s.Name)
		}
		extra := len(c.States) - 21
		if extra <= 0 {
			continue
		}
		waited = true
		// M1 M1 IOR(T1 T2 TW TW... T3) MW(T1-T3 and five internal).
		want := strings.Fields("T1 T2 T3 T4 T1 T2 T3 T4 T5 T1 T2 TW")
		for j := 0; j < extra; j++ {
			want = append(want, "TW")
		}
		want = append(want, strings.Fields("T3 T1 T2 T3 T4 T5 T6 T7 T8")...)
		if !assert.Equal(t, len(want), len(ns)) || !assert.Equal(t, want, ns) {
			return
		}
		for _, s := range c.States[11 : 11+extra+1] {
			assert.Equal(t, "IOR", s.Cycle)
			assert.Equal(t, "IORQ RD WAIT", s.Pins)
		}
		assert.Contains(t, c.States[10].Access, "5380 DACK (port 28h) read")
		mw := c.States[13+extra]
		assert.Equal(t, "MW", mw.Cycle)
		assert.Equal(t, c.Regs.HL, mw.Addr)
		// DRQ rose in the last wait states: WAIT ends at the sample after
		// it, and the DACK read's ACK is on the bus by the last TW.
		drqAt := -1
		for k, s := range c.States {
			for _, e := range s.Edges {
				if drqAt < 0 && e.Sig&DRQ != 0 {
					drqAt = k
				}
			}
		}
		assert.GreaterOrEqual(t, drqAt, 10+extra)
		assert.LessOrEqual(t, drqAt, 11+extra)
		for c.K < 11+extra {
			_, _, err := d.TStep(1)
			require.NoError(t, err)
		}
		sig, _ := c.Signals()
		assert.NotZero(t, sig&Signal(scsi.ACK), "the DACK read's ACK by the last TW")
		assert.Greater(t, c.T1-c.T0, sched.Millisecond, "waited for the disk: %s", FormatDuration(c.T1-c.T0))
	}
	assert.True(t, waited, "an INIR from port 28h waited for DRQ")
}

// The cursor through a CTC timer interrupt taken in HALT (IM 2): HALT's
// idle M1 cycles with HALT asserted, then the acknowledge: INTA T1 T2 TW
// TW T3 T4 and an internal T5, the return address pushed high byte first,
// the vector read from the table, 19 T-states.
func TestTStepInterruptAcknowledge(t *testing.T) {
	prog, err := asm.Assemble(os.DirFS("../emu/testdata"), "irq.asm", asm.Options{Defines: map[string]int64{"MODE": 1}})
	require.NoError(t, err)
	b, err := emu.New(emu.DefaultConfig(prog.Bytes))
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	d := ForBoard(b, NewRecorder(1<<12))
	d.Syms.AddResult(prog)
	// The first tick is 1 ms after the time constant is written.
	_, err = d.Continue(sched.Millisecond)
	require.NoError(t, err)
	require.True(t, d.m.Regs().Halted)
	halts := 0
	for halts < 3 {
		_, _, err := d.TStep(1)
		require.NoError(t, err)
		if c := d.Cursor(); c != nil && c.K == 0 {
			require.False(t, c.Interrupt, "the tick came early")
			require.Len(t, c.States, 4)
			assert.Equal(t, "halted: an M1 cycle of HALT", c.Text)
			assert.Equal(t, "M1 MREQ RD HALT", c.States[0].Pins)
			assert.Equal(t, "MREQ RFSH HALT", c.States[3].Pins)
			halts++
		}
	}
	// On by instruction steps (HALT cycles) until the CTC raises its
	// interrupt request: the next step takes it.
	for i := 0; i < 5000; i++ {
		if sig, _ := d.Rec.Signals(); sig&CTCINT != 0 {
			break
		}
		_, err := d.StepInstruction()
		require.NoError(t, err)
	}
	_, _, err = d.TStep(1)
	require.NoError(t, err)
	c := d.Cursor()
	require.True(t, c != nil && c.Interrupt, "the timer interrupt came")
	assert.Equal(t, strings.Fields("INTA T1 INTA T2 INTA TW INTA TW INTA T3 INTA T4 INTA T5 MW T1 MW T2 MW T3 MW T1 MW T2 MW T3 MR T1 MR T2 MR T3 MR T1 MR T2 MR T3"),
		strings.Fields(strings.ReplaceAll(names(c), ",", "")))
	assert.Equal(t, "M1", c.States[0].Pins)
	assert.Equal(t, "M1 IORQ", c.States[2].Pins)
	assert.Equal(t, "MREQ RFSH", c.States[4].Pins)
	assert.Empty(t, c.States[6].Pins, "internal")
	sp := c.Regs.SP
	assert.Equal(t, sp-1, c.States[7].Addr, "high byte first")
	assert.Equal(t, uint8(c.Regs.PC>>8), c.States[7].Data)
	assert.Equal(t, sp-2, c.States[10].Addr)
	assert.Equal(t, uint16(c.Regs.I)<<8|0x14, c.States[13].Addr, "CTC channel 2's vector")
	var w strings.Builder
	x := &Text{D: d, Out: &w}
	for d.Cursor() != nil {
		require.NoError(t, x.Exec("tstep"))
	}
	assert.Equal(t, uint16(prog.Symbols["ctcisr"]), d.PC())
	assert.Contains(t, w.String(), "at ctcisr")
}

// The text front-end: tstep lists the T-states with a heading for each
// instruction entered; regs, bus and ncr show the cursor's instruction
// and time while it is inside one; step finishes that instruction.
func TestTextTStep(t *testing.T) {
	_, x, out := textRig(t)
	require.NoError(t, x.Run(strings.NewReader("break phase DATAIN\ncontinue\ndelete 1\n"), "", true))
	for i := 0; i < 2000 && !strings.Contains(x.D.Disassemble(x.D.PC(), 1)[0].Text, "out (021h),a"); i++ {
		_, err := x.D.StepInstruction()
		require.NoError(t, err)
	}
	out.Reset()
	require.NoError(t, x.Exec("tstep"))
	require.Contains(t, out.String(), "out (021h),a: 11 T-states")
	s := out.String()
	assert.Regexp(t, `registers as at its start\n  M1   1   T1 .* A=[0-9A-F]{4} D=D3  M1 MREQ RD\n  cursor: .* T1 of M1 \(T-state 1 of 11, machine cycle 1\)`, s)
	out.Reset()
	require.NoError(t, x.Exec("tstep 8"))
	s = out.String()
	assert.Regexp(t, `(?s)MR   2   T1 .*MR   2   T3 .*IOW  3   T1 .*IOW  3   T2 .* IORQ WR +5380 ICR \(port 21h\) written [0-9A-F]{2}h`, s)
	assert.Contains(t, s, "T2 of IOW (T-state 9 of 11, machine cycle 3)")
	cur := x.D.Cursor()
	require.NotNil(t, cur)
	for _, c := range []struct{ cmd, want string }{
		{"regs", "(as at the start of the instruction under the T-state cursor"},
		{"bus", "(at the T-state cursor, " + FormatTime(cur.Time()) + ")"},
		{"ncr", "1 ICR  initiator cmd"},
		{"ncr", "(at the T-state cursor, "},
		{"help", "ts | tstep [N]"},
	} {
		out.Reset()
		require.NoError(t, x.Exec(c.cmd))
		assert.Contains(t, out.String(), c.want, c.cmd)
	}
	out.Reset()
	require.NoError(t, x.Exec("regs"))
	assert.Contains(t, out.String(), fmt.Sprintf("PC=%04X", cur.PC), "registers at the OUT")
	out.Reset()
	require.NoError(t, x.Exec("step"))
	assert.Nil(t, x.D.Cursor(), "step finishes the instruction")
	assert.Equal(t, cur.T1, x.D.Machine().Now(), "and runs nothing more")
	assert.Contains(t, out.String(), "at ")
	assert.Error(t, x.Exec("tstep 0"))
	assert.Error(t, x.Exec("tstep x"))
}

// Step over and step out from inside an instruction act on that
// instruction: next on a CALL under the cursor stops after the call's
// return at the level it started at; finish on a RET under the cursor
// stops where it returned to; cycles lists the next instruction. (The
// boot ROM's banner goes out through its character output routine.)
func TestTStepThenOverOut(t *testing.T) {
	_, x, out := textRig(t)
	d := x.D
	c, _ := tstepTo(t, x, "call putc", 20000)
	_, _, err := d.TStep(3)
	require.NoError(t, err)
	require.Equal(t, c, d.Cursor())
	st, err := d.StepOver()
	require.NoError(t, err)
	assert.Equal(t, c.PC+3, d.PC(), st.Text)
	assert.Equal(t, c.Regs.SP, d.Machine().Regs().SP)
	assert.Nil(t, d.Cursor())

	// Into the next call of the ROM's character output, to its RET.
	for i := 0; i < 20000 && d.Disassemble(d.PC(), 1)[0].Text != "call putc"; i++ {
		_, err := d.StepInstruction()
		require.NoError(t, err)
	}
	_, err = d.StepInstruction()
	require.NoError(t, err)
	for {
		c, _ = tstepTo(t, x, "ret", 20000)
		if c.Text == "ret" {
			break
		}
		_, err := d.StepInstruction()
		require.NoError(t, err)
	}
	st, err = d.StepOut()
	require.NoError(t, err)
	assert.Contains(t, st.Text, "stepped out to")
	assert.Equal(t, c.T1, d.Machine().Now(), "the RET under the cursor was the return")
	assert.Greater(t, d.Machine().Regs().SP, c.Regs.SP)

	_, _, err = d.TStep(2)
	require.NoError(t, err)
	c = d.Cursor()
	require.NotNil(t, c)
	out.Reset()
	require.NoError(t, x.Exec("cycles"))
	assert.Nil(t, d.Cursor())
	assert.Contains(t, out.String(), FormatTime(c.T1)+" .. ", "cycles runs the instruction after the cursor's")
	assert.NotContains(t, out.String(), ": 0 T-states")
}

// A machine that does not report its bus cycles has no T-state cursor:
// tstep says so and leaves the machine where it was.
func TestTStepNeedsCycles(t *testing.T) {
	r := newRig(t, false)
	d := New(struct{ Machine }{Board{r.b}}, NewRecorder(1<<10))
	_, _, err := d.TStep(1)
	assert.ErrorContains(t, err, "does not report its bus cycles")
	assert.Zero(t, r.b.Now())
	assert.Nil(t, d.Cursor())
}
