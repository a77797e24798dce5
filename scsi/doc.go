// Package scsi models the SCSI-1 bus of the Little Board/PLUS and the
// target-side protocol engine shared by the disk (ACB-4000) and the tape
// (MCD-403).
//
// The bus (docs/HARDWARE.md 4) is a set of wired-OR signals: BSY, SEL, C/D, I/O,
// MSG, REQ, ACK, ATN, RST, DB0-7 and DBP. Every attached device owns a Port
// holding its own contribution; the bus value is the OR of all
// contributions (positive logic: 1 = asserted, although the cable is
// active-low). Each change is stamped with the scheduler's current time and
// delivered synchronously to the observers (tracers) and then to every other
// port's onChange callback. Devices never react synchronously to a change:
// they schedule their next edge after one of their own named delays, so the
// order of edges on the bus is causal and every delay is visible in traces.
// The target engine nevertheless tolerates an initiator (a 5380 model, a
// test harness) that answers inside its callback: it takes such answers only
// after its own step is complete, by looking at the line levels again.
//
// Phases are derived from the lines: no BSY and no SEL is BUS FREE, SEL is
// SELECTION (arbitration and reselection are not distinguished), otherwise
// MSG C/D I/O select the information phase.
//
// Target is the target-side engine: it answers selection for its ID,
// accepts MESSAGE OUT (IDENTIFY) when the initiator raises ATN, collects the
// CDB in COMMAND phase with the length given by the group code, then hands
// the CDB to a Device. The device continues through the engine byte by
// byte: with continuation values (SendK, ReceiveK: a Cont the device's
// Continue interprets, which a save state can hold) or closures (SendByte,
// ReceiveByte, Send, Receive: simpler, for tests), and ends with Complete.
// REQ is asserted only when the device asks for the next byte, so a device
// whose platter or tape has no data yet simply holds REQ off. Every step of
// the engine is an owned, named event, and State/SetState save and restore
// it (docs/STATE.md). All the engine's delays are fields of Timing.
//
// Tracing: NewTextTrace writes one readable line per bus change; NewVCD
// writes a Value Change Dump that GTKWave and `sigrok-cli -I vcd` read;
// Recorder keeps the changes in memory so timings (per-byte intervals, as
// the story measured with a scope) are measured from the bus itself.
// Package scsitest has a minimal event-driven initiator for testing targets
// without the 5380 and the Z80.
//
// Known inaccuracies / assumptions:
//   - Parity: every driver puts correct odd parity on DBP; parity errors
//     cannot be injected.
//   - Arbitration and reselection are not distinguished from selection in
//     Phase(); the target engine never arbitrates or reselects (the ACB-4000
//     does not disconnect, docs/HARDWARE.md 5).
//   - The engine ignores ATN raised after the MESSAGE OUT phase that follows
//     selection (no ABORT / BUS DEVICE RESET messages) [A]; message bytes
//     other than IDENTIFY are accepted and ignored [A].
//   - The engine is level-sensitive: if the initiator already holds ACK when
//     REQ is asserted (a protocol violation) the byte completes at once
//     rather than hanging [A].
//   - Cable propagation is zero; deskew and cable skew appear only as the
//     target's DataSetup delay.
//   - Times in the VCD are rounded down to the VCD timescale (1 ns by
//     default); two edges within one unit keep their order but share a time.
package scsi
