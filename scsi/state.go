package scsi

import (
	"errors"
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// ErrClosurePending is wrapped by Target.State when a byte in flight
// continues through a closure (Send, Receive, SendByte, ReceiveByte)
// rather than a Cont: the device does not support save states.
var ErrClosurePending = errors.New("a byte in flight continues through a closure")

// TransferState is the byte in flight, as saved.
type TransferState struct {
	Phase Phase
	In    bool
	B     byte
	Gap   sched.Time
	Delay sched.Time
	Then  uint8
	K     Cont
}

// TargetState is the target engine's complete state, for display and for
// save states. The device behind it saves its own.
type TargetState struct {
	Conn       uint8 // idle, selecting, selected, connected
	Step       uint8 // the handshake step of the byte in flight
	Transfer   *TransferState
	Event      string // the engine's pending event, "" when none
	LastAckOff sched.Time
	InReset    bool
	Identified bool
	LUN        int
	CDB        []byte
	MsgBytes   int
	Stats      TargetStats
}

var connNames = [...]string{"idle", "selecting", "selected", "connected"}

// Connection names the connection state for display.
func (st TargetState) Connection() string { return connNames[st.Conn] }

// events lists the events the engine owns.
func (t *Target) events() []*sched.Event {
	es := []*sched.Event{&t.evReq, &t.evReqOff, &t.evRespond, &t.evAfterSel, &t.evCommand, &t.evBusFree}
	for i := range t.evPhase {
		es = append(es, &t.evPhase[i])
	}
	return es
}

// State returns the engine's state; looking changes nothing. It fails
// with ErrClosurePending when the byte in flight cannot be saved.
func (t *Target) State() (TargetState, error) {
	st := TargetState{Conn: uint8(t.state), Step: uint8(t.xs), LastAckOff: t.lastAckOff, InReset: t.inReset,
		Identified: t.identified, LUN: t.lun, CDB: append([]byte(nil), t.cdb...), MsgBytes: t.msgBytes, Stats: t.Stats}
	if t.ev != nil {
		st.Event = t.ev.Name()
	}
	if x := t.x; x != nil {
		if x.then == thenClosure {
			return st, fmt.Errorf("scsi: target %q, %v byte: %w", t.name, x.phase, ErrClosurePending)
		}
		st.Transfer = &TransferState{Phase: x.phase, In: x.in, B: x.b, Gap: x.gap, Delay: x.delay, Then: uint8(x.then), K: x.k}
	}
	return st, nil
}

// SetState puts the engine in state st (the scheduler restores the pending
// event itself, the bus the port's lines).
func (t *Target) SetState(st TargetState) error {
	if int(st.Conn) >= len(connNames) || st.Step > uint8(xWaitOff) {
		return fmt.Errorf("scsi: target %q: saved state %d/%d out of range", t.name, st.Conn, st.Step)
	}
	var ev *sched.Event
	if st.Event != "" {
		for _, e := range t.events() {
			if e.Name() == st.Event {
				ev = e
			}
		}
		if ev == nil {
			return fmt.Errorf("scsi: target %q: saved event %q is not the engine's", t.name, st.Event)
		}
	}
	t.x = nil
	if x := st.Transfer; x != nil {
		if then(x.Then) == thenClosure || x.Then > uint8(thenCommand) {
			return fmt.Errorf("scsi: target %q: saved transfer continuation %d cannot be restored", t.name, x.Then)
		}
		t.xbuf = transfer{phase: x.Phase, in: x.In, b: x.B, gap: x.Gap, delay: x.Delay, then: then(x.Then), k: x.K}
		t.x = &t.xbuf
	}
	t.state, t.xs, t.ev = tstate(st.Conn), xstate(st.Step), ev
	t.port.Listen(listenIn[t.state])
	if t.state == stIdle {
		// The bus may not be restored yet: hear the data lines too until
		// the next change of SEL, BSY or RST decides (listenIdle).
		t.port.Listen(listenIn[stIdle] | DataLines)
	}
	t.lastAckOff, t.inReset, t.acting = st.LastAckOff, st.InReset, false
	t.identified, t.lun, t.msgBytes, t.Stats = st.Identified, st.LUN, st.MsgBytes, st.Stats
	t.cdb = append([]byte(nil), st.CDB...)
	return nil
}
