package bench

import "github.com/lbplus/lbplus/sched"

// The sweeps of `lbplus bench floppy` and `bench tape`: every combination
// of the settings given, run one after the other on fresh boards (the
// interleave sweep is Interleave, the disk read sweep Sweep).

// FloppySweep reads a track (Floppy) with each read loop at each
// interleave, loops outer, a row each. progress, if set, hears of each run
// before it starts: its settings, the runs done and their number.
func FloppySweep(interleaves, loops []int, progress func(il, loop, done, total int)) ([]FloppyRow, error) {
	var rows []FloppyRow
	total := len(interleaves) * len(loops)
	for _, l := range loops {
		for _, il := range interleaves {
			if progress != nil {
				progress(il, l, len(rows), total)
			}
			r, err := Floppy(il, l)
			if err != nil {
				return rows, err
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// TapeSetups are the runs of a tape sweep: base with every interleave,
// every burst and every host delay, in that order of nesting. Every setup
// is checked (Validate) before the first long run; the first bad one is
// the error.
func TapeSetups(base TapeSetup, interleaves, bursts []int, delays []sched.Time) ([]TapeSetup, error) {
	var setups []TapeSetup
	for _, k := range interleaves {
		for _, b := range bursts {
			for _, d := range delays {
				s := base
				s.Interleave, s.Burst, s.Delay = k, b, d
				if err := s.Validate(); err != nil {
					return nil, err
				}
				setups = append(setups, s)
			}
		}
	}
	return setups, nil
}

// TapeSweep runs setups one after the other (RunTape), each on a fresh
// board and cartridge; progress, if set, hears of each run's index before
// it starts. A run that fails as the story's hang does is a result, not
// an error.
func TapeSweep(setups []TapeSetup, o TapeOptions, progress func(i int)) ([]TapeResult, error) {
	var out []TapeResult
	for i, s := range setups {
		if progress != nil {
			progress(i)
		}
		r, err := RunTape(s, o)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}
