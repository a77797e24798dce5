package main

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// The fast boot of `lbplus run --speed realtime`: the board runs as fast
// as the host can from reset until the console waits for a key (or the
// user types one), then at its real 4 MHz. Only the pacing changes: the
// emulated ROM, its timeouts and the boot's timing are the same to the
// T-state, as they are at --speed max.

// bootIdle is how long the program must touch no port but the console's
// (DART channel A) before the console counts as waiting for a key: longer
// than any wait of a boot ROM, whose longest (ours and Ampro's: 5 s
// before the SCSI boot, docs/BOOT.md) polls only the console for a key.
// At maximum speed it costs a few tens of milliseconds of host time.
const bootIdle = 8 * sched.Second

// bootMax ends the fast boot in any case: a machine that never settles
// (nothing to boot: the ROM tries again for ever; a BIOS that polls a
// device while it waits) goes on at real speed after this much simulated
// time rather than racing ahead of the clock on the wall.
const bootMax = 60 * sched.Second

// bootPhase says while the fast boot lasts.
type bootPhase struct {
	on    bool
	start sched.Time
}

// newBootPhase starts the fast boot at now when speed is "max" (no fast
// boot with "realtime"); fast is false when there is nothing to boot
// (--speed max already runs fast, a loaded state is already booted).
func newBootPhase(speed string, fast bool, now sched.Time) (*bootPhase, error) {
	switch speed {
	case "max":
	case "realtime":
		fast = false
	default:
		return nil, fmt.Errorf("--boot-speed %q: want max or realtime", speed)
	}
	return &bootPhase{on: fast, start: now}, nil
}

// running reports whether the fast boot goes on at now, given when the
// program last touched a port other than the console's and whether the
// user just typed; once it has ended it stays ended.
func (p *bootPhase) running(now, busyIO sched.Time, typed bool) bool {
	if p.on && (typed || now-busyIO >= bootIdle || now-p.start >= bootMax) {
		p.on = false
	}
	return p.on
}
