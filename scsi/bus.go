package scsi

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/lbplus/lbplus/sched"
)

// Line is a set of SCSI control signals, one bit each, 1 = asserted.
type Line uint16

// The control lines. DBP (data parity) is derived from DB0-7 by DriveData;
// Drive ignores it.
const (
	BSY Line = 1 << iota
	SEL
	CD // C/D: 1 = command/status/message, 0 = data
	IO // I/O: 1 = to the initiator
	MSG
	REQ
	ACK
	ATN
	RST
	DBP

	// AllControl is every line a port may drive with Drive.
	AllControl = BSY | SEL | CD | IO | MSG | REQ | ACK | ATN | RST
	// PhaseMask is MSG, C/D and I/O, the lines that name an information phase.
	PhaseMask = MSG | CD | IO
)

var lineNames = []string{"BSY", "SEL", "C/D", "I/O", "MSG", "REQ", "ACK", "ATN", "RST", "DBP"}

// LineNames lists the names of the line bits, lowest bit first.
func LineNames() []string { return append([]string(nil), lineNames...) }

// String lists the asserted lines, e.g. "BSY|C/D|REQ", or "-" when none.
func (l Line) String() string {
	if l == 0 {
		return "-"
	}
	var parts []string
	for i, n := range lineNames {
		if l&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// Phase is a bus phase. The information phases carry their SCSI MSG C/D I/O
// encoding (docs/HARDWARE.md 4); BusFree and Selection are beyond that range.
type Phase uint8

// Bus phases.
const (
	DataOut   Phase = 0 // MSG=0 C/D=0 I/O=0
	DataIn    Phase = 1 // I/O
	Command   Phase = 2 // C/D
	Status    Phase = 3 // C/D I/O
	Reserved4 Phase = 4 // MSG, reserved by SCSI-1
	Reserved5 Phase = 5 // MSG I/O, reserved by SCSI-1
	MsgOut    Phase = 6 // MSG C/D
	MsgIn     Phase = 7 // MSG C/D I/O
	BusFree   Phase = 8
	Selection Phase = 9 // SEL asserted (arbitration won, selection or reselection)
)

var phaseNames = []string{"DATA OUT", "DATA IN", "COMMAND", "STATUS", "RESERVED4", "RESERVED5", "MESSAGE OUT", "MESSAGE IN", "BUS FREE", "SELECTION"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "PHASE?"
}

// Lines returns the MSG C/D I/O pattern of an information phase (0 for
// BusFree and Selection).
func (p Phase) Lines() Line {
	if p > MsgIn {
		return 0
	}
	var l Line
	if p&1 != 0 {
		l |= IO
	}
	if p&2 != 0 {
		l |= CD
	}
	if p&4 != 0 {
		l |= MSG
	}
	return l
}

// InfoPhase returns the information phase named by MSG C/D I/O in l,
// whatever BSY and SEL are. The 5380 compares exactly these three lines
// with its TCR.
func InfoPhase(l Line) Phase {
	var p Phase
	if l&IO != 0 {
		p |= 1
	}
	if l&CD != 0 {
		p |= 2
	}
	if l&MSG != 0 {
		p |= 4
	}
	return p
}

// PhaseOf derives the bus phase from the lines.
func PhaseOf(l Line) Phase {
	switch {
	case l&SEL != 0:
		return Selection
	case l&BSY == 0:
		return BusFree
	}
	return InfoPhase(l)
}

// OddParity returns the DBP level that makes DB0-7 plus DBP odd.
func OddParity(v uint8) bool { return bits.OnesCount8(v)%2 == 0 }

// Observer is told of every bus change, after it is applied.
type Observer func(now sched.Time, lines Line, data uint8)

// Bus is the wired-OR SCSI cable.
type Bus struct {
	s     *sched.Scheduler
	ports []*Port
	// drives holds each port's contribution, in attach order, packed as
	// its control lines and DBP in the low 16 bits and its data byte
	// above: update ORs one contiguous slice, one load a port.
	drives []uint32
	// hears holds, in the same order, the changes each port's onChange
	// is told of (its Listen mask; none for a port without onChange):
	// update tests one contiguous slice and calls only the ports that
	// hear the change, a handshake edge's one listener.
	hears     []Line
	observers sched.Observers[busObserver]
	obsMask   Line // the lines some observer watches (OR of their masks)
	lines     Line
	data      uint8
	changes   uint64
	// hs is the initiator's DMA engine a target may run a byte's
	// handshake with (SetHandshaker, ahead.go), on port hsPort.
	hs     Handshaker
	hsPort *Port
	// aheadT is AheadTarget(hsPort) while aheadValid: what it depends on
	// (the ports' masks, a target's connection, which always sets its
	// mask, and the observers) clears aheadValid when it changes.
	aheadT     *Target
	aheadValid bool
}

// NewBus returns an idle bus whose changes are stamped with s's time.
func NewBus(s *sched.Scheduler) *Bus { return &Bus{s: s} }

// Sched returns the scheduler the bus is stamped with.
func (b *Bus) Sched() *sched.Scheduler { return b.s }

// Attach connects a device. onChange (may be nil) is called after every bus
// change made by another port; the device reads Lines/Data and schedules its
// reaction.
func (b *Bus) Attach(name string, onChange func(now sched.Time)) *Port {
	p := &Port{bus: b, name: name, onChange: onChange, idx: len(b.ports)}
	b.ports = append(b.ports, p)
	b.drives = append(b.drives, 0)
	b.hears = append(b.hears, 0)
	p.Listen(^Line(0))
	return p
}

type busObserver struct {
	mask Line
	fn   Observer
}

// DataLines, in an observer's mask, stands for DB0-7: the observer is told
// when the data byte changes.
const DataLines Line = 1 << 15

// Observe adds a tracer and returns a function that removes it. Observers
// see every change, in order, before the ports are told; with none
// attached a change costs one length check. An observer must not drive
// the bus.
func (b *Bus) Observe(o Observer) (remove func()) {
	return b.ObserveLines(AllControl|DBP|DataLines, o)
}

// ObserveLines is Observe for the changes of the lines in mask only (with
// DataLines: of the data byte too). An observer waiting for something rare
// (a selection, a reset) costs a mask test per change, not a call.
func (b *Bus) ObserveLines(mask Line, o Observer) (remove func()) {
	return b.observers.Add(busObserver{mask, o}, func() {
		b.aheadValid = false
		b.obsMask = 0
		for _, x := range b.observers.List() {
			b.obsMask |= x.mask
		}
	})
}

// Observed reports whether any observer is attached.
func (b *Bus) Observed() bool { return b.observers.Len() != 0 }

// Lines returns the OR of every port's control lines, with DBP.
func (b *Bus) Lines() Line { return b.lines }

// Data returns the OR of every byte driven on DB0-7 (0 when nobody drives).
func (b *Bus) Data() uint8 { return b.data }

// Phase returns the phase derived from the current lines.
func (b *Bus) Phase() Phase { return PhaseOf(b.lines) }

// Changes counts bus changes since NewBus (for tests and statistics).
func (b *Bus) Changes() uint64 { return b.changes }

func (b *Bus) update(from *Port) {
	// A port that drives no data has data 0 and dbp 0 (DriveData).
	i := from.idx
	b.drives[i] = from.packed()
	var or uint32
	for _, x := range b.drives {
		or |= x
	}
	l, d := Line(or), uint8(or>>16)
	changed := l ^ b.lines // DataLines is above every line: never in l
	if d != b.data {
		changed |= DataLines
	}
	if changed == 0 {
		return
	}
	b.lines, b.data = l, d
	b.changes++
	now := b.s.Now()
	if b.obsMask&changed != 0 {
		for _, o := range b.observers.List() {
			if o.mask&changed != 0 {
				o.fn(now, l, d)
			}
		}
	}
	// A listener may narrow or widen what it hears while it is told
	// (Listen): each mask is read when its port's turn comes.
	for j, h := range b.hears {
		if changed&h != 0 && j != i {
			b.ports[j].onChange(now)
		}
	}
}

// Port is one device's connector: its own contribution to the bus.
type Port struct {
	bus      *Bus
	name     string
	onChange func(now sched.Time)
	lines    Line
	data     uint8
	driving  bool
	dbp      Line    // DBP when driving data of even weight, else 0
	idx      int     // position in the bus's ports, drives and hears (Listen)
	eng      *Target // the target engine on this port, if any (ahead.go)
}

// packed is the port's contribution as the bus keeps it (Bus.drives).
func (p *Port) packed() uint32 { return uint32(p.lines|p.dbp) | uint32(p.data)<<16 }

// Listen narrows the changes the port's onChange is told of to those of
// the lines in mask (with DataLines: of the data byte); Attach starts with
// every change. It is for a level-sensitive device whose reaction, in its
// present state, depends on those lines alone: it is not called for a
// change that could not make it act. Observers still see every change.
func (p *Port) Listen(mask Line) {
	p.bus.aheadValid = false
	if p.onChange != nil {
		p.bus.hears[p.idx] = mask
	}
}

// Name returns the name given at Attach.
func (p *Port) Name() string { return p.name }

// Bus returns the bus the port is attached to.
func (p *Port) Bus() *Bus { return p.bus }

// Drive asserts (bit 1) or releases (bit 0) the lines selected by mask.
// DBP is ignored: it follows DriveData.
func (p *Port) Drive(lines, mask Line) {
	mask &= AllControl
	nl := p.lines&^mask | lines&mask
	if nl == p.lines {
		return
	}
	p.lines = nl
	p.bus.update(p)
}

// DriveData puts v on DB0-7 with odd parity on DBP (on) or stops driving
// the data lines (on false, v ignored).
func (p *Port) DriveData(v uint8, on bool) {
	if !on {
		v = 0
	}
	if p.driving == on && p.data == v {
		return
	}
	p.driving, p.data, p.dbp = on, v, 0
	if on && OddParity(v) {
		p.dbp = DBP
	}
	p.bus.update(p)
}

// DriveAll is DriveData(v, on) followed by Drive(lines, mask), each a bus
// change of its own when it changes something (data first, so a device
// that latches DB0-7 on a control edge sees the byte): one call for a
// chip that drives both after each of its steps, and nothing at all when
// neither changes.
func (p *Port) DriveAll(lines, mask Line, v uint8, on bool) {
	if !on {
		v = 0
	}
	mask &= AllControl
	nl := p.lines&^mask | lines&mask
	if p.driving == on && p.data == v && nl == p.lines {
		return
	}
	p.DriveData(v, on)
	p.Drive(lines, mask)
}

// Lines returns this port's own contribution to the control lines.
func (p *Port) Lines() Line { return p.lines }

// DrivenData returns the byte this port drives and whether it drives one.
func (p *Port) DrivenData() (uint8, bool) { return p.data, p.driving }

// Release drops every line and the data bus at once (bus reset, bus free).
func (p *Port) Release() {
	if p.lines == 0 && !p.driving {
		return
	}
	p.lines, p.data, p.driving, p.dbp = 0, 0, false, 0
	p.bus.update(p)
}

// PortState is one port's contribution to the bus, as saved.
type PortState struct {
	Name    string
	Lines   Line
	Data    uint8
	Driving bool
}

// BusState is the cable's complete state: every port's contribution (in
// attach order), the resulting lines and data, and the change count.
type BusState struct {
	Ports   []PortState
	Lines   Line
	Data    uint8
	Changes uint64
}

// State returns the bus's state; looking changes nothing.
func (b *Bus) State() BusState {
	st := BusState{Lines: b.lines, Data: b.data, Changes: b.changes}
	for _, p := range b.ports {
		st.Ports = append(st.Ports, PortState{Name: p.name, Lines: p.lines, Data: p.data, Driving: p.driving})
	}
	return st
}

// SetState restores every port's contribution without telling anyone:
// the devices on the bus restore their own view of it. The ports must be
// the same, attached in the same order.
func (b *Bus) SetState(st BusState) error {
	if len(st.Ports) != len(b.ports) {
		return fmt.Errorf("scsi: saved bus has %d ports, this one %d", len(st.Ports), len(b.ports))
	}
	for i, ps := range st.Ports {
		if ps.Name != b.ports[i].name {
			return fmt.Errorf("scsi: saved bus port %d is %q, this one %q", i, ps.Name, b.ports[i].name)
		}
	}
	for i, ps := range st.Ports {
		p := b.ports[i]
		p.lines, p.data, p.driving, p.dbp = ps.Lines, 0, ps.Driving, 0
		if ps.Driving { // a port not driving keeps data 0 (DriveData)
			p.data = ps.Data
			if OddParity(ps.Data) {
				p.dbp = DBP
			}
		}
		b.drives[i] = p.packed()
	}
	b.lines, b.data, b.changes = st.Lines, st.Data, st.Changes
	return nil
}
