// Package ncr5380 models the NCR 5380 SCSI protocol controller of the Little
// Board/PLUS as an initiator, at register and signal level, and the board's
// pseudo-DMA port (I/O 0x28, the chip's DACK).
//
// Registers (docs/HARDWARE.md 3.1; read / write):
//
//	0 current SCSI data      / output data (ODR)
//	1 initiator command (ICR)/ ICR
//	2 mode (MR)              / MR
//	3 target command (TCR)   / TCR
//	4 current bus status     / select enable
//	5 bus and status (BSR)   / start DMA send
//	6 input data (IDR)       / start DMA target receive
//	7 reset parity/interrupt / start DMA initiator receive
//
// The chip is one scsi.Port. CSB, BSR phase match, ATN and ACK are read live
// from the bus. Software drives BSY, SEL, ATN, ACK, RST and the data bus
// through the ICR (programmed I/O), or lets the chip handshake itself in DMA
// mode (MR bit 1, TCR = expected phase, then a write to register 5 or 7).
// DMA has one input latch (IDR) and one output latch (ODR): no FIFO and no
// byte counter (docs/HARDWARE.md 3.3). The host moves each byte with a DACK
// access: DMARead returns IDR and lets the chip assert ACK; DMAWrite loads
// ODR and lets the chip answer the next REQ.
//
// Every edge the chip makes itself comes after a named delay in Timing, so
// bus traces show the chip's reaction times; the board calls
// sched.Advance(now) before every access, so an access happens at s.Now().
//
// Hypothesis A (docs/HARDWARE.md 1.5, 3.3; the board default): DACK is not
// gated by DRQ. A DACK read while DRQ is off returns the stale IDR (the host
// gets a byte twice) and does not start a handshake; a DACK write while DRQ
// is off overwrites ODR (the byte it replaces never reaches the target).
// Both are counted in Stats. Under hypothesis B the board holds the Z80 in
// WAIT until DRQ (see DRQ and OnDRQ), so these counters stay zero.
//
// Known inaccuracies / assumptions:
//   - Target mode (MR bit 6, register 6 write) is not modelled: the chip is
//     only ever an initiator on this board [A].
//   - Block mode (MR bit 7) is stored but behaves as normal DMA; Ampro
//     software does not use it [A].
//   - Parity is always correct on the modelled bus, so parity errors and
//     their interrupt never occur.
//   - EOP is not wired on the Ampro [A]: end of DMA (BSR bit 7) is only set
//     by an explicit EOP call, which the board never makes; software counts
//     bytes.
//   - Phase mismatch in DMA mode gives IRQ and no DRQ, sampled at each REQ
//     rising edge [F CLK]; MAME additionally raises DRQ, not modelled.
//   - Loss of BSY always ends DMA mode; only with MR bit 2 does it set busy
//     error, raise IRQ, clear ICR bits 0-5 and release the bus [F datasheet
//     via docs/HARDWARE.md 3.3].
//   - Lost arbitration is detected only from another device's SEL; a higher
//     ID on the data bus is for software to check (register 0), as the
//     datasheet asks.
//   - In DMA send the chip drives ODR during its ACK cycle even if ICR bit 0
//     is clear (as MAME does) [A].
//   - A DACK read while a handshake is still running (ACK on) returns IDR
//     and is counted stale, like one with no byte latched [A].
//   - While RST is on the bus the chip is held reset: writes to registers
//     other than the ICR are ignored, and every ICR write with bit 7 resets
//     the chip again [A].
//   - Register 7 reads back 0 and the test-mode and differential-enable ICR
//     write bits are ignored [A].
//   - The chip's own edge delays (Timing) are assumptions of a few hundred
//     ns: the datasheet AC tables were not available (docs/HARDWARE.md 3.3).
package ncr5380
