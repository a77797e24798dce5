package debugger

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// textRig is the rig with the text front-end on it.
func textRig(t *testing.T) (*rig, *Text, *bytes.Buffer) {
	r := newRig(t, true)
	var out bytes.Buffer
	seen := 0
	x := &Text{D: r.d, Out: &out, Chip: r.chip, Echo: true,
		ConsoleIn: r.b.ConsoleInput,
		ConsoleOut: func() []byte {
			p := r.tr.Bytes()[seen:]
			seen = r.tr.Len()
			return p
		}}
	return r, x, &out
}

// The scripted session of the acceptance test, through the text
// front-end: the reported sequence is selection, COMMAND with the decoded
// READ(6), DATA IN 512 bytes, STATUS GOOD, MESSAGE IN COMMAND COMPLETE,
// bus free, each with its simulated time; resumed, the run is the one
// never stopped.
func TestTextSessionGolden(t *testing.T) {
	r, x, out := textRig(t)
	script, err := os.ReadFile("testdata/session.dbg")
	require.NoError(t, err)
	require.NoError(t, x.Run(bytes.NewReader(script), "", true))
	got := out.String()
	for _, want := range []string{
		"SELECTION    arbitration/selection of target 0",
		"COMMAND      READ(6) LUN 0 LBA 0 blocks 1",
		"DATA IN      512 bytes",
		"STATUS       GOOD (00h)",
		"MESSAGE IN   COMMAND COMPLETE (00h)",
		"BUS FREE entered",
		"No boot disk",
	} {
		assert.Contains(t, got, want)
	}
	golden.Equal(t, "session.txt", out.Bytes())

	// Resumed after the stops, the run is the one never stopped: the same
	// trace hash and console at the same T-state.
	plain := newRig(t, false)
	require.NoError(t, plain.b.RunFor(r.b.Now()))
	assert.Equal(t, r.b.Now(), plain.b.Now())
	assert.Equal(t, plain.b.TraceHash(), r.b.TraceHash())
	assert.Equal(t, plain.tr.String(), r.tr.String())
}

func TestTextErrors(t *testing.T) {
	_, x, out := textRig(t)
	for _, line := range []string{
		"frobnicate", "break nosuchlabel", "break 100 if (A", "break in 123", "break phase NOPE",
		"mem", "continue 5parsecs", "delete 9", "break reposition", "measure FOO",
	} {
		assert.Error(t, x.Exec(line), line)
	}
	assert.ErrorIs(t, x.Exec("quit"), ErrQuit)
	err := x.Run(strings.NewReader("regs\nbogus\nregs\n"), "", true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2")
	out.Reset()
	require.NoError(t, x.Run(strings.NewReader("bogus\nregs\n"), "", false))
	assert.Contains(t, out.String(), "error: unknown command")
	assert.Contains(t, out.String(), "PC=")
}

// cycles shows an instruction machine cycle by machine cycle with the bus
// edges in each: the OUT to the ICR that asserts ACK has ACK rise in its
// I/O write cycle.
func TestTextCycles(t *testing.T) {
	_, x, out := textRig(t)
	require.NoError(t, x.Run(strings.NewReader("break phase DATAIN\ncontinue\ndelete 1\n"), "", true))
	found := false
	for i := 0; i < 200 && !found; i++ {
		out.Reset()
		require.NoError(t, x.Exec("cycles"))
		s := out.String()
		if j := strings.Index(s, "IOW"); j >= 0 && strings.Contains(s[j:], "ACK") && strings.Contains(s, "out (021h)") {
			found = true
			assert.Regexp(t, `T\d+ +IOW .*\n +\+\d+ ns +BSY\|I/O\|REQ\|ACK`, s)
		}
	}
	assert.True(t, found, "an OUT to the ICR raised ACK within 200 instructions")
}

func TestTextEditing(t *testing.T) {
	r, x, out := textRig(t)
	require.NoError(t, x.Exec("poke 9000 12 34 0x56"))
	assert.Equal(t, []byte{0x12, 0x34, 0x56}, []byte{r.b.RAM(0x9000), r.b.RAM(0x9001), r.b.RAM(0x9002)})
	assert.Contains(t, out.String(), "9000  12 34 56")
	require.NoError(t, x.Exec("set HL 9000h+1"))
	require.NoError(t, x.Exec("set a PEEK(HL)"))
	require.NoError(t, x.Exec("set pc 0100h"))
	regs := r.b.CPU().Regs()
	assert.Equal(t, uint16(0x9001), regs.HL)
	assert.Equal(t, uint16(0x34), regs.AF>>8)
	assert.Equal(t, uint16(0x0100), regs.PC)
	for _, bad := range []string{"poke 9000", "poke 9000 123", "set QQ 1", "set HL (", "poke nowhere 1"} {
		assert.Error(t, x.Exec(bad), bad)
	}
}

// devices prints the device panels: the ACB-4000's transfer during the
// boot ROM's READ of block 0.
func TestTextDevices(t *testing.T) {
	r, x, out := textRig(t)
	assert.ErrorContains(t, x.Exec("devices"), "no device panels")
	x.Panels = DevicePanels(r.b)
	for _, line := range []string{"break cdb 08", "continue", "byte", "devices"} {
		require.NoError(t, x.Exec(line), line)
	}
	assert.Regexp(t, `> devices\nACB-4000 at SCSI ID 0\n  LUN 0: cylinder 0 head 0, sector slot [0-9]+ under the head\n  READ LBA 0 x1: `, out.String())
}

// The run-control and breakpoint commands the session does not use, on a
// program of our own: a conditional execute breakpoint, read and
// read-or-write watchpoints, history, finish.
func TestTextProgramCommands(t *testing.T) {
	src := `        org 0100h
start:  ld sp,0F000h
        ld b,5
loop:   call count
        djnz loop
        ld a,(9000h)
        ld hl,9001h
        inc (hl)
        halt
count:  ld a,b
        ld (8000h),a
        nop
        ret
`
	b, prog := ramProgramBoard(t, src)
	d := ForBoard(b, NewRecorder(1<<10))
	d.Syms.AddResult(prog)
	var out bytes.Buffer
	x := &Text{D: d, Out: &out, Echo: true}
	run := func(line string) string {
		t.Helper()
		out.Reset()
		require.NoError(t, x.Exec(line), line)
		return out.String()
	}
	run("break count if B = 3")
	assert.Contains(t, run("continue"), "breakpoint 1")
	assert.Equal(t, uint16(prog.Symbols["count"]), d.PC())
	assert.Equal(t, uint16(3), d.Machine().Regs().BC>>8, "stopped on the pass with B = 3")
	// Addresses may be register expressions: the instruction at PC, the
	// return address on the stack.
	assert.Regexp(t, fmt.Sprintf(`\n\*>%04X +78 +count: +ld a,b\n$`, prog.Symbols["count"]), run("dis pc 1"))
	ret := prog.Symbols["loop"] + 3
	assert.Contains(t, run("mem sp 2"), fmt.Sprintf("EFFE  %02X %02X", ret&0xFF, ret>>8))
	assert.Equal(t, run("dis peekw(sp) 1"), strings.Replace(run("dis loop+3 1"), "loop+3", "peekw(sp)", 1))
	// finish runs to the return: back in the loop at the DJNZ.
	run("delete 1")
	assert.Contains(t, run("finish"), "stepped out to loop+3")
	assert.Equal(t, uint16(prog.Symbols["loop"]+3), d.PC())
	// history lists the instructions just run, with their T-states.
	h := run("history 3")
	assert.Regexp(t, "^> history 3\n(T=[0-9]+ +count\\+[0-9] \\(01[0-9A-F]{2}h\\)\n){3}$", h)
	run("rwatch 9000")
	assert.Contains(t, run("continue"), "read of")
	assert.Equal(t, uint16(prog.Symbols["loop"]+5+3), d.PC(), "stopped after the LD A,(9000h)")
	// INC (HL) reads the byte and writes it back: one stop, after it.
	run("awatch 9001")
	assert.Contains(t, run("continue"), "of 00h at 9001h")
	last := d.History(1)[0].PC
	assert.Equal(t, "inc (hl)", d.Disassemble(last, 1)[0].Text)
	assert.Equal(t, uint8(1), b.RAM(0x9001))
	assert.Error(t, x.Exec("break count if B ="))
	assert.Error(t, x.Exec("rwatch nowhere"))
}

// Stepping by bus edge and to bus free, and a selection breakpoint, on the
// boot ROM's READ of block 0.
func TestTextBusSteps(t *testing.T) {
	r, x, out := textRig(t)
	for _, line := range []string{"break select 0", "continue"} {
		require.NoError(t, x.Exec(line), line)
	}
	assert.Contains(t, out.String(), "breakpoint 1")
	assert.Equal(t, scsi.Selection, r.d.Rec.Current().Phase)
	require.NoError(t, x.Exec("delete 1"))
	n := r.d.Rec.Total()
	out.Reset()
	require.NoError(t, x.Exec("edge"))
	assert.Equal(t, n+1, r.d.Rec.Total(), "one edge later")
	require.NoError(t, x.Exec("busfree"))
	assert.Equal(t, scsi.BusFree, r.d.Rec.Current().Phase)
	assert.Contains(t, out.String(), "BUS FREE entered")
	cmds := r.d.Rec.Commands(0, r.b.Now())
	require.Len(t, cmds, 1, "the whole READ ran")
	assert.Equal(t, 512, cmds[0].DataIn)
	// measure without a time: the last two ACKs, the status and message
	// bytes.
	tr := r.d.Rec.Transfers(0, r.b.Now())
	out.Reset()
	require.NoError(t, x.Exec("measure ACK"))
	assert.Equal(t, fmt.Sprintf("> measure ACK\nA %s  B %s  B-A %s\n", FormatTime(tr[len(tr)-2].T), FormatTime(tr[len(tr)-1].T),
		FormatDuration(tr[len(tr)-1].T-tr[len(tr)-2].T)), out.String())
}

// An I/O breakpoint with a value stops only at that value: the boot ROM's
// first write of ACK alone (10h) to the ICR is in DATA IN, after the CDB
// bytes went out with ACK and DBUS (11h).
func TestTextPortValue(t *testing.T) {
	r, x, out := textRig(t)
	for _, line := range []string{"break out 21 10", "continue"} {
		require.NoError(t, x.Exec(line), line)
	}
	assert.Contains(t, out.String(), "breakpoint 1")
	assert.Equal(t, scsi.DataIn, r.d.Rec.Current().Phase)
	last := r.d.History(1)[0].PC
	assert.Regexp(t, `^out `, r.d.Disassemble(last, 1)[0].Text)
	cmds := r.d.Rec.Commands(0, r.b.Now())
	require.Len(t, cmds, 1)
	assert.Equal(t, 6, cmds[0].CDBLen, "the CDB went out before")
	assert.Error(t, x.Exec("break out 21 100"))
	assert.Error(t, x.Exec("break sideways 21"))
}

// ramProgramBoard assembles src and returns a board whose stub ROM starts
// it from RAM, closed when the test ends.
func ramProgramBoard(t *testing.T, src string) (*emu.Board, *asm.Result) {
	t.Helper()
	prog, err := asm.AssembleString(src, asm.Options{})
	require.NoError(t, err)
	b, err := emu.New(emu.DefaultConfig(emu.StubROM(prog.Org)))
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	b.LoadRAM(0, emu.Stub(prog.Org))
	b.LoadRAM(prog.Org, prog.Bytes)
	return b, prog
}

// An assembler constant names a number, not a place: the disassembly never
// puts it on an operand (ld hl,0 stays 0000h beside a constant of value
// 0, a load from 0003h stays 0003h beside one of 3), while labels still
// name their addresses.
func TestDisassemblyNamesLabelsNotConstants(t *testing.T) {
	const src = `
ZERO    equ 0
THREE   equ 3
        org 9000h
start:  ld hl,0
        ld a,(3)
        call work
        halt
work:   ret
`
	b, prog := ramProgramBoard(t, src)
	d := ForBoard(b, NewRecorder(1<<10))
	d.Syms.AddResult(prog)
	lines := d.Disassemble(uint16(prog.Symbols["start"]), 3)
	assert.Equal(t, "ld hl,00000h", lines[0].Text)
	assert.Equal(t, "ld a,(00003h)", lines[1].Text)
	assert.Equal(t, "call work", lines[2].Text)
	assert.Equal(t, "start", lines[0].Label)
}

// A run stops when the CPU halts with interrupts off (how BACKUP ends):
// nothing but a reset or an NMI would go on, and a run at full speed
// spinning on HALT would leave the bus activity far behind.
func TestContinueStopsAtDIHalt(t *testing.T) {
	const src = `
        org 9000h
        ld b,200
loop:   djnz loop
        di
        halt
`
	b, prog := ramProgramBoard(t, src)
	d := ForBoard(b, NewRecorder(1<<10))
	d.Syms.AddResult(prog)
	st, err := d.Continue(ContinueLimit)
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Equal(t, "halt", st.Why)
	assert.Less(t, st.T, 20*sched.Millisecond, "stopped soon after the HALT, not at the end of the run's time")
	assert.Contains(t, st.Text, "DI; HALT")
}

// A program's labels name their addresses only while memory holds that
// program there: once something else is loaded over it (a monitor's code
// at 8000h under CP/M's TPA), the addresses are plain numbers again.
func TestLabelsHoldOnlyOverTheirCode(t *testing.T) {
	const src = `
        org 9000h
start:  ld hl,0
        call work
        halt
work:   inc a
        ret
`
	b, prog := ramProgramBoard(t, src)
	d := ForBoard(b, NewRecorder(1<<10))
	d.Syms.AddResult(prog)
	work := uint16(prog.Symbols["work"])
	assert.Equal(t, "work", d.Syms.Exact(work))
	assert.Equal(t, "call work", d.Disassemble(uint16(prog.Symbols["start"])+3, 1)[0].Text)
	assert.Equal(t, fmt.Sprintf("work+1 (%04Xh)", work+1), d.Syms.Label(work+1))

	b.LoadRAM(work, []byte{0x00, 0x00}) // another program's bytes there now
	assert.Equal(t, "", d.Syms.Exact(work))
	assert.Equal(t, fmt.Sprintf("call %05Xh", work), d.Disassemble(uint16(prog.Symbols["start"])+3, 1)[0].Text)
	assert.Equal(t, fmt.Sprintf("start+%d (%04Xh)", work+1-uint16(prog.Symbols["start"]), work+1), d.Syms.Label(work+1),
		"the nearest label that still holds")
}
