package debugger

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// The ring keeps the last Capacity edges, in order, however many come;
// queries see the level before their window's start.
func TestRecorderRingWraps(t *testing.T) {
	r := NewRecorder(8)
	for i := 1; i <= 20; i++ {
		r.Set(sched.Time(i)*sched.Microsecond, IRQ, i%2 == 1)
	}
	assert.Equal(t, 8, r.Len())
	assert.Equal(t, uint64(20), r.Total())
	assert.Equal(t, 13*sched.Microsecond, r.Oldest())
	e := r.Edges(15*sched.Microsecond, 18*sched.Microsecond)
	require.Len(t, e, 4, "the level at the window's start, then 15, 16, 17 us")
	assert.Equal(t, 15*sched.Microsecond, e[0].T)
	assert.Equal(t, Signal(0), e[0].Sig, "the edge at 14 us cleared IRQ")
	assert.Equal(t, IRQ, e[1].Sig, "the one at 15 us set it")
	assert.Equal(t, []sched.Time{15 * sched.Microsecond, 17 * sched.Microsecond}, r.Rising(IRQ, 14*sched.Microsecond, 19*sched.Microsecond))
	// Setting a signal to its level records nothing.
	r.Set(21*sched.Microsecond, IRQ, false)
	assert.Equal(t, uint64(20), r.Total())
	assert.Equal(t, 8*EdgeSize+r.dec.memoryBytes(), r.MemoryBytes())
	// The default bound docs/DEBUGGER.md states: 1 Mi edges of 16 bytes
	// and the decoder's rings, 17.2 MiB.
	assert.Equal(t, 16, EdgeSize)
	assert.InDelta(t, 17.2, float64(NewRecorder(0).MemoryBytes())/(1<<20), 0.05)
	r.Reset()
	assert.Equal(t, 0, r.Len())
	assert.Empty(t, r.Segments(0, sched.MaxTime))
}

// A whole command on a bus driven edge by edge: selection, COMMAND with a
// CDB, DATA IN, STATUS, MESSAGE IN, bus free.
func TestDecoderCommand(t *testing.T) {
	r := NewRecorder(1024)
	now := sched.Time(0)
	var l scsi.Line
	var db uint8
	set := func(nl scsi.Line, d uint8) {
		now += sched.Microsecond
		l, db = nl, d
		r.SCSI(now, l, db)
	}
	handshake := func(p scsi.Line, b uint8) {
		set(scsi.BSY|p|scsi.REQ, b)
		set(scsi.BSY|p|scsi.REQ|scsi.ACK, b)
		set(scsi.BSY|p|scsi.ACK, b)
		set(scsi.BSY|p, b)
	}
	set(scsi.SEL, 0x81)          // initiator 7 and target 0 on the data bus
	set(scsi.SEL|scsi.BSY, 0x81) // the target answers
	set(scsi.BSY, 0)
	for _, b := range []byte{0x08, 0x00, 0x00, 0x02, 0x01, 0x00} {
		handshake(scsi.CD, b)
	}
	for i := 0; i < 3; i++ {
		handshake(scsi.IO, byte(i))
	}
	handshake(scsi.CD|scsi.IO, 0x02)
	handshake(scsi.MSG|scsi.CD|scsi.IO, 0x00)
	set(0, 0)
	var got []string
	for _, s := range r.Segments(0, sched.MaxTime) {
		got = append(got, s.Phase.String()+": "+s.Describe(nil))
	}
	assert.Equal(t, []string{
		"SELECTION: arbitration/selection of target 0",
		"COMMAND: READ(6) LUN 0 LBA 2 blocks 1",
		"DATA IN: 3 bytes",
		"STATUS: CHECK CONDITION (02h)",
		"MESSAGE IN: COMMAND COMPLETE (00h)",
		"BUS FREE: bus free",
	}, got)
	c := r.Commands(0, sched.MaxTime)
	require.Len(t, c, 1)
	assert.Equal(t, 0, c[0].Target)
	assert.Equal(t, 3, c[0].DataIn)
	assert.Equal(t, 2, c[0].Status)
	assert.Equal(t, now, c[0].End)
	tr := r.Transfers(0, sched.MaxTime)
	assert.Len(t, tr, 6+3+1+1)
}

func TestDecodeCDB(t *testing.T) {
	for _, tc := range []struct {
		cdb  []byte
		kind Kind
		want string
	}{
		{[]byte{0x08, 0, 0, 0, 1, 0}, Disk, "READ(6) LUN 0 LBA 0 blocks 1"},
		{[]byte{0x0A, 0x21, 0x02, 0x03, 0, 0}, Disk, "WRITE(6) LUN 1 LBA 66051 blocks 256"},
		{[]byte{0x0A, 0, 0, 5, 1, 0}, Tape, "WRITE(6) LUN 0 LBA 5 blocks 1"},
		{[]byte{0x01, 0, 0, 0, 0, 0}, Tape, "REWIND LUN 0"},
		{[]byte{0x01, 0, 0, 0, 0, 0}, Disk, "REZERO UNIT LUN 0"},
		{[]byte{0x03, 0, 0, 0, 4, 0}, Disk, "REQUEST SENSE LUN 0 length 4"},
		{[]byte{0x04, 0, 0, 0, 3, 0}, Disk, "FORMAT UNIT LUN 0 interleave 3"},
		{[]byte{0x28, 0, 0, 0, 1, 0, 0, 0, 8, 0}, Disk, "READ(10) LUN 0 LBA 256 blocks 8"},
		{[]byte{0x10, 0, 0xFF, 0xFF, 0xFF, 0}, Tape, "WRITE FILEMARKS LUN 0 count -1"},
		{[]byte{0xC1, 0, 0, 0, 0, 0}, Disk, "opcode C1h LUN 0"},
		{[]byte{0x28, 0, 0}, Disk, "READ(10) (CDB cut short: 28 00 00)"},
		{nil, Disk, "(no CDB)"},
	} {
		assert.Equal(t, tc.want, DecodeCDB(tc.cdb, tc.kind))
	}
	assert.Equal(t, "BUSY", StatusName(8))
	assert.Equal(t, "IDENTIFY LUN 1", MessageName(0x81))
}

func TestParsers(t *testing.T) {
	for in, want := range map[string]sched.Time{"250ns": 250 * sched.Nanosecond, "15us": 15 * sched.Microsecond,
		"1.5ms": 1500 * sched.Microsecond, "2s": 2 * sched.Second, "40": 40 * sched.Microsecond} {
		got, err := ParseDuration(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "x", "-1s", "5parsecs"} {
		_, err := ParseDuration(bad)
		assert.Error(t, err, bad)
	}
	for in, want := range map[string]scsi.Phase{"COMMAND": scsi.Command, "data in": scsi.DataIn, "DATAIN": scsi.DataIn,
		"msgin": scsi.MsgIn, "busfree": scsi.BusFree, "selection": scsi.Selection} {
		got, err := ParsePhase(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	s, err := ParseSignal("ack")
	require.NoError(t, err)
	assert.Equal(t, Signal(scsi.ACK), s)
	s, err = ParseSignal("DRQ")
	require.NoError(t, err)
	assert.Equal(t, DRQ, s)

	syms := NewSymbols()
	require.NoError(t, syms.Read("t.sym", strings.NewReader("start\t\tEQU 08000H\nloop EQU 0x8010\n; c\n\nend EQU 33040\n")))
	assert.Equal(t, "start (8000h)", syms.Label(0x8000))
	assert.Equal(t, "loop+2 (8012h)", syms.Label(0x8012))
	assert.Equal(t, "0100h", syms.Label(0x0100))
	for in, want := range map[string]uint16{"loop": 0x8010, "loop+2": 0x8012, "28": 0x28, "28h": 0x28, "0x28": 0x28, "$ff": 0xFF, "end": 33040} {
		got, err := syms.Address(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err = syms.Address("nosuch")
	assert.Error(t, err)
	err = syms.Read("bad.sym", strings.NewReader("ok EQU 1\nbroken line\n"))
	assert.ErrorContains(t, err, "bad.sym:2:")
}

// Sample gives each pixel column the level at its start and whether the
// signal changed inside it, also where a column holds more edges than it
// reads.
func TestTimelineSample(t *testing.T) {
	us := sched.Microsecond
	r := NewRecorder(4096)
	r.Set(15*us, DRQ, true)  // column 1
	r.Set(35*us, DRQ, false) // column 3
	r.Set(36*us, IRQ, true)
	for i := 0; i < 1000; i++ { // column 6: 1000 toggles
		r.Set(60*us+sched.Time(i)*sched.Nanosecond, DRQ, i%2 == 0)
	}
	tl := &Timeline{From: 0, Span: 100 * us}
	g := tl.Sample(r, []Signal{DRQ, IRQ}, 10)
	var drq, irq string
	for c := 0; c < 10; c++ {
		drq += colChar(g[0][c])
		irq += colChar(g[1][c])
	}
	assert.Equal(t, "_|#|__|___", drq)
	assert.Equal(t, "___|######", irq)
	assert.Equal(t, 1003, r.Count(0, 100*us))
	assert.Equal(t, 1000, r.Count(60*us, 70*us))
}

func colChar(c Column) string {
	switch {
	case c.Changed:
		return "|"
	case c.High:
		return "#"
	}
	return "_"
}

// The phase band's letters are the ones its legend gives.
func TestPhaseLetters(t *testing.T) {
	for _, c := range []struct {
		p    scsi.Phase
		want byte
	}{{scsi.Selection, 'S'}, {scsi.Command, 'C'}, {scsi.DataIn, 'I'}, {scsi.DataOut, 'O'},
		{scsi.Status, 's'}, {scsi.MsgIn, 'm'}, {scsi.MsgOut, 'o'}, {scsi.BusFree, 'F'}} {
		assert.Equal(t, string(c.want), string(phaseLetter(c.p)), c.p.String())
	}
}
