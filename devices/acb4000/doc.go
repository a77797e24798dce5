// Package acb4000 models the Adaptec ACB-4000 SCSI disk controller with a
// rotating Seagate ST-125 (ST-506/412 MFM) behind it, as attached to the
// Ampro Little Board/PLUS in the 1990 story.
//
// The controller is a scsi.Device: the scsi.Target engine collects the CDB
// and the controller continues byte by byte through it, so the host sees
// REQ only when the controller has a byte (or room for one).
//
// # Command set (docs/HARDWARE.md 5)
//
// TEST UNIT READY, REZERO UNIT, REQUEST SENSE (4-byte non-extended sense),
// FORMAT UNIT with interleave, READ(6), WRITE(6), SEEK, MODE SELECT and
// MODE SENSE (the 0x18-byte drive parameter list), and the vendor buffer
// commands 13h (write 1 KB buffer) and 14h (read 1 KB buffer). Anything
// else is CHECK CONDITION with sense 20h; no INQUIRY. A block beyond the
// drive is 21h (address valid), a LUN above 1 is 25h, a LUN without a
// drive answers 04h (not ready). The controller never disconnects.
//
// # Mechanics, all from simulated time
//
// The spindle turns at 3600 RPM; its angle is a function of time (never
// ticked). A track has 17 slots of 1/17 revolution (0.980 ms); a slot opens
// with the ID field and carries 512 data bytes at 1.6 us a byte starting
// DataStartByte into it. FORMAT UNIT's interleave decides which slot holds
// which logical sector (Interleave). Seeks follow t(d) = a + b*sqrt(d)
// through 8 ms for one cylinder and 40 ms for a third of the disk.
//
// The 1 KB buffer is two 512-byte halves between the formatter (platter
// side) and the SCSI side (see transfer.go). A sector is read only if a
// half is free early enough to arm the formatter before its ID passes, and
// goes to the host only once complete and ECC-checked; otherwise it comes
// round again a revolution later. Nothing in the model knows the interleave
// table of the story; 2:1 being host-bound, the revolution lost between two
// 4K reads and 8:1 beating 7:1 emerge from these times and the host's
// (TestInterleaveShape, TestHostTurnWindow).
//
// # Why the story's interleave table has its shape
//
// Numbers below are from `lbplus bench interleave` (DISKBENCH on the
// emulated board, the steady state of sequential 8 KB chunks as the story's
// owner measured his bulk transfers, default Params): 2:1 164.7 ms, 3:1
// 80.4, 4:1 96.1, 5:1 111.8, 6:1 127.5, 7:1 143.1, 8:1 125.5, 9:1 141.2,
// and one 8K READ a chunk at 3:1 63.7 ms (story 165, 80, 95, 110, 120,
// 140, 120, 140 and about 60). docs/STORY.md has the whole account.
//
//   - 2:1 is host-bound. INIR drains a half in 512 x 5.25 us = 2.69 ms, but
//     the next logical sector comes 2 slots (1.96 ms) after the previous
//     one. With store and forward the half being drained frees too late,
//     plus ArmLatency, for the sector two ahead: only two sectors pass per
//     revolution (7 revolutions lost in 16 sectors).
//   - From 3:1 on, 3 slots (2.94 ms) exceed the drain time: the platter
//     paces the transfer and time grows by 15 x I slots per 8 KB.
//   - Between two 4K READs the host must drain the last half, take STATUS
//     and COMMAND COMPLETE, run its own code, select and send the next CDB;
//     the controller then decodes and arms. If that turnaround exceeds the
//     I x 0.98 ms until the next logical sector's ID, a revolution is lost.
//     At 3:1 it always is (the scope saw it), so one 8K READ saves a
//     revolution per chunk: 80.4 -> 63.7 ms.
//   - The turnaround is a fixed time, the slack grows by one slot per step
//     of interleave; so there is one interleave up to which the revolution
//     is lost and from which it is kept. The story's 7:1 (140) > 8:1 (120)
//     puts that step between 7 and 8: 16 x 7 slots + 2 revolutions = 143
//     ms against 16 x 8 slots = 125.5 ms. On the board that holds for
//     CommandOverhead in 1.16-2.14 ms (TestTurnaroundWindow in
//     roms/diskbench); the default 1.65 ms is the window's centre [FIT].
//     Timed as isolated transfers from random angles (--isolated) the
//     means of 7:1 and 8:1 differ by only 2 ms (the first chunk's random
//     latency dominates), which is why the story's figures read as
//     steady-state ones.
//   - Byte by byte (15 us a byte, 7.68 ms a sector) the platter paces only
//     from 8:1 (7.84 ms); at 9:1 8K x1 takes 153 ms and 4K x2 170 ms.
//
// # Images
//
// A disk is a raw file of 512-byte blocks in LBA order plus a TOML sidecar
// (FILE.toml, type Meta) with geometry and format state, through the shared
// devices/image package: exclusive flock, size/sidecar checks, write-through
// blocks and an fsync before a WRITE's GOOD status, atomic sidecar updates.
//
// Known inaccuracies / assumptions:
//   - Timing constants tagged [A] or [FIT] in Params are assumptions: the
//     ACB-4000 firmware overheads were never published (docs/HARDWARE.md 5).
//   - The data of a sector is taken from (or put into) the image at the end
//     of its data field; ECC errors and bad sectors never happen.
//   - No read-ahead or caching between commands [A]: the buffer halves are
//     released at the end of a command.
//   - Seeks are issued when the formatter finishes a track, overlapping the
//     SCSI side's draining of the last half [A].
//   - A WRITE receives a sector into a free half as soon as one is free and
//     writes it at its slot once complete; both halves may be filled before
//     the first sector is written [A].
//   - FORMAT UNIT takes FormatTrackRevolutions per track plus a step per
//     cylinder and then fills the image in one go; a defect list (byte 1
//     bit 4) is refused with 24h [A].
//   - MODE SELECT checks its drive list against the attached drive (the
//     image fixes the geometry) and only its step code changes behaviour:
//     code 00 makes seeks 3 ms a step [F ACB5500 p.95].
//   - The sense register is shared by both LUNs and kept until the next
//     command other than REQUEST SENSE; REQUEST SENSE answers on any LUN so
//     a host can learn why a bad-LUN command failed [A].
//   - A bus reset aborts the command; sectors already written stay written,
//     the heads stay where they were.
//   - The seek curve is the ST-125 mechanism's, whatever geometry the image
//     has; head switch costs HeadSwitch; no track or cylinder skew [D].
package acb4000
