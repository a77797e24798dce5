package emu

import (
	"github.com/lbplus/lbplus/devices/dart"
	"github.com/lbplus/lbplus/sched"
)

// HighBaudPeriod is the period of the fixed clock that DART channel A
// takes instead of CTC channel 0 while its /DTR output is inactive: 19,200
// baud at x32 and 38,400 at x16, as Ampro's CONFIG and SET program them
// (docs/HARDWARE.md 1.1). Ampro's programs give only the rate; which
// divider of the 16 MHz crystal makes it is not documented. We take
// crystal / 26 (615.4 kHz, 0.16 % above 38,400 x 16) [A].
const HighBaudPeriod = sched.CrystalPeriod * 26

// portAClock is DART channel A's clock: CTC channel 0's ZC/TO while /DTR A
// is active, the fixed high-baud clock while it is not [A: how Ampro's
// CONFIG and SET select 19,200 and 38,400 baud, docs/HARDWARE.md 1.1].
type portAClock struct {
	ctc dart.Clock
	ch  *dart.Channel
}

func (k portAClock) PulseAfter(t sched.Time, n int) sched.Time {
	if k.ch.DTR() {
		return k.ctc.PulseAfter(t, n)
	}
	return (t/HighBaudPeriod + sched.Time(n)) * HighBaudPeriod
}
