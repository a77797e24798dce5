package emu

import (
	"github.com/lbplus/lbplus/sched"
)

// SCSIChip is the NCR 5380 as the board's I/O decode sees it: registers 0-7
// at ports 20-27 and the pseudo-DMA (DACK) port 28.
type SCSIChip interface {
	Read(reg int) uint8
	Write(reg int, v uint8)
	DMARead() uint8
	DMAWrite(v uint8)
	DRQ() bool
}

// FDC is the WD1772 window: registers 0-3 (status/command, track, sector,
// data).
type FDC interface {
	Read(reg int) uint8
	Write(reg int, v uint8)
}

// AttachFDC puts f at ports C0-C7 in place of the board's WD1772 (tests
// that script the chip); f's INTRQ and DRQ outputs go to FDCINTRQ and
// FDCDRQ.
func (b *Board) AttachFDC(f FDC) { b.fdc = f }

// Port 00 bits [F MAME-ampro, FUZIX lb.h].
const (
	LatchDriveMask = 0x0F // one-hot drive select
	LatchSide1     = 0x10
	LatchSingleDen = 0x20 // /DDEN: 1 = FM
	LatchRAM       = 0x40 // 1 = RAM over the ROM
	LatchFDC16MHz  = 0x80
)

func (b *Board) writeLatch(v uint8) {
	b.latch = v
	b.romOn = v&LatchRAM == 0
	b.mapMemory()
	b.latchFloppy(v)
}

func (b *Board) ioTime(t uint64) sched.Time {
	return sched.Time(t+IOAccessOffset) * sched.TState
}

// noteIO keeps LastBusyIO: any port but DART channel A's (80h-87h).
func (b *Board) noteIO(p uint8) {
	if p&0xF8 != 0x80 {
		b.busyIO = b.s.Now()
	}
}

// LastBusyIO is the simulated time of the program's last access to a port
// other than the console's (DART channel A). A program that touches only
// the console, or no port at all, for a long while is waiting for a key or
// idling: the front end's fast boot watches this (it is no part of the
// machine's state and changes nothing in it).
func (b *Board) LastBusyIO() sched.Time { return b.busyIO }

// In is an I/O read cycle (z80host.Bus).
func (b *Board) In(port uint16, t uint64) (uint8, int) {
	b.s.Advance(b.ioTime(t))
	p := uint8(port)
	b.noteIO(p)
	v := uint8(0xFF)
	waits := 0
	switch {
	case p >= 0x20 && p <= 0x27:
		v = b.scsi.Read(int(p & 7))
	case p == 0x28:
		waits = b.waitDRQ(t)
		v = b.scsi.DMARead()
	case p == 0x29:
		v = b.cfg.SpareJumpers&0xF8 | uint8(b.cfg.SCSIID)
	case p >= 0x40 && p <= 0x7F:
		v = b.ctc.Read(int(p>>4) & 3)
	case p >= 0x80 && p <= 0x8F:
		ch := b.dart.Channel(int(p>>3) & 1)
		if p&4 != 0 {
			v = ch.ReadControl()
		} else {
			v = ch.ReadData()
		}
	case p >= 0xC4 && p <= 0xC7:
		v = b.fdc.Read(int(p & 3))
	}
	b.mix(uint64(t)<<24 | uint64(port)<<8 | uint64(v))
	if b.obs.watched(uint8(port)) {
		b.notifyIO(t, port, v, false)
	}
	return v, waits
}

// SteadyUntil is the hint the CPU's loop replay asks for
// (z80host.SteadyBus): the T-state before which an In of port returns
// what it returns at t and changes nothing the CPU sees. That holds until
// the next scheduler event for the ports whose read has no side effect
// and whose value only an event or an Out changes: the 5380's registers
// 0-6 (ncr5380.Chip.SteadyRead) and the jumper port 29, while no observer
// watches the port. Every other port is not steady (the CTC counts as
// time passes; reading the WD1772's status or the DART's data clears
// what they hold). The CPU checks each In it replays anyway.
func (b *Board) SteadyUntil(port uint8, t uint64) uint64 {
	switch {
	case port >= 0x20 && port <= 0x26:
		if b.scsi != SCSIChip(b.ncr) || !b.ncr.SteadyRead(int(port&7)) {
			return 0
		}
	case port == 0x29:
	default:
		return 0
	}
	if b.obs.watched(port) {
		return 0
	}
	next := b.s.Next()
	if next == sched.MaxTime {
		return ^uint64(0)
	}
	// An In at T-state u runs the events due at ioTime(u) first.
	if u := ceilT(next); u > IOAccessOffset {
		return u - IOAccessOffset
	}
	return 0
}

// Out is an I/O write cycle (z80host.Bus).
func (b *Board) Out(port uint16, v uint8, t uint64) int {
	b.s.Advance(b.ioTime(t))
	p := uint8(port)
	b.noteIO(p)
	waits := 0
	switch {
	case p == 0x00:
		b.writeLatch(v)
	case p == 0x01:
		b.printerData = v
	case p == 0x02:
		b.strobe(true)
	case p == 0x03:
		b.strobe(false)
	case p >= 0x20 && p <= 0x27:
		b.scsi.Write(int(p&7), v)
	case p == 0x28:
		waits = b.waitDRQ(t)
		b.scsi.DMAWrite(v)
	case p >= 0x40 && p <= 0x7F:
		b.ctc.Write(int(p>>4)&3, v)
	case p >= 0x80 && p <= 0x8F:
		ch := b.dart.Channel(int(p>>3) & 1)
		if p&4 != 0 {
			ch.WriteControl(v)
		} else {
			ch.WriteData(v)
		}
	case p >= 0xC0 && p <= 0xC3:
		b.fdc.Write(int(p&3), v)
	}
	b.mix(1<<63 | uint64(t)<<24 | uint64(port)<<8 | uint64(v))
	if b.obs.watched(uint8(port)) {
		b.notifyIO(t, port, v, true)
	}
	return waits
}

// waitDRQ returns the extra wait states a port 28 access gets under
// hypothesis B: WAIT is sampled at TW and again each T-state until DRQ.
// The scheduler is advanced with it, so the target keeps moving meanwhile.
func (b *Board) waitDRQ(t uint64) int {
	if !b.cfg.WaitOnDRQ || b.scsi.DRQ() {
		return 0
	}
	ts := t + WaitSample
	start := ts
	maxT := uint64(b.cfg.MaxWait / sched.TState)
	for !b.scsi.DRQ() {
		next := b.s.Next()
		if next == sched.MaxTime || ts-start > maxT {
			b.err = ErrHung
			b.Stop()
			return int(ts - start)
		}
		// Nothing changes DRQ between events: jump to the first WAIT sample
		// at or after the next event.
		nt := ceilT(next)
		if nt <= ts {
			nt = ts + 1
		}
		ts = nt
		b.s.Advance(sched.Time(ts) * sched.TState)
	}
	return int(ts - start)
}
