package dart

import "fmt"

// ChannelState is one channel's complete state. The clock and the far
// end's wiring belong to the board.
type ChannelState struct {
	WR          [6]uint8
	Ptr         int
	TxBuf       uint8
	TxFull      bool
	TxShifting  bool
	TxShift     uint8
	TxPending   bool // the end-of-character event is queued (sched.State has its time)
	TxIntArmed  bool
	LineIn      []byte // characters the far end still has to send
	RxPending   bool
	FIFO        []uint8
	LastRx      uint8
	Overrun     bool
	FirstArmed  bool
	SpecialCond bool
	DCD, CTS    bool
	RI          bool
}

// State is the DART's complete state, for display and save states.
type State struct {
	IP, IS   [numSources]bool // interrupt pending and in service per source
	Channels [2]ChannelState
}

// State returns the DART's state; looking changes nothing.
func (d *DART) State() State {
	st := State{IP: d.ip, IS: d.is}
	for i := range d.ch {
		c := &d.ch[i]
		st.Channels[i] = ChannelState{WR: c.wr, Ptr: c.ptr, TxBuf: c.txBuf, TxFull: c.txFull, TxShifting: c.txShifting,
			TxShift: c.txShift, TxPending: c.txEvent != nil, TxIntArmed: c.txIntArmed,
			LineIn: append([]byte(nil), c.lineIn...), RxPending: c.rxEvent != nil, FIFO: append([]uint8(nil), c.fifo...),
			LastRx: c.lastRx, Overrun: c.overrun, FirstArmed: c.firstArmed, SpecialCond: c.specialCond,
			DCD: c.dcd, CTS: c.cts, RI: c.ri}
	}
	return st
}

// SetState puts the DART in state st without calling OnINT or OnTx; the
// scheduler restores the character events.
func (d *DART) SetState(st State) error {
	for i, cs := range st.Channels {
		if len(cs.FIFO) > rxFIFODepth || cs.Ptr < 0 || cs.Ptr >= len(cs.WR) {
			return fmt.Errorf("dart: channel %d: saved FIFO of %d bytes or register pointer %d out of range", i, len(cs.FIFO), cs.Ptr)
		}
	}
	d.ip, d.is = st.IP, st.IS
	for i, cs := range st.Channels {
		c := &d.ch[i]
		c.wr, c.ptr, c.txBuf, c.txFull, c.txShifting, c.txShift = cs.WR, cs.Ptr, cs.TxBuf, cs.TxFull, cs.TxShifting, cs.TxShift
		c.txIntArmed, c.lineIn, c.fifo = cs.TxIntArmed, append([]byte(nil), cs.LineIn...), append([]uint8(nil), cs.FIFO...)
		c.lastRx, c.overrun, c.firstArmed, c.specialCond = cs.LastRx, cs.Overrun, cs.FirstArmed, cs.SpecialCond
		c.dcd, c.cts, c.ri = cs.DCD, cs.CTS, cs.RI
		c.txEvent, c.rxEvent = nil, nil
		if cs.TxPending {
			c.txEvent = &c.txEv
		}
		if cs.RxPending {
			c.rxEvent = &c.rxEv
		}
	}
	return nil
}
