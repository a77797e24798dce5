package wd1772

// Params are the chip's timings in FDC clock periods (125 ns at the
// Ampro's 8 MHz, 62.5 ns with port 00 bit 7 set), so that the 16 MHz
// option halves them all as it does on the chip [D]. Sources in
// docs/FLOPPY.md and docs/PARAMETERS.md.
type Params struct {
	// StepRates for rate bits r1 r0 = 00, 01, 10, 11: 6, 12, 2, 3 ms at
	// 8 MHz [F WD1772-DS; docs/FLOPPY.md].
	StepRates [4]int
	// Settle is the head settling delay of the V flag (type I) and the E
	// flag (type II/III): 15 ms at 8 MHz [F WD1772-DS, WD-MAME, WD-HATARI;
	// docs/FLOPPY.md "Audit"].
	Settle int
	// MFMByte and FMByte are one byte cell: 32 us and 64 us at 8 MHz (250
	// and 125 kbit/s) [F].
	MFMByte, FMByte int
	// SpinUpIndex: index pulses the chip waits after turning the motor on
	// when h = 0: 6 [F WD1772 datasheet].
	SpinUpIndex int
	// MotorOffIndex: index pulses with no command before the motor turns
	// off: 9 [F WD1772-DS, WD-HATARI; MAME counts 8; docs/FLOPPY.md "Audit"].
	MotorOffIndex int
	// SearchIndex: index pulses an ID search may take before Record Not
	// Found (type II/III) or Seek Error (type I verify): 5 [F].
	SearchIndex int
	// CommandCommit: a command written -> the chip takes it (BUSY set): 24 us
	// in MFM, twice that in FM; until then the status register reads as it
	// was, which is why software waits before polling BUSY [F WD1772-DS: the
	// wait before the busy bit may be read; MAME takes the command after
	// 18 us and sets BUSY at the write; docs/FLOPPY.md "Audit"; docs/BOOT.md:
	// Ampro's boot ROM waits about 66 us, ours more than 32 us].
	CommandCommit int
	// RegisterCommit: a track or sector register write -> the new value
	// reads back: 8 us in MFM, twice that in FM [F WD-MAME; the data sheet
	// allows 16 us and 32 us before the same register is read back].
	RegisterCommit int
	// TypeIDelay: command taken -> first step pulse or verify. 90 us from
	// the write, measured on an Atari ST's WD1772 [F WD-HATARI], less
	// CommandCommit: 66 us [D].
	TypeIDelay int
	// TypeIIDelay: command taken -> spin-up/settle/ID search start of a
	// type II or III command [A] 32 clocks (4 us), a few internal
	// microcycles.
	TypeIIDelay int
	// WriteGate: bytes after an ID's CRC before Write Sector must have its
	// first byte: 22 in MFM, 11 in FM [F WD1772 datasheet].
	WriteGateMFM, WriteGateFM int
	// WriteSync: zero bytes written before the data mark: 12 MFM, 6 FM [F].
	WriteSyncMFM, WriteSyncFM int
	// Restore gives up after 255 step pulses without TR00 [F].
	RestoreSteps int
}

// ms at 8 MHz in FDC clocks.
const msClocks = 8000

// DefaultParams returns the WD1772's documented timings.
func DefaultParams() Params {
	return Params{
		StepRates:      [4]int{6 * msClocks, 12 * msClocks, 2 * msClocks, 3 * msClocks},
		Settle:         15 * msClocks,
		MFMByte:        256,
		FMByte:         512,
		SpinUpIndex:    6,
		MotorOffIndex:  9,
		SearchIndex:    5,
		CommandCommit:  192,
		RegisterCommit: 64,
		TypeIDelay:     528,
		TypeIIDelay:    32,
		WriteGateMFM:   22,
		WriteGateFM:    11,
		WriteSyncMFM:   12,
		WriteSyncFM:    6,
		RestoreSteps:   255,
	}
}
