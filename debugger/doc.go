// Package debugger is lbplus's debugger without a user interface: run
// control (run, pause, step instruction / over / out, step to the next
// SCSI bus edge, byte, phase, command or bus free), breakpoints and
// watchpoints (execute with conditions in the assembler's expression
// language, memory ranges, I/O ports with values, SCSI phase entered, CDB
// opcode or target, selection, tape reposition, lost 5380 data), execution
// history with T-states, symbols from the assembler, and the signal
// recorder: a bounded ring of timestamped edges of the SCSI bus, the 5380's
// DRQ and IRQ and the interrupt requests, with an online decoder of bus
// phases and commands (READ(6) LUN 0 LBA 0 blocks 1, STATUS GOOD, ...).
//
// The debugger adapts the machine, it never owns its state: it watches
// through the CPU's instruction hook and the machine's observers, reads
// memory and registers without side effects, and stops the machine at an
// instruction boundary with Machine.Stop. A stopped machine resumes exactly
// where it stopped, so a run that was paused is identical, to the T-state,
// to one that never was.
//
// The text front-end (Text) and the window (package debugger/window) are
// two views of the same core. See docs/DEBUGGER.md.
//
// Known inaccuracies / limits:
//   - Stops happen at instruction boundaries: a bus edge inside an
//     instruction (an OTIR's byte) stops the machine after that
//     instruction, and the stop reports the edge's own time.
//   - Memory watchpoints use the machine's memory observer (every read
//     and write); on a machine without one a write is seen as a change of
//     value at the next instruction boundary.
//   - There is no single-T-state step: the CPU model executes whole
//     instructions.
package debugger
