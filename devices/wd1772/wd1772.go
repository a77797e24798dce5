// Package wd1772 models the Western Digital WD1772 floppy disk controller as
// the Ampro Little Board/PLUS uses it: four registers at C0h-C7h, polled (or
// jumpered INTRQ and DRQ), driving the drive selected by port 00.
//
// The chip is a state machine on simulated time. It is never ticked: each
// command schedules its next edge (a step pulse, the end of a settle, the
// next ID field or data byte passing the head, read from the drive's
// track layout), and counts index pulses the drive reports while its disk
// turns. Rotational latency, interleave and lost data therefore follow
// from where the fields lie on the track and when the host services DRQ.
//
// Commands (docs/FLOPPY.md "WD1772"): Restore, Seek, Step, Step In, Step
// Out (u, h, V, r1 r0), Read Sector and Write Sector (m, h, E, P, a0),
// Read Address, Read Track, Write Track (F5/F6/F7 in MFM, F7-FE in FM) and
// Force Interrupt (I2 every index, I3 immediate; the 1772 has no I0/I1).
//
// Known inaccuracies / assumptions:
//   - Bits are whole byte cells; no PLL, no bit shifts, no precompensation
//     (P is accepted and has no effect).
//   - A command write while busy other than Force Interrupt is ignored.
//   - A store that refuses a write (a raw image asked to hold a deleted
//     mark or a foreign track layout) ends the command with status bit 6,
//     as a write-protected disk would, and reports the error to OnError.
package wd1772

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

// Status bits.
const (
	StBusy      = 0x01
	StIndex     = 0x02 // type I
	StDRQ       = 0x02 // type II/III
	StTrack0    = 0x04 // type I
	StLostData  = 0x04 // type II/III
	StCRC       = 0x08
	StSeekError = 0x10 // type I
	StRNF       = 0x10 // type II/III
	StSpunUp    = 0x20 // type I
	StDeleted   = 0x20 // type II/III record type
	StProtect   = 0x40
	StMotor     = 0x80
)

// Registers as the board addresses them (A1 A0).
const (
	RegStatus  = 0 // read: status, write: command
	RegTrack   = 1
	RegSector  = 2
	RegData    = 3
	RegCommand = 0
)

// States of the command machine (reported to observers as State).
type state int

const (
	sIdle state = iota
	sPrepare
	sSpinUp
	sStep    // type I: next step pulse due
	sSettle  // head settling (V or E)
	sVerify  // type I: searching an ID with the track number
	sSearch  // type II/III: searching an ID
	sIDBytes // Read Address: ID bytes passing
	sIDCheck // type II: ID field ended, check it
	sRead    // Read Sector data bytes
	sReadCRC // Read Sector CRC passed
	sWriteGate
	sWrite
	sWriteEnd
	sTrackWait // Read/Write Track: waiting for the index
	sReadTrack
	sWriteTrack
	sHold      // done but the last DRQ is pending: BUSY stays
	sTrackLoad // Write Track: the first byte must be in within 3 byte times
	sLast      = sTrackLoad
)

// FDC is one WD1772.
type FDC struct {
	name string
	s    *sched.Scheduler
	p    Params

	drive   *floppy.Drive
	mfm     bool // /DDEN low
	clock16 bool // port 00 bit 7

	cmd, track, sector, data, status byte
	typeI                            bool // status shows type I bits
	drq, intrq, motor                bool

	st         state
	ev         sched.Event
	indexCount int // index pulses counted by the current wait
	idleIndex  int // index pulses since the last command ended
	onEveryIdx bool
	immediate  bool
	stepsLeft  int
	stepIn     bool

	// the sector or track being transferred
	rev    sched.Time // index time of the revolution the field lies in
	cand   int        // sector index on the track
	tr     *fdimage.Track
	pos    *floppy.Positions
	k      int // byte count
	buf    []byte
	cells  []floppy.Cell
	crc    uint16
	crcHi  bool // Write Track: second CRC byte due
	lastA1 bool

	// Writes the chip has not taken yet (CommandCommit, RegisterCommit).
	cmdEv, trackEv, sectorEv       sched.Event
	pendCmd, pendTrack, pendSector byte

	motorBefore bool  // the motor was on when the command was written
	searchState state // sVerify or sSearch while an ID is checked
	dataAt      int   // Write Sector: cell of the data mark written

	// OnMotor drives the MO output (to the drives' motor line).
	OnMotor func(now sched.Time, on bool)
	// OnINTRQ and OnDRQ are the INTRQ and DRQ outputs (jumpers).
	OnINTRQ, OnDRQ func(now sched.Time, level bool)
	// OnError receives store failures (see the package doc).
	OnError func(err error)
	obs     floppy.Observers
}

// New returns a WD1772 at reset: registers 0, motor off, MFM.
func New(s *sched.Scheduler, name string, p Params) *FDC {
	f := &FDC{name: name, s: s, p: p, mfm: true, typeI: true}
	f.ev.Init(name, f.step)
	f.cmdEv.Init(name+" command", func(now sched.Time) { f.command(now, f.pendCmd) })
	f.trackEv.Init(name+" track", func(sched.Time) { f.track = f.pendTrack })
	f.sectorEv.Init(name+" sector", func(sched.Time) { f.sector = f.pendSector })
	s.Own(&f.ev, &f.cmdEv, &f.trackEv, &f.sectorEv)
	return f
}

// Observe adds an observer of DRQ, INTRQ, BUSY and the internal state.
func (f *FDC) Observe(o floppy.Observer) (remove func()) { return f.obs.Add(o) }

// clocks converts FDC clocks to time at the current FDC clock.
func (f *FDC) clocks(n int) sched.Time {
	if f.clock16 {
		return sched.Time(n) * sched.FDCPeriod / 2
	}
	return sched.Time(n) * sched.FDCPeriod
}

// cell is one byte at the current density and clock.
func (f *FDC) cell() sched.Time {
	if f.mfm {
		return f.clocks(f.p.MFMByte)
	}
	return f.clocks(f.p.FMByte)
}

// Select connects the drive the port 00 select bits pick (nil: none).
func (f *FDC) Select(now sched.Time, d *floppy.Drive) {
	if d == f.drive {
		return
	}
	f.connect(d)
	f.replan(now)
}

// connect moves the chip's index and disk-change inputs to drive d.
func (f *FDC) connect(d *floppy.Drive) {
	if f.drive != nil && f.drive != d {
		f.drive.SetIndexHook(nil)
		f.drive.SetChangeHook(nil)
	}
	f.drive = d
	if d != nil {
		d.SetIndexHook(f.index)
		d.SetChangeHook(f.replan)
	}
}

// SetDensity sets /DDEN: mfm true is double density.
func (f *FDC) SetDensity(now sched.Time, mfm bool) { f.mfm = mfm }

// SetClock16 selects the 16 MHz FDC clock (port 00 bit 7).
func (f *FDC) SetClock16(now sched.Time, on bool) { f.clock16 = on }

// Taking reports whether a command was written and not yet taken.
func (f *FDC) Taking() bool { return f.cmdEv.Pending() }

// INTRQ and DRQ are the output levels.
func (f *FDC) INTRQ() bool { return f.intrq }
func (f *FDC) DRQ() bool   { return f.drq }

// Motor is the MO output.
func (f *FDC) Motor() bool { return f.motor }

func (f *FDC) setDRQ(now sched.Time, v bool) { f.setOutput(now, &f.drq, v, floppy.DRQ, f.OnDRQ) }

func (f *FDC) setINTRQ(now sched.Time, v bool) {
	f.setOutput(now, &f.intrq, v, floppy.INTRQ, f.OnINTRQ)
}

// setOutput drives an output pin to v: on a change of level only, the
// observers and the board's wire (out, nil when unconnected) hear it.
func (f *FDC) setOutput(now sched.Time, pin *bool, v bool, sig floppy.Signal, out func(sched.Time, bool)) {
	if v == *pin {
		return
	}
	*pin = v
	f.obs.Emit(now, f.name, sig, b2i(v))
	if out != nil {
		out(now, v)
	}
}

func (f *FDC) setBusy(now sched.Time, v bool) {
	if v == (f.status&StBusy != 0) {
		return
	}
	if v {
		f.status |= StBusy
	} else {
		f.status &^= StBusy
	}
	f.obs.Emit(now, f.name, floppy.Busy, b2i(v))
}

func (f *FDC) setMotor(now sched.Time, on bool) {
	f.idleIndex = 0
	if on == f.motor {
		return
	}
	f.motor = on
	if !on {
		f.status &^= StSpunUp // the next h = 0 command spins up again
	}
	if f.OnMotor != nil {
		f.OnMotor(now, on)
	}
}

func (f *FDC) enter(now sched.Time, s state) {
	f.st = s
	if f.obs.Len() != 0 {
		f.obs.Emit(now, f.name, floppy.State, int(s))
	}
}

// Read returns register reg (0-3) as the CPU reads it at now: what Peek
// shows, then the read's side effects (a status read clears INTRQ, a data
// read DRQ).
func (f *FDC) Read(reg int) byte {
	now := f.s.Now()
	v := f.Peek(reg)
	switch reg & 3 {
	case RegStatus:
		if !f.immediate {
			f.setINTRQ(now, false)
		}
	case RegData:
		f.setDRQ(now, false)
		if f.st == sHold {
			f.finish(now)
		}
	}
	return v
}

// Peek returns what Read would, without its side effects (for debuggers).
func (f *FDC) Peek(reg int) byte {
	switch reg & 3 {
	case RegStatus:
		v := f.status
		if f.motor {
			v |= StMotor
		} else {
			v &^= StMotor
		}
		if f.typeI {
			v &^= StIndex | StTrack0 | StProtect
			if d := f.drive; d != nil {
				if d.InIndex(f.s.Now()) {
					v |= StIndex
				}
				if d.Track0() {
					v |= StTrack0
				}
				if d.WriteProtected() {
					v |= StProtect
				}
			}
		} else if f.drq {
			v |= StDRQ
		} else {
			v &^= StDRQ
		}
		return v
	case RegTrack:
		return f.track
	case RegSector:
		return f.sector
	default:
		return f.data
	}
}

// Write stores v in register reg (0 is the command register). The chip
// takes a command CommandCommit later and a track or sector value
// RegisterCommit later (both doubled in FM); Force Interrupt at once [A],
// and a command written before the previous one was taken replaces it
// [F WD-MAME].
func (f *FDC) Write(reg int, v byte) {
	now := f.s.Now()
	switch reg & 3 {
	case RegCommand:
		if f.obs.Len() != 0 {
			f.obs.Emit(now, f.name, floppy.Command, int(v))
		}
		f.setINTRQ(now, false)
		if v&0xF0 == 0xD0 {
			f.s.Cancel(&f.cmdEv)
			f.command(now, v)
			return
		}
		f.pendCmd = v
		f.s.Schedule(&f.cmdEv, now+f.syncDelay(f.p.CommandCommit))
	case RegTrack:
		f.pendTrack = v
		f.s.Schedule(&f.trackEv, now+f.syncDelay(f.p.RegisterCommit))
	case RegSector:
		f.pendSector = v
		f.s.Schedule(&f.sectorEv, now+f.syncDelay(f.p.RegisterCommit))
	default:
		f.data = v
		f.setDRQ(now, false)
	}
}

// syncDelay is a register write's internal sync delay of n clocks in MFM;
// FM doubles it, as the data sheet's table of delays after a register
// write does for every entry [F WD1772-DS, WD-MAME; docs/FLOPPY.md "Audit"].
func (f *FDC) syncDelay(n int) sched.Time {
	if !f.mfm {
		n *= 2
	}
	return f.clocks(n)
}

func (f *FDC) busy() bool { return f.status&StBusy != 0 }

func (f *FDC) command(now sched.Time, v byte) {
	if v&0xF0 == 0xD0 {
		f.forceInterrupt(now, v)
		return
	}
	if f.busy() {
		return // ignored while busy [F]
	}
	f.setINTRQ(now, false)
	f.immediate, f.onEveryIdx = false, false
	f.cmd = v
	f.motorBefore = f.motor
	f.typeI = v&0x80 == 0
	// Every command starts with clean error bits; bit 5 is earned again by
	// this command's spin-up [F WD-MAME].
	f.status &= StMotor
	f.setDRQ(now, false)
	f.setBusy(now, true)
	f.enter(now, sPrepare)
	d := f.p.TypeIIDelay
	if f.typeI {
		d = f.p.TypeIDelay
	}
	f.s.Schedule(&f.ev, now+f.clocks(d))
}

func (f *FDC) forceInterrupt(now sched.Time, v byte) {
	f.s.Cancel(&f.ev)
	f.setINTRQ(now, false)
	if f.busy() {
		// The running command ends; its status bits stay [F WD1772-DS].
		f.setBusy(now, false)
	} else {
		// Nothing running: the status becomes type I, error bits cleared
		// [F WD1772-DS], and bit 5 cleared too, the motor bit set, as
		// measured on an ST [F WD-HATARI]; MAME sets bit 5 instead
		// (docs/FLOPPY.md "Audit").
		f.typeI = true
		f.status &= StMotor
	}
	f.setDRQ(now, false)
	f.enter(now, sIdle)
	// The 1772 turns the motor on for Force Interrupt too [F WD-MAME;
	// docs/FLOPPY.md];
	// it runs down after MotorOffIndex idle revolutions.
	f.setMotor(now, true)
	f.onEveryIdx = v&0x04 != 0
	f.immediate = v&0x08 != 0
	if f.immediate {
		f.setINTRQ(now, true)
	}
}

// finish ends the command: BUSY off, INTRQ on. A DRQ still pending after
// Lost Data (a write whose byte never came) is dropped first, so the
// status does not show DRQ once the command is over [F WD-MAME;
// docs/FLOPPY.md "Audit"].
func (f *FDC) finish(now sched.Time) {
	if !f.typeI && f.status&StLostData != 0 {
		f.setDRQ(now, false)
	}
	f.s.Cancel(&f.ev)
	f.setBusy(now, false)
	f.enter(now, sIdle)
	f.idleIndex = 0
	f.setINTRQ(now, true)
}

// index is the drive's index pulse (leading edge).
func (f *FDC) index(now sched.Time) {
	if f.onEveryIdx {
		f.setINTRQ(now, true)
	}
	if !f.busy() {
		if f.motor {
			f.idleIndex++
			if f.idleIndex >= f.p.MotorOffIndex {
				f.setMotor(now, false)
			}
		}
		return
	}
	f.indexCount++
	switch f.st {
	case sSpinUp:
		if f.indexCount >= f.p.SpinUpIndex {
			if f.typeI {
				f.status |= StSpunUp
			}
			f.s.Schedule(&f.ev, now)
		}
	case sVerify, sSearch:
		if f.indexCount >= f.p.SearchIndex {
			if f.st == sVerify {
				f.status |= StSeekError
			} else {
				f.status |= StRNF
			}
			f.finish(now)
		}
	case sTrackWait:
		f.rev = now
		f.s.Schedule(&f.ev, now)
	}
}

// replan follows a change of the disk (stopped, started, swapped, another
// drive selected) while the chip waits for an ID.
func (f *FDC) replan(now sched.Time) {
	switch f.st {
	case sVerify, sSearch:
		f.search(now)
	case sIDBytes, sIDCheck, sRead, sReadCRC, sWriteGate, sWrite, sWriteEnd, sReadTrack, sWriteTrack:
		// The field under the head is gone: nothing more arrives; the
		// command waits for an index pulse that counts it out, or for D0.
		if d := f.drive; d == nil || !d.Spinning() {
			f.s.Cancel(&f.ev)
		}
	}
}

// step is the command machine's event.
func (f *FDC) step(now sched.Time) {
	switch f.st {
	case sPrepare:
		f.setMotor(now, true)
		if f.cmd&0x08 == 0 {
			if !f.motorBefore {
				f.indexCount = 0
				f.enter(now, sSpinUp)
				return
			}
			if f.typeI { // h = 0 with the motor already up to speed
				f.status |= StSpunUp
			}
		}
		f.begin(now)
	case sSpinUp:
		f.begin(now)
	case sStep:
		f.typeIStep(now)
	case sSettle:
		if f.typeI {
			f.startSearch(now, sVerify)
		} else {
			f.typeII(now)
		}
	case sVerify, sSearch:
		f.idMark(now)
	case sIDBytes:
		f.idByte(now)
	case sIDCheck:
		f.idCheck(now)
	case sRead:
		f.readByte(now)
	case sReadCRC:
		f.readCRC(now)
	case sWriteGate:
		f.writeGate(now)
	case sWrite:
		f.writeByte(now)
	case sWriteEnd:
		f.writeEnd(now)
	case sTrackLoad:
		if f.drq { // the first byte did not come in time [F WD1772-DS]
			f.status |= StLostData
			f.finish(now)
			return
		}
		f.enter(now, sTrackWait)
	case sTrackWait:
		f.trackStart(now)
	case sReadTrack:
		f.readTrackByte(now)
	case sWriteTrack:
		f.writeTrackByte(now)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// String describes the chip for traces.
func (f *FDC) String() string {
	return fmt.Sprintf("%s cmd %02X st %02X tr %d sec %d data %02X", f.name, f.cmd, f.Peek(0), f.track, f.sector, f.data)
}
