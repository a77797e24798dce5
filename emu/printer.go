package emu

import "github.com/lbplus/lbplus/sched"

// The printer on the parallel port (docs/HARDWARE.md 1.3 and 1.6): port 01
// latches the data, port 02 asserts STROBE and port 03 releases it; the
// printer's BUSY reaches the CPU as DART channel B's RI input (RR0 bit 4
// set while busy) [F MAME-ampro].
//
// With Config.PrinterOut set a printer is cabled:
//   - [A] It takes the data latch when STROBE is asserted (a second port 02
//     write without a port 03 between prints nothing more).
//   - [A] It is a buffered printer that is never full: it raises BUSY as it
//     takes the byte and drops it PrinterBusy later, as a Centronics
//     printer does around its acknowledge pulse.
//
// Without a printer BUSY stays inactive and the bytes go nowhere.

// PrinterBusy is how long the printer holds BUSY after each byte [A].
const PrinterBusy = 10 * sched.Microsecond

// initPrinter makes the end-of-BUSY event (owned, so a save state taken
// while the printer is busy restores it).
func (b *Board) initPrinter() {
	b.printerEv.Init("printer busy", func(sched.Time) { b.dart.Channel(1).SetRI(false) })
	b.s.Own(&b.printerEv)
}

// strobe is a write to port 02 (on) or 03 (off).
func (b *Board) strobe(on bool) {
	was := b.printerStrob
	b.printerStrob = on
	if !on || was || b.cfg.PrinterOut == nil {
		return
	}
	now := b.s.Now()
	b.cfg.PrinterOut(now, b.printerData)
	b.dart.Channel(1).SetRI(true)
	b.s.Schedule(&b.printerEv, now+PrinterBusy)
}

// SerialBInput sends bytes from whatever is attached to DART channel B
// (a host program through a pty or a socket) to its receiver, at the
// rate the CTC and DART are programmed for, as ConsoleInput does for
// channel A. The far end holds its next character while the receive
// FIFO is full (docs/HARDWARE.md 1.6).
func (b *Board) SerialBInput(p []byte) {
	b.s.Advance(b.Now())
	b.dart.Channel(1).Feed(p)
}

// SerialBQueued is how many bytes given to SerialBInput are still on
// their way (not yet received by the DART).
func (b *Board) SerialBQueued() int { return b.dart.Channel(1).Queued() }
