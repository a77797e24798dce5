package emu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// DART channel A runs from CTC channel 0 while /DTR A is active and from
// the fixed high-baud clock while it is not, as Ampro's CONFIG and SET
// (and BIOS 4.3's I/O table: CTC 0 reset, WR5 6Ah) program 38,400 baud
// [docs/HARDWARE.md 1.1].
func TestPortAClockFollowsDTR(t *testing.T) {
	for _, tc := range []struct {
		name string
		wr5  byte
		ctc0 []byte // CTC channel 0 programming
		// the character's time on the line, 0: never sent
		want sched.Time
	}{
		// BIOS 4.3: CTC 0 reset (03h twice), DTR off: 10 bits x 16 cells.
		{"38400, DTR off", 0x6A, []byte{0x03, 0x03}, 160 * emu.HighBaudPeriod},
		// DTR on and CTC 0 reset: no clock, the character waits.
		{"DTR on, CTC stopped", 0xEA, []byte{0x03, 0x03}, 0},
		// Our ROM: CTC 0 counter, time constant 13; DTR on: 9615 baud.
		{"9600, DTR on", 0xEA, []byte{0x47, 13}, 160 * 13 * sched.CTCTrigPeriod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := emu.DefaultConfig(emu.StubROM(0x0100))
			var sent []sched.Time
			cfg.ConsoleOut = func(now sched.Time, b byte) { sent = append(sent, now) }
			b, err := emu.New(cfg)
			require.NoError(t, err)
			defer b.Close()
			tt := uint64(0)
			out := func(port uint16, v byte) { b.Out(port, v, tt); tt += 11 }
			for _, v := range tc.ctc0 {
				out(0x40, v)
			}
			for _, v := range []byte{0x18, 0x04, 0x44, 0x03, 0xC1, 0x05, tc.wr5} {
				out(0x84, v)
			}
			out(0x80, 'A')
			start := b.Sched().Now()
			require.NoError(t, b.RunFor(5*sched.Millisecond))
			if tc.want == 0 {
				assert.Empty(t, sent)
				b.Out(0x80, 'B', b.CPU().T())
				rr0, _ := b.In(0x84, b.CPU().T()+11)
				assert.Zero(t, rr0&0x04, "A still in the shifter: B waits, no Tx buffer empty")
				return
			}
			require.Len(t, sent, 1)
			// The character starts at the next clock pulse after the write.
			assert.InDelta(t, float64(tc.want), float64(sent[0]-start), float64(2*sched.CTCTrigPeriod*13))
		})
	}
}
