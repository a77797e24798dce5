package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// A board runs its quiet events late only while nothing could see the
// difference: each observer, hook or listener of the 5380's outputs
// turns it off, and removing the observer turns it on again.
func TestQuietEventsRunLateOnlyUnobserved(t *testing.T) {
	newBoard := func(j Jumpers) *Board {
		cfg := DefaultConfig(StubROM(0x100))
		cfg.Jumpers = j
		b, err := New(cfg)
		require.NoError(t, err)
		return b
	}
	b := newBoard(Jumpers{})
	assert.True(t, b.quietMayRunLate(), "a plain board")

	remove := b.Sched().Observe(func(sched.Time, *sched.Event) {})
	assert.False(t, b.quietMayRunLate(), "a scheduler observer")
	remove()
	assert.True(t, b.quietMayRunLate())

	remove = b.SCSIBus().ObserveLines(scsi.RST, func(sched.Time, scsi.Line, uint8) {})
	assert.False(t, b.quietMayRunLate(), "a bus observer")
	remove()

	b.CPU().Hook = nopHook{}
	assert.False(t, b.quietMayRunLate(), "a CPU hook")
	b.CPU().Hook = nil

	b.NCR5380().OnDRQ = func(bool) {}
	assert.False(t, b.quietMayRunLate(), "a listener of DRQ")
	b.NCR5380().OnDRQ = nil
	assert.True(t, b.quietMayRunLate())

	remove = b.NCR5380().ObserveOutputs(func(sched.Time, ncr5380.Output, bool) {})
	assert.False(t, b.quietMayRunLate(), "an observer of IRQ and DRQ (the debugger's recorder)")
	remove()
	assert.True(t, b.quietMayRunLate())

	assert.False(t, newBoard(Jumpers{IRQToTRG2: true}).quietMayRunLate(), "JMP3")
	assert.False(t, newBoard(Jumpers{DRQToDCDA: true}).quietMayRunLate(), "JMP8")
}

type nopHook struct{}

func (nopHook) BeforeInstruction(uint16, uint64) bool { return false }
