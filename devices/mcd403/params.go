package mcd403

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// Params holds every parameter of the drive model. Units are in the field
// types (sched.Time is picoseconds, sizes are bytes); each comment gives the
// source tag: [F] a source states it (its key in docs/HARDWARE.md 10), [D] derived, [A]
// assumption, [FIT] no source gives it and a story check bounds it
// (docs/PARAMETERS.md gives each window and the check that closes it).
type Params struct {
	// --- Cartridge format (QIC-100 as 3M wrote it) ---

	// Blocks on a cartridge: 4848 [F CCTALK03, docs/HARDWARE.md 7].
	Blocks int
	// BlockSize: fixed 8192-byte blocks [F PERIPHS, CCTALK03].
	BlockSize int
	// Tracks of the serpentine format: 12 [A]. Only the turnaround count
	// depends on it; 4848/12 = 404 slots a track [D].
	Tracks int
	// MaxInterleave accepted by MODE SELECT and images: 16 [A].
	MaxInterleave int

	// --- Tape motion ---

	// TapeSpeed in inches per second while reading or writing: 30 ips [A]
	// (minicartridge drives of the time ran 25-30 ips). With SlotTime it
	// gives the slot length on tape, 6.24 in, and a track of 404 slots
	// 210 ft, close to the 205 ft of a DC2000 minicartridge [D, A]. The
	// model keeps positions in "tape time at speed", so TapeSpeed is only
	// used to report distances.
	TapeSpeed float64
	// SlotTime: one physical block slot passing the head at speed
	// (preamble, block marker, 8192 data bytes, address and check bytes,
	// postamble). Native rate 8192 B / 198.253 ms = 41.3 KB/s within frames.
	// [FIT] with FrameGap to two of the story's streaming rates, solved in
	// closed form: a streaming drive moves 8192 B per k*SlotTime + FrameGap,
	// so 12787 B/s at 3:1 (burst 8K x1) and 6631 B/s at 6:1 (byte by byte)
	// give SlotTime = (8192/6631 - 8192/12787)/3 and FrameGap = 8192/12787
	// - 3*SlotTime (bench.FitSlotAndGap). The 4:1 row (9716) is predicted,
	// not fitted (lbplus bench params --cross-validate, docs/PARAMETERS.md).
	SlotTime sched.Time
	// FrameGap: the tape after every frame of k slots (k the format's
	// interleave; one slot of each interleave pass): the frame's address
	// mark and the sync run the read channel locks to before it, written
	// when the cartridge is formatted [A mechanism, FIT length]. A QIC
	// recorded block is preamble, block marker, data, address, CRC,
	// postamble (docs/TAPE.md 1); streaming records of one pass that are k
	// slots apart also cross one frame mark each, so a streaming drive
	// moves one block per k*SlotTime + FrameGap: the fixed per-block term of
	// the story's streaming rates. 45.892 ms [FIT with SlotTime, from the
	// same two rows; docs/PARAMETERS.md].
	FrameGap sched.Time
	// DataTime: slot start -> last data and check byte written or read,
	// 9/10 of the slot; the rest is postamble and gap [A fraction, D value
	// 178.4 ms]. It acts only in the write budget B(k), where its sum with
	// VerifyLag, StatusOverhead, ArmLead and BlockPrepare is one term:
	// BlockPrepare carries the fit (docs/TAPE.md 1).
	DataTime sched.Time
	// VerifyLag: last byte written -> its read-after-write check done
	// (the read gap trails the write gap), 2 ms [A; in the write budget
	// with BlockPrepare, which carries the fit].
	VerifyLag sched.Time
	// HeadStep: the head positioner crossing one track while the tape is
	// stopped or searching [A] 15 ms (stepper head positioners of
	// minicartridge drives of the time). Overlaps the tape's own move.
	HeadStep sched.Time
	// Turnaround: end of a track -> the next track (reverse, head step)
	// while streaming [A] 600 ms. Included in the path length, so streaming
	// crosses it without stopping.
	Turnaround sched.Time
	// RampTime: standstill <-> write speed with constant acceleration, so
	// the ramp covers RampTime/2 of tape time, 555 ms (a minicartridge's
	// belt-driven reels; with the back-up and the resync run a stop costs about 3 s).
	// [FIT]: no source gives it; it carries the cost of a stop (ResyncFrames
	// and SearchFactor are assumed), which the BIOS row (under 3000 B/s)
	// bounds below; window in docs/PARAMETERS.md (lbplus bench params).
	RampTime sched.Time
	// SearchFactor: moves from a standstill (positioning, back-up) run at
	// this multiple of write speed, with the same acceleration [A] 2.
	SearchFactor int
	// ResyncFrames: after a start from standstill the drive has lost
	// block sync: it must run at speed over the frame before the target
	// (k slots and the frame gap: k the format's interleave) and read its
	// address mark before it may write or read the target [A mechanism,
	// the count 1 is A]. So the run after a start is one block period,
	// BlockPeriod(k): 244 ms at 1:1, 641 ms at 3:1, 1.43 s at 7:1. This is
	// what makes a stop and restart cost more than streaming, so a host
	// that misses its slots at k:1 is slower than one streaming at
	// (k+1):1, as the story's choices imply, and it makes a stop cost more
	// the larger the interleave, so a host that stops at every block stays
	// slow whatever the interleave (docs/TAPE.md).
	ResyncFrames int
	// RetensionTime: load with retension, a full wind to the end and back
	// [F APPLE "60-120 s" calibration; the lower end is A].
	RetensionTime sched.Time

	// --- Controller firmware ---

	// CommandOverhead: CDB received -> the command starts (decode, checks)
	// 1 ms [A: a few hundred 8031 instructions]. It adds to the host's time
	// per block, so it moves the write budget exactly as BlockPrepare does,
	// which carries the fit (docs/PARAMETERS.md).
	CommandOverhead sched.Time
	// StatusOverhead: the drive is done -> the engine starts STATUS
	// 0.5 ms [A; in the write budget with BlockPrepare].
	StatusOverhead sched.Time
	// ArmLead: the formatter must be armed this long before a slot starts
	// to read or write it, 2 ms [A; in the write budget with BlockPrepare].
	ArmLead sched.Time
	// BlockPrepare: a write block is complete in the buffer -> ready for
	// the formatter. The firmware computes the block's check bytes over the
	// whole buffered block before writing it: 8192 bytes x 36.6 us a byte
	// (a table-driven CRC step of about 37 machine cycles on a 12 MHz 8031)
	// = 300 ms. [FIT]: the one free term of the write budget B(k) (with
	// DataTime, VerifyLag, StatusOverhead, ArmLead and the drive's
	// CommandOverhead and acceptance rate, which act only through the same
	// sum), placed inside the window in which a burst host with 8K x1 disk
	// reads streams at tape 3:1 while one with 4K x2 reads misses it
	// (291-318 ms with the 8K x1 row on 8 blocks; over 48 blocks that host
	// first misses near 306 ms, and 300 ms is the centre of 291-306 ms;
	// docs/PARAMETERS.md).
	BlockPrepare sched.Time
	// IdleStop: no READ or WRITE for this long after the last one's status
	// -> the firmware stops the tape (and backs up for the next block)
	// rather than run on not knowing whether the host will continue. The
	// firmware gives the host one block period of tape, a slot and its
	// frame mark, SlotTime + FrameGap = 244.1 ms [A mechanism, D value].
	// The story tests it from both sides (docs/PARAMETERS.md): a
	// byte-by-byte host's gap between blocks (<= 200 ms) fits it, a BIOS
	// host's (>= 300 ms) does not, so the BIOS path stops at every block
	// whatever the tape interleave (docs/TAPE.md); no whole number of
	// block periods but one lies in that window.
	IdleStop sched.Time
	// ReadCheck: last byte of a slot read -> block checked and ready to
	// send [A] 5 ms.
	ReadCheck sched.Time

	// --- SCSI data path ---

	// ReqAfterAck: ACK released -> next REQ when the drive has a byte (DATA
	// IN from the buffer) or FIFO room (DATA OUT): hardware handshake, 1.5 us
	// so a byte takes about 2 us = the rated 500 KB/s burst [F STUBBLEBINE, A].
	ReqAfterAck sched.Time
	// FIFOSize: the DATA OUT FIFO between the SCSI handshake logic and the
	// firmware, a ring of 128 bytes that holds 127 (one slot always empty
	// tells full from empty) [A]. A ring indexed by a masked counter has a
	// power-of-two size; with the 5380's output latch the ring then holds
	// a whole number of 16-byte bursts, which is what lets the story's
	// 16-byte bursts work while 256-byte ones hang (docs/TAPE.md 1). The
	// size is not chosen for a row: rings of 32 to 256 keep every story
	// check, 512 lets a 256-byte burst through (docs/PARAMETERS.md);
	// sizes that are not a multiple of 16 hang the 16-byte bursts.
	FIFOSize int
	// DrainChunk: the firmware moves DATA OUT bytes from the FIFO to the
	// block buffer a chunk at a time, when the ring's half-full flag rises,
	// and frees the chunk's room only when the whole chunk is copied (one
	// pointer update): half the ring, 64 [A mechanism, D value].
	DrainChunk int
	// DrainByteTime: firmware copy loop per byte, FIFO -> buffer: an 8031
	// at 12 MHz runs a machine cycle a microsecond, and the loop (MOVX read
	// of the FIFO, MOVX write to the buffer, INC DPTR, DJNZ: 2 cycles each)
	// takes 8 [D from the MCS-51 instruction times; the loop and the
	// 12 MHz clock are A] = 8 us. Slower than OTIR (5.25 us a byte), so the
	// FIFO fills and 256-byte bursts hang; with DrainChunkOverhead it also
	// sets the drive's acceptance rate, which acts only through the write
	// budget that BlockPrepare carries.
	DrainByteTime sched.Time
	// DrainChunkOverhead: per chunk (poll the flag, pointer update) 20 us,
	// about 20 machine cycles [A; in the write budget with BlockPrepare].
	DrainChunkOverhead sched.Time
	// Buffers: block buffers of the controller [A] 2. A WRITE of one
	// block uses one: GOOD comes only after the block is on tape and
	// checked, so the host cannot be ahead of the tape. In a WRITE of
	// several blocks the firmware takes the next block's DATA OUT into the
	// second buffer as soon as it has prepared the current one
	// (BlockPrepare), while the current one waits for its slot: then the
	// drive's own per-block work (transfer and prepare, about 364 ms) fits
	// two slots and a frame gap (444.6 ms) and a fast host streams at 2:1
	// (docs/TAPE.md 4). 1 restores the single buffer.
	Buffers int
	// SearchAhead: a target farther ahead than this is reached by stopping
	// and searching at SearchFactor speed, not by streaming to it [A] 20
	// slots.
	SearchAhead int
}

// DefaultParams returns the values documented on Params.
func DefaultParams() Params {
	slot, gap := 198253*sched.Microsecond, 45892*sched.Microsecond
	const fifo = 128
	return Params{
		Blocks:             4848,
		BlockSize:          8192,
		Tracks:             12,
		MaxInterleave:      16,
		TapeSpeed:          30,
		SlotTime:           slot,
		FrameGap:           gap,
		DataTime:           slot * 9 / 10,
		VerifyLag:          2 * sched.Millisecond,
		Turnaround:         600 * sched.Millisecond,
		HeadStep:           15 * sched.Millisecond,
		RampTime:           555 * sched.Millisecond,
		SearchFactor:       2,
		ResyncFrames:       1,
		RetensionTime:      60 * sched.Second,
		CommandOverhead:    1 * sched.Millisecond,
		StatusOverhead:     500 * sched.Microsecond,
		ArmLead:            2 * sched.Millisecond,
		BlockPrepare:       300 * sched.Millisecond,
		IdleStop:           slot + gap,
		ReadCheck:          5 * sched.Millisecond,
		ReqAfterAck:        1500 * sched.Nanosecond,
		FIFOSize:           fifo,
		DrainChunk:         fifo / 2,
		DrainByteTime:      8 * sched.Microsecond,
		DrainChunkOverhead: 20 * sched.Microsecond,
		Buffers:            2,
		SearchAhead:        20,
	}
}

// Validate checks that p describes a drive the model can run.
func (p Params) Validate() error {
	switch {
	case p.Blocks <= 0 || p.BlockSize <= 0 || p.Tracks <= 0:
		return fmt.Errorf("mcd403: blocks %d, block size %d and tracks %d must be positive", p.Blocks, p.BlockSize, p.Tracks)
	case p.Buffers < 1 || p.Buffers > 2:
		return fmt.Errorf("mcd403: %d block buffers: the model has one or two", p.Buffers)
	case p.MaxInterleave < 1:
		return fmt.Errorf("mcd403: max interleave %d < 1", p.MaxInterleave)
	case p.SlotTime <= 0 || p.DataTime <= 0 || p.DataTime > p.SlotTime:
		return fmt.Errorf("mcd403: data time %v must lie within the slot time %v", p.DataTime, p.SlotTime)
	case p.RampTime <= 0 || p.SearchFactor < 1:
		return fmt.Errorf("mcd403: ramp time %v and search factor %d must be positive", p.RampTime, p.SearchFactor)
	case p.FIFOSize < 2 || p.DrainChunk < 1 || p.DrainChunk > p.FIFOSize-1 || p.BlockSize%p.DrainChunk != 0:
		return fmt.Errorf("mcd403: FIFO %d / drain chunk %d: the chunk must fit the FIFO and divide the block", p.FIFOSize, p.DrainChunk)
	case p.VerifyLag < 0 || p.Turnaround < 0 || p.HeadStep < 0 || p.ResyncFrames < 0 || p.ArmLead < 0 || p.FrameGap < 0 || p.BlockPrepare < 0 || p.IdleStop <= 0 || p.ReadCheck < 0:
		return fmt.Errorf("mcd403: negative delay")
	}
	return nil
}

// SlotsPerTrack is the number of block slots on one track [D].
func (p Params) SlotsPerTrack() int { return (p.Blocks + p.Tracks - 1) / p.Tracks }

// NativeRate is the tape's streaming rate at 1:1 in bytes per second [D].
func (p Params) NativeRate() float64 { return float64(p.BlockSize) / p.SlotTime.Seconds() }

// SlotLength is the length of a slot on tape in inches [D].
func (p Params) SlotLength() float64 { return p.TapeSpeed * p.SlotTime.Seconds() }

// BlockPeriod is the time between consecutive logical blocks of a pass
// at interleave k while streaming: k slots and one frame gap [D].
func (p Params) BlockPeriod(k int) sched.Time { return sched.Time(k)*p.SlotTime + p.FrameGap }

// StreamRate is the net rate in bytes per second of a drive streaming at
// interleave k [D].
func (p Params) StreamRate(k int) float64 {
	return float64(p.BlockSize) / p.BlockPeriod(k).Seconds()
}

// Resync is the run at speed before a target after a start from
// standstill on a cartridge formatted at interleave k: ResyncFrames block
// periods [D].
func (p Params) Resync(k int) sched.Time {
	return sched.Time(p.ResyncFrames) * p.BlockPeriod(max(1, k))
}
