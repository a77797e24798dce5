// Package scsitest provides a minimal, event-driven SCSI initiator for
// testing targets (disk, tape, the scsi engine) without the NCR 5380 and the
// Z80. It selects a target, optionally sends IDENTIFY, sends the CDB, moves
// data, and collects status and message bytes, reacting to every REQ after
// named delays.
//
// Known inaccuracies / assumptions: no arbitration (single initiator, as
// FUZIX on the Ampro); no parity checking; data-out bytes past the supplied
// buffer are sent as zero and counted as overrun.
package scsitest

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Result is what one command produced.
type Result struct {
	Status   byte
	Message  byte
	DataIn   []byte
	DataOut  int          // bytes taken by the target in DATA OUT
	Overrun  int          // DATA OUT bytes requested beyond the buffer
	Phases   []scsi.Phase // information phases in the order entered
	Timeout  bool         // selection timed out (no BSY)
	Start    sched.Time
	Selected sched.Time // BSY seen
	End      sched.Time // bus free after the command
	Done     bool
}

// Initiator is a test initiator on a scsi.Bus.
type Initiator struct {
	bus  *scsi.Bus
	port *scsi.Port
	s    *sched.Scheduler
	id   int

	// AckDelay: REQ asserted -> ACK asserted (includes reading or putting
	// the byte). ReleaseDelay: REQ released -> ACK released. Defaults
	// 200 ns each; a test may slow the host down here.
	AckDelay     sched.Time
	ReleaseDelay sched.Time
	// ByteDelay, if set, overrides AckDelay per information byte (index
	// counts all bytes of the command).
	ByteDelay func(phase scsi.Phase, index int) sched.Time

	target     int
	cdb        []byte
	out        []byte
	identify   bool
	lun        int
	ci, oi     int
	n          int
	state      int
	ev         *sched.Event
	res        *Result
	lastPh     scsi.Phase
	selTimeout *sched.Event
	hadPhase   bool
}

const (
	iIdle = iota
	iSelecting
	iConnected
	iAck // ACK asserted, waiting for REQ false
)

// New attaches an initiator with SCSI ID id.
func New(bus *scsi.Bus, id int) *Initiator {
	in := &Initiator{bus: bus, s: bus.Sched(), id: id, AckDelay: 200 * sched.Nanosecond, ReleaseDelay: 200 * sched.Nanosecond}
	in.port = bus.Attach(fmt.Sprintf("initiator%d", id), in.onChange)
	return in
}

// Port returns the initiator's connector.
func (in *Initiator) Port() *scsi.Port { return in.port }

// Start begins a command to target. With identify, ATN is raised during
// selection and IDENTIFY(lun) is sent in MESSAGE OUT. dataOut supplies the
// DATA OUT bytes. The returned Result fills in as the scheduler runs.
func (in *Initiator) Start(target int, cdb, dataOut []byte, identify bool, lun int) *Result {
	in.target, in.cdb, in.out, in.identify, in.lun = target, cdb, dataOut, identify, lun
	in.ci, in.oi, in.n, in.hadPhase = 0, 0, 0, false
	in.res = &Result{Start: in.s.Now()}
	in.state = iSelecting
	in.port.DriveData(uint8(1<<in.id|1<<target), true)
	atn := scsi.Line(0)
	if identify {
		atn = scsi.ATN
	}
	in.port.Drive(scsi.SEL|atn, scsi.SEL|scsi.ATN)
	in.ev = in.s.After(scsi.SelectionTimeout, "initiator selection timeout", func(now sched.Time) {
		in.ev, in.selTimeout = nil, nil
		in.res.Timeout = true
		in.res.Done = true
		in.res.End = now
		in.state = iIdle
		in.port.Release()
	})
	in.selTimeout = in.ev
	return in.res
}

// Run starts a command and advances the scheduler until it ends or limit
// of simulated time has passed.
func (in *Initiator) Run(target int, cdb, dataOut []byte, identify bool, lun int, limit sched.Time) *Result {
	r := in.Start(target, cdb, dataOut, identify, lun)
	end := in.s.Now() + limit
	for !r.Done && in.s.Next() <= end {
		in.s.Advance(in.s.Next())
	}
	return r
}

func (in *Initiator) onChange(now sched.Time) {
	l := in.bus.Lines()
	switch in.state {
	case iSelecting:
		if l&scsi.BSY != 0 && in.selTimeout != nil {
			in.selTimeout = nil
			in.s.Cancel(in.ev)
			in.res.Selected = now
			in.ev = in.s.After(2*scsi.DeskewDelay, "initiator release SEL", func(sched.Time) {
				in.ev = nil
				in.state = iConnected
				in.port.DriveData(0, false)
				in.port.Drive(0, scsi.SEL)
			})
		}
	case iConnected:
		if l&scsi.BSY == 0 {
			in.state = iIdle
			in.res.End = now
			in.res.Done = true
			in.port.Release()
			return
		}
		if l&scsi.REQ != 0 && in.ev == nil {
			ph := scsi.InfoPhase(l)
			d := in.AckDelay
			if in.ByteDelay != nil {
				d = in.ByteDelay(ph, in.n)
			}
			in.ev = in.s.After(d, "initiator ACK", in.ack)
		}
	case iAck:
		if l&scsi.REQ == 0 && in.ev == nil {
			in.ev = in.s.After(in.ReleaseDelay, "initiator ACK off", func(sched.Time) {
				in.ev = nil
				in.state = iConnected
				in.port.DriveData(0, false)
				in.port.Drive(0, scsi.ACK)
			})
		}
	}
}

func (in *Initiator) ack(now sched.Time) {
	in.ev = nil
	l := in.bus.Lines()
	ph := scsi.InfoPhase(l)
	if !in.hadPhase || ph != in.lastPh {
		in.res.Phases = append(in.res.Phases, ph)
		in.lastPh, in.hadPhase = ph, true
	}
	in.n++
	switch ph {
	case scsi.DataIn:
		in.res.DataIn = append(in.res.DataIn, in.bus.Data())
	case scsi.Status:
		in.res.Status = in.bus.Data()
	case scsi.MsgIn:
		in.res.Message = in.bus.Data()
	case scsi.MsgOut:
		in.port.DriveData(scsi.MsgIdentify|uint8(in.lun&7), true)
		in.port.Drive(0, scsi.ATN) // the only message: drop ATN before its ACK
	case scsi.Command:
		var b byte
		if in.ci < len(in.cdb) {
			b = in.cdb[in.ci]
		}
		in.ci++
		in.port.DriveData(b, true)
	case scsi.DataOut:
		var b byte
		if in.oi < len(in.out) {
			b = in.out[in.oi]
		} else {
			in.res.Overrun++
		}
		in.oi++
		in.res.DataOut++
		in.port.DriveData(b, true)
	}
	in.state = iAck
	in.port.Drive(scsi.ACK, scsi.ACK)
}
