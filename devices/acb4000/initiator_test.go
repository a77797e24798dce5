package acb4000

import (
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// initiator is a minimal SCSI initiator for tests: it selects a target
// without arbitration (as FUZIX and the Ampro BIOS do), answers every REQ
// by phase and takes or gives DATA bytes no faster than one per PerByte,
// like a Z80 INIR/OTIR loop through the board's pseudo-DMA port.
type initiator struct {
	s    *sched.Scheduler
	bus  *scsi.Bus
	port *scsi.Port

	PerByte  sched.Time // ACK to ACK in DATA phases (5.25 us: INIR)
	CmdByte  sched.Time // REQ to ACK for COMMAND/STATUS/MESSAGE bytes
	AckDelay sched.Time // REQ to ACK at the earliest
	AckOff   sched.Time // REQ released to ACK released

	cdb     []byte
	out     []byte
	in      []byte
	status  int
	msgs    []byte
	lastAck sched.Time
	acked   bool
	sel     bool
	done    func(now sched.Time)
	ev      *sched.Event

	FirstData sched.Time // first DATA byte ACK of the command
	LastData  sched.Time // last DATA byte ACK of the command
}

func newInitiator(bus *scsi.Bus) *initiator {
	in := &initiator{s: bus.Sched(), bus: bus, PerByte: 5250 * sched.Nanosecond,
		CmdByte: 10 * sched.Microsecond, AckDelay: 200 * sched.Nanosecond, AckOff: 50 * sched.Nanosecond}
	in.port = bus.Attach("initiator", in.onChange)
	return in
}

// command selects target id and runs cdb, sending out in DATA OUT; done is
// called at bus free. Results are in in.in, in.status.
func (h *initiator) command(id int, cdb, out []byte, done func(now sched.Time)) {
	h.cdb, h.out, h.in, h.status, h.msgs = append([]byte(nil), cdb...), out, nil, -1, nil
	h.done = done
	h.sel = true
	h.FirstData, h.LastData = 0, 0
	h.port.DriveData(1<<7|1<<id, true)
	h.port.Drive(scsi.SEL, scsi.SEL)
}

func (h *initiator) onChange(now sched.Time) {
	lines := h.bus.Lines()
	if h.sel {
		if lines&scsi.BSY != 0 {
			h.sel = false
			h.s.After(100*sched.Nanosecond, "initiator release SEL", func(sched.Time) {
				h.port.DriveData(0, false)
				h.port.Drive(0, scsi.SEL)
			})
		}
		return
	}
	if h.done == nil {
		return
	}
	if lines&scsi.BSY == 0 && lines&scsi.SEL == 0 && h.status >= 0 {
		d := h.done
		h.done = nil
		d(now)
		return
	}
	switch {
	case lines&scsi.REQ != 0 && !h.acked && h.ev == nil:
		phase := scsi.InfoPhase(lines)
		at := now + h.AckDelay
		switch phase {
		case scsi.DataIn, scsi.DataOut:
			if h.lastAck > 0 {
				at = max(at, h.lastAck+h.PerByte)
			}
		default:
			at = now + h.CmdByte
		}
		h.ev = h.s.At(at, "initiator ACK", func(now sched.Time) {
			h.ev = nil
			h.ack(now, phase)
		})
	case lines&scsi.REQ == 0 && h.acked && h.ev == nil:
		// Devices never react synchronously to a bus change.
		h.ev = h.s.After(h.AckOff, "initiator ACK off", func(sched.Time) {
			h.ev = nil
			h.acked = false
			h.port.DriveData(0, false)
			h.port.Drive(0, scsi.ACK)
		})
	}
}

func (h *initiator) ack(now sched.Time, phase scsi.Phase) {
	switch phase {
	case scsi.Command:
		b := byte(0)
		if len(h.cdb) > 0 {
			b, h.cdb = h.cdb[0], h.cdb[1:]
		}
		h.port.DriveData(b, true)
	case scsi.DataOut:
		b := byte(0)
		if len(h.out) > 0 {
			b, h.out = h.out[0], h.out[1:]
		}
		h.port.DriveData(b, true)
	case scsi.DataIn:
		h.in = append(h.in, h.bus.Data())
	case scsi.Status:
		h.status = int(h.bus.Data())
	case scsi.MsgIn:
		h.msgs = append(h.msgs, h.bus.Data())
	}
	if phase == scsi.DataIn || phase == scsi.DataOut {
		h.lastAck = now
		if h.FirstData == 0 {
			h.FirstData = now
		}
		h.LastData = now
	}
	h.acked = true
	h.port.Drive(scsi.ACK, scsi.ACK)
}
