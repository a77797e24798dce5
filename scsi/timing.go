package scsi

import "github.com/lbplus/lbplus/sched"

// Timing holds every delay of the target engine. A device copies
// DefaultTiming() and overrides the fields it knows better; each field says
// where the engine waits and carries its unit (sched.Time, picoseconds) and
// source tag.
type Timing struct {
	// SelectResponse: SEL with our ID bit and BSY false seen -> BSY
	// asserted. Firmware polls the selection detector. [A] 2 us.
	SelectResponse sched.Time
	// SelectToPhase: initiator releases SEL -> first phase lines (MESSAGE
	// OUT or COMMAND) driven. [A] 1 us.
	SelectToPhase sched.Time
	// PhaseSettle: phase lines changed -> REQ may be asserted. Bus settle
	// delay 400 ns [F SCSI-T, docs/HARDWARE.md 4].
	PhaseSettle sched.Time
	// DataSetup: target's byte on DB0-7 -> REQ. Deskew 45 ns + cable skew
	// 10 ns = 55 ns [F SCSI-T].
	DataSetup sched.Time
	// ReqOffAfterAck: ACK asserted -> REQ released (the target's hardware
	// handshake). [A] 100 ns.
	ReqOffAfterAck sched.Time
	// ReqAfterAck: ACK released -> next REQ of a DATA byte, the turnaround
	// of the target's handshake logic when it has data. The ACB-4000 moves
	// 1.5 MB/s (667 ns a byte) with a fast host [F ACB-OEM]; [A] 300 ns of
	// that is this turnaround.
	ReqAfterAck sched.Time
	// CommandReqAfterAck: ACK released -> next REQ in COMMAND and MESSAGE
	// OUT, where the target's firmware takes each byte. [A] 10 us.
	CommandReqAfterAck sched.Time
	// CommandDecode: last CDB byte's ACK released -> Device.Command called.
	// The device adds its own decode time on top. [A] 0.
	CommandDecode sched.Time
	// StatusDelay: Device calls Complete -> STATUS phase lines driven. [A] 10 us.
	StatusDelay sched.Time
	// MessageDelay: status byte's ACK released -> MESSAGE IN phase lines
	// driven. [A] 5 us.
	MessageDelay sched.Time
	// BusFreeDelay: COMMAND COMPLETE's ACK released -> BSY and phase lines
	// released. [A] 2 us (bus free is at least 800 ns [F SCSI-T]).
	BusFreeDelay sched.Time
}

// DefaultTiming returns the generic values documented on Timing's fields.
func DefaultTiming() Timing {
	return Timing{
		SelectResponse:     2 * sched.Microsecond,
		SelectToPhase:      1 * sched.Microsecond,
		PhaseSettle:        400 * sched.Nanosecond,
		DataSetup:          55 * sched.Nanosecond,
		ReqOffAfterAck:     100 * sched.Nanosecond,
		ReqAfterAck:        300 * sched.Nanosecond,
		CommandReqAfterAck: 10 * sched.Microsecond,
		CommandDecode:      0,
		StatusDelay:        10 * sched.Microsecond,
		MessageDelay:       5 * sched.Microsecond,
		BusFreeDelay:       2 * sched.Microsecond,
	}
}

// SCSI-1 bus timing constants [F SCSI-T, docs/HARDWARE.md 4], for initiators.
const (
	ArbitrationDelay = 2200 * sched.Nanosecond
	BusClearDelay    = 800 * sched.Nanosecond
	BusFreeTime      = 800 * sched.Nanosecond
	BusSetDelay      = 1800 * sched.Nanosecond
	BusSettleDelay   = 400 * sched.Nanosecond
	CableSkewDelay   = 10 * sched.Nanosecond
	DataReleaseDelay = 400 * sched.Nanosecond
	DeskewDelay      = 45 * sched.Nanosecond
	ResetHoldTime    = 25 * sched.Microsecond
	SelectionAbort   = 200 * sched.Microsecond
	SelectionTimeout = 250 * sched.Millisecond
)
