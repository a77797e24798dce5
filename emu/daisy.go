package emu

// daisyDevice is a Z80-family peripheral on the interrupt daisy chain.
type daisyDevice interface {
	// IntState: req when the device may interrupt now (given IEI high);
	// inService when a source is under service (IEO low).
	IntState() (req, inService bool)
	Acknowledge() uint8
	RETI()
}

// chain returns the devices in priority order: CTC, then DART [F MAME-ampro].
func (b *Board) chain() [2]daisyDevice { return [2]daisyDevice{b.ctc, b.dart} }

// updateINT recomputes /INT: the first device that requests, before any
// device under service blocks the rest of the chain.
func (b *Board) updateINT() {
	if b.cpu == nil {
		return
	}
	level := false
	for _, d := range b.chain() {
		req, busy := d.IntState()
		if req {
			level = true
			break
		}
		if busy {
			break
		}
	}
	b.cpu.SetINT(level)
}

// Acknowledge is the interrupt acknowledge cycle (z80host.InterruptAck):
// the highest-priority requesting device puts its vector on the bus.
func (b *Board) Acknowledge(t uint64) uint8 {
	b.s.Advance(b.ioTime(t))
	v := uint8(0xFF) // nobody answers: the bus floats
	for _, d := range b.chain() {
		req, busy := d.IntState()
		if req {
			v = d.Acknowledge()
			break
		}
		if busy {
			break
		}
	}
	b.updateINT()
	b.mix(2<<62 | uint64(t)<<24 | uint64(v))
	return v
}

// RETI is seen by the device with IEI high and a source under service
// (z80host.InterruptAck).
func (b *Board) RETI(t uint64) {
	b.s.Advance(b.ioTime(t))
	for _, d := range b.chain() {
		if _, busy := d.IntState(); busy {
			d.RETI()
			break
		}
	}
	b.updateINT()
	b.mix(3<<62 | uint64(t)<<24)
}
