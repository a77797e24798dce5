// Package mcd403 models the 3M MCD-403 QIC-100 minicartridge tape drive as
// a SCSI target: its command set, the tape's motion in simulated time, the
// controller's data path, and the cartridge image.
//
// # Medium
//
// A cartridge holds 4848 blocks of 8192 bytes, addressed by block number
// [F CCTALK03, PERIPHS; docs/HARDWARE.md 7]. The model lays the blocks in
// fixed slots along a serpentine path of 12 tracks [A]; one slot passes the
// head in SlotTime at speed (198.253 ms [FIT]). A cartridge is formatted at a
// tape interleave k (the story's "tape interleave"): logical blocks fill
// every k-th slot in passes over the tape, so consecutive blocks are k
// slots apart [A]; the slots come in frames of k, each followed by a frame
// gap (FrameGap, 45.892 ms [FIT]), so a streaming drive moves one block per
// k*SlotTime + FrameGap (docs/TAPE.md 1).
//
// # Mechanics
//
// Positions are kept in "tape time at write speed" from the load point.
// The tape either streams forward at speed, stands still, or runs a
// start-stop move (constant acceleration: standstill to speed in
// RampTime; moves at SearchFactor times speed). A start from standstill
// needs a resync run over the frame before the target (one block period,
// k*SlotTime + FrameGap: the frame's address mark tells the drive where it
// is) before a block can be read or written, so a stop costs more the
// larger the interleave. After each block the drive keeps streaming toward the next
// block (a streamer's anticipation). Each block has a deadline: for a write
// the whole block must be in the buffer BlockPrepare + ArmLead before its
// slot, for a read the command must be there ArmLead before. If it is not,
// or if no READ or WRITE follows within IdleStop of the last status, the
// drive stops (decelerates), backs up to the block's launch point and
// waits; when the block is ready it ramps up, resyncs and writes: a
// reposition, counted in Stats (about 3 s lost). Retension on LOAD takes
// RetensionTime.
//
// # Data path
//
// DATA OUT bytes enter a 128-byte ring FIFO (it holds 127) by a hardware
// handshake (REQ ReqAfterAck after ACK, about 500 KB/s [F STUBBLEBINE]). The
// firmware copies them to the block buffer in 64-byte chunks, 8 us a byte,
// and frees a chunk's room only when the chunk is copied; while the FIFO is
// full REQ stays off. A Z80 pushing OTIR bursts through the 5380's single
// output latch without waiting for DRQ therefore loses bytes whenever the
// FIFO fills in mid-burst (hypothesis A of docs/HARDWARE.md 1.5, modelled in
// ncr5380): the target waits in DATA OUT for bytes that never come. The byte
// that finds the FIFO full is byte 127 + 64m of the block, always the last
// byte of a 16-byte (or 32-, 64-) burst, where the DRQ poll before the next
// burst waits; 256-byte bursts run into it mid-burst and hang. Nothing in the model knows burst sizes.
// DATA IN is sent from the buffer by the same hardware handshake, faster
// than INIR, so 256-byte read bursts complete. A write reports GOOD after
// its block is on tape and checked (read after write) and the image is
// synced; a read sends the block once it is read and checked.
//
// # Commands [A: the MCD-403's command set is not documented]
//
//	00 TEST UNIT READY   NOT READY without cartridge or while retensioning
//	01 REWIND            to the load point
//	03 REQUEST SENSE     18-byte extended sense (allocation 0 = 4 bytes)
//	08 READ(6)           LBA = block number, count in blocks (0 = 256)
//	0A WRITE(6)          same
//	12 INQUIRY           36 bytes, "3M MCD-403"
//	15 MODE SELECT       header, block descriptor (8192 or 0), byte 12 = interleave
//	1A MODE SENSE        same 13 bytes
//	1B LOAD/UNLOAD       byte 4 bit 0 load (always retensions), byte 1 bit 0 immediate
//
// Sense: VOLUME OVERFLOW with EOM for blocks past the end (refused before
// any motion, information = first block past the end), DATA PROTECT for
// writes to a write-protected cartridge, NOT READY (3Ah) without one,
// BLANK CHECK for a block never written, ILLEGAL REQUEST for unknown
// opcodes, LUNs other than 0 and bad parameters.
//
// # Image
//
// A raw file of 4848 x 8192 bytes (sparse when created) and a TOML sidecar
// (devices/image) with the interleave, the written blocks as ranges, the
// format version, write protection, and what unwritten blocks read as
// (BLANK CHECK by default, or zeros). Blocks are written and fsynced and
// the sidecar replaced atomically before GOOD, so an acknowledged block
// survives a kill; the image is locked while open.
//
// # Known inaccuracies / assumptions
//
//   - The command set, sense codes, MODE page layout and INQUIRY data are
//     assumptions; so are all firmware times (CommandOverhead, ArmLead,
//     ReadCheck) and the FIFO geometry (size, chunk, copy time).
//   - SlotTime, FrameGap, BlockPrepare and IdleStop are fitted
//     (docs/TAPE.md, docs/PARAMETERS.md): one
//     set reproduces the story's rows on the emulated board (burst 8K x1
//     streams at 3:1, burst 4K x2 at 4:1 but not reliably at 3:1, byte by
//     byte at 6:1, the BIOS path stops at every block at any interleave),
//     net rates within 1 %. It also lets byte by byte stream at 4:1 and 5:1,
//     which the story implies it did not; docs/TAPE.md shows that no model
//     with fixed slots and a sequential host can have both.
//   - A host sending one block per WRITE cannot stream at 2:1 however
//     fast it is (GOOD comes after the block is on tape); a fast host
//     sending many blocks in one WRITE does (18.4 KB/s), through the second
//     block buffer (Buffers), as the Apple 40SC streamed at about 2:1 [F
//     APPLE].
//   - Changing the interleave reformats: the written list is cleared.
//   - Two block buffers [A]: in a multi-block WRITE the next block's DATA
//     OUT starts once the current block is prepared; with one-block WRITEs
//     (BACKUP, TAPEBENCH) only one is ever used. No read-ahead.
//   - The ramp is approximated at decision points (position as if at speed);
//     track turnarounds are part of the path and do not stop streaming.
//   - No UNIT ATTENTION after a reset or load; no filemarks, SPACE or ERASE.
//   - A freshly attached drive has its cartridge loaded and retensioned, at
//     the load point (Load models an insertion).
package mcd403
