package floppy

import "github.com/lbplus/lbplus/sched"

// Params are a drive's mechanical parameters. Each comment gives the
// source tag (docs/FLOPPY.md and docs/PARAMETERS.md).
type Params struct {
	// RPM of the spindle: 300 for 5.25" double-density drives [F WD-MAME,
	// WD-HATARI; docs/FLOPPY.md "The drive"] -> 200 ms a revolution.
	RPM int
	// Cylinders the drive is made for: 40 (48 tpi) or 80 (96 tpi) [F
	// CPMTOOLS amp1-amp4].
	Cylinders int
	// Heads: 2 for double-sided drives [F]; a single-sided drive ignores
	// side select [A].
	Heads int
	// StopCylinder is the last cylinder the head carriage can reach: two
	// past the last formatted one [A]; steps beyond it do nothing.
	StopCylinder int
	// IndexPulse is how long the index hole keeps the index signal active:
	// 3.71 ms, measured on an Atari ST drive (1.5-4 ms by drive) [F
	// WD-HATARI].
	IndexPulse sched.Time
	// MinStep is the shortest step period the drive follows; a step pulse
	// sooner than this after the previous one is lost [A] 3 ms (the
	// track-to-track time of 48 and 96 tpi drives of the period).
	MinStep sched.Time
	// ReadyRevolutions: index pulses after motor on before READY [A] 2.
	ReadyRevolutions int
}

// DefaultParams returns a double-sided drive of cyls cylinders (40 or 80).
func DefaultParams(cyls int) Params {
	return Params{
		RPM:              300,
		Cylinders:        cyls,
		Heads:            2,
		StopCylinder:     cyls + 1,
		IndexPulse:       3710 * sched.Microsecond,
		MinStep:          3 * sched.Millisecond,
		ReadyRevolutions: 2,
	}
}

// Revolution is one turn of the spindle.
func (p Params) Revolution() sched.Time { return 60 * sched.Second / sched.Time(p.RPM) }

// Byte cells of the recording [F WD-MAME; docs/FLOPPY.md]: MFM at 250 kbit/s is
// 32 us a byte, FM half the bit rate, 64 us, with the WD1772 at 8 MHz. At
// 16 MHz (port 00 bit 7) the chip's cells are half as long [D].
const (
	MFMCell = 32 * sched.Microsecond
	FMCell  = 64 * sched.Microsecond
)
