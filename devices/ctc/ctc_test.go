package ctc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

func newBoardCTC() (*sched.Scheduler, *CTC) {
	s := sched.New()
	c := New(s)
	c.SetTriggerClock(0, sched.CTCTrigPeriod)
	c.SetTriggerClock(1, sched.CTCTrigPeriod)
	return s, c
}

// The monitor's 9600 baud set-up: counter mode, TC 13 on a 2 MHz trigger
// gives ZC/TO at 2 MHz/13, i.e. x16 of 9615 baud [D docs/HARDWARE.md 1.1].
func TestCounterModeBaudClock(t *testing.T) {
	s, c := newBoardCTC()
	c.Write(0, 0x57) // counter, rising edge, TC follows, reset
	c.Write(0, 13)
	ch := c.Channel(0)
	require.True(t, ch.Running())
	assert.Equal(t, 13*sched.CTCTrigPeriod, ch.ZCPeriod())
	baud := float64(sched.Second) / float64(16*ch.ZCPeriod())
	assert.InDelta(t, 9615.4, baud, 0.1)
	// Edges at k*500 ns; the first edge after t=0 is 500 ns, so the 13th
	// decrement (zero count) is at 13*500 ns.
	assert.Equal(t, 13*sched.CTCTrigPeriod, ch.PulseAfter(0, 1))
	assert.Equal(t, 26*sched.CTCTrigPeriod, ch.PulseAfter(13*sched.CTCTrigPeriod, 1))
	assert.Equal(t, (13+16*13)*sched.CTCTrigPeriod, ch.PulseAfter(0, 17))
	s.Advance(5*sched.CTCTrigPeriod + 1)
	assert.Equal(t, uint8(8), c.Read(0))
}

func TestTimerModePrescalerAndRead(t *testing.T) {
	tests := []struct {
		name   string
		ctrl   uint8
		tc     uint8
		period sched.Time
	}{
		{"prescale 16", 0x07, 100, 16 * sched.TState},
		{"prescale 256", 0x27, 10, 256 * sched.TState},
		{"tc 0 means 256", 0x07, 0, 16 * sched.TState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c := newBoardCTC()
			c.Write(2, tt.ctrl)
			c.Write(2, tt.tc)
			tc := int(tt.tc)
			if tc == 0 {
				tc = 256
			}
			assert.Equal(t, sched.Time(tc)*tt.period, c.Channel(2).ZCPeriod())
			s.Advance(3*tt.period + tt.period/2)
			assert.Equal(t, uint8(tc-3), c.Read(2))
		})
	}
}

func TestZeroCountInterruptAndDaisy(t *testing.T) {
	s, c := newBoardCTC()
	ints := 0
	c.OnINT = func() { ints++ }
	c.Write(0, 0x40) // vector base 40h
	c.Write(3, 0x87) // ch3 timer, int enabled, TC follows
	c.Write(3, 2)    // 2*16 T = 8 us
	c.Write(1, 0xD7) // ch1 counter, int enabled
	c.Write(1, 4)    // 4 edges of 2 MHz = 2 us
	s.Advance(2*sched.Microsecond - 1)
	req, _ := c.IntState()
	assert.False(t, req)
	s.Advance(2 * sched.Microsecond)
	req, busy := c.IntState()
	assert.True(t, req)
	assert.False(t, busy)
	assert.Equal(t, uint8(0x42), c.Acknowledge(), "ch1 vector")
	s.Advance(8 * sched.Microsecond)
	// ch3 is pending but below ch1 in service: blocked.
	req, busy = c.IntState()
	assert.False(t, req)
	assert.True(t, busy)
	c.RETI()
	req, _ = c.IntState()
	assert.True(t, req, "ch1 fired again at 4 us; it outranks ch3")
	assert.Equal(t, uint8(0x42), c.Acknowledge())
	c.RETI()
	assert.Equal(t, uint8(0x46), c.Acknowledge(), "then ch3")
	assert.Greater(t, ints, 3)
}

func TestTimeConstantWhileRunningLoadsAtZeroCount(t *testing.T) {
	s, c := newBoardCTC()
	c.Write(0, 0x57)
	c.Write(0, 10) // ZC every 5 us
	s.Advance(2 * sched.Microsecond)
	c.Write(0, 0x55) // control word without reset: a time constant follows
	c.Write(0, 20)   // takes effect at the 5 us zero count
	ch := c.Channel(0)
	s.Advance(6 * sched.Microsecond)
	assert.Equal(t, 20*sched.CTCTrigPeriod, ch.ZCPeriod())
	assert.Equal(t, 5*sched.Microsecond+10*sched.Microsecond, ch.PulseAfter(6*sched.Microsecond, 1))
}

func TestSoftwareResetStopsAndTriggerStartsTimer(t *testing.T) {
	s, c := newBoardCTC()
	c.Write(2, 0x8F) // timer, int, trigger start, TC follows
	c.Write(2, 1)
	assert.False(t, c.Channel(2).Running(), "waits for trigger")
	s.Advance(100 * sched.Microsecond)
	c.Trigger(2, true) // falling edge selected (bit 4 = 0): rising ignored
	assert.False(t, c.Channel(2).Running())
	c.Trigger(2, false)
	assert.True(t, c.Channel(2).Running())
	s.Advance(100*sched.Microsecond + 16*sched.TState)
	req, _ := c.IntState()
	assert.True(t, req)
	c.Write(2, 0x03)
	assert.False(t, c.Channel(2).Running())
	assert.Equal(t, sched.MaxTime, c.Channel(2).PulseAfter(0, 1))
	req, _ = c.IntState()
	assert.False(t, req, "disabling interrupts drops the request")
}

func TestCounterOnExternalTrigger(t *testing.T) {
	_, c := newBoardCTC()
	zc := 0
	c.OnZC = func(int, sched.Time) { zc++ }
	c.Write(3, 0x55) // counter, rising, TC follows, reset
	c.Write(3, 3)
	for i := 0; i < 7; i++ {
		c.Trigger(3, true)
		c.Trigger(3, false)
	}
	assert.Equal(t, 2, zc)
	assert.Equal(t, uint8(2), c.Read(3))
}

func TestCounterEdgeSelection(t *testing.T) {
	// Rising edges of the 2 MHz input at k x 500 ns, falling half-way.
	tests := []struct {
		ctrl  uint8
		first sched.Time
	}{
		{0x57, sched.CTCTrigPeriod},     // rising
		{0x47, sched.CTCTrigPeriod / 2}, // falling
	}
	for _, tt := range tests {
		_, c := newBoardCTC()
		c.Write(1, tt.ctrl)
		c.Write(1, 1) // every edge is a zero count
		assert.Equal(t, tt.first, c.Channel(1).PulseAfter(0, 1), "ctrl %02x", tt.ctrl)
		assert.Equal(t, tt.first+sched.CTCTrigPeriod, c.Channel(1).PulseAfter(tt.first, 1))
	}
}

func TestVectorOnlyOnChannel0(t *testing.T) {
	s, c := newBoardCTC()
	c.Write(1, 0x80) // bit 0 = 0 on channel 1: ignored
	c.Write(0, 0x88)
	c.Write(2, 0x87)
	c.Write(2, 1)
	s.Advance(16 * sched.TState)
	assert.Equal(t, uint8(0x88|2<<1), c.Acknowledge())
}

// ZC/TO2 -> CLK/TRG3 (Cascade): channel 3 in counter mode counts channel 2's
// zero counts, so the pair is one long timer. Its zero counts fall exactly
// on every tc3-th zero count of channel 2, also across a change of channel
// 2's time constant, and while channel 2 is fed aperiodic trigger edges.
func TestCascadeTO2ToTRG3(t *testing.T) {
	s, c := newBoardCTC()
	c.Cascade(2, 3)
	var zc3 []sched.Time
	c.OnZC = func(ch int, now sched.Time) {
		if ch == 3 {
			zc3 = append(zc3, now)
		}
	}
	c.Write(2, 0x07) // timer, prescaler 16, TC follows, reset
	c.Write(2, 10)   // ZC/TO2 every 160 T
	p2 := 160 * sched.TState
	c.Write(3, 0xC7) // interrupt, counter, TC follows, reset
	c.Write(3, 5)
	ch3 := c.Channel(3)
	assert.Equal(t, 5*p2, ch3.ZCPeriod())
	s.Advance(p2*2 + 1)
	assert.Equal(t, uint8(3), c.Read(3), "two of channel 2's zero counts so far")
	s.Advance(5*p2 + 1)
	require.Equal(t, []sched.Time{5 * p2}, zc3)

	// Channel 2 slows to 320 T mid-count: the new constant loads at its
	// next zero count (6*p2); channel 3 keeps its count and takes the
	// slower train from there.
	c.Write(2, 0x05) // timer, prescaler 16, TC follows, no reset
	c.Write(2, 20)
	s.Advance(7*p2 + 1)
	assert.Equal(t, uint8(4), c.Read(3), "one zero count at 6*p2; the next is at 8*p2")
	want := 6*p2 + 4*2*p2 // four more zero counts of the 320 T train
	s.Advance(want + 1)
	require.Equal(t, []sched.Time{5 * p2, want}, zc3)

	// Channel 2 counting aperiodic trigger edges: every second edge is a
	// zero count and one pulse on channel 3's input.
	c.Write(2, 0x57) // counter, rising edge, TC follows, reset
	c.Write(2, 2)
	s.Advance(want + 2)
	assert.Equal(t, sched.Time(0), ch3.ZCPeriod(), "channel 3 follows an aperiodic input")
	n := c.Read(3)
	for range 2 {
		c.Trigger(2, true)
		c.Trigger(2, false)
	}
	assert.Equal(t, n-1, c.Read(3), "two edges on TRG2, one zero count, one count on channel 3")
}

// An INT observer is told after OnINT, as often, until it is removed.
func TestObserveINT(t *testing.T) {
	s, c := newBoardCTC()
	var order []string
	c.OnINT = func() { order = append(order, "wire") }
	remove := c.ObserveINT(func() { order = append(order, "observer") })
	c.Write(0, 0x40)
	c.Write(1, 0xD7) // ch1 counter, int enabled
	c.Write(1, 4)
	s.Advance(3 * sched.Microsecond)
	require.NotEmpty(t, order)
	for i := 0; i+1 < len(order); i += 2 {
		assert.Equal(t, []string{"wire", "observer"}, order[i:i+2])
	}
	assert.Zero(t, len(order)%2, "as often: %v", order)
	remove()
	n := len(order)
	c.Acknowledge()
	c.RETI()
	assert.Greater(t, len(order), n, "the wire is still told")
	assert.NotContains(t, order[n:], "observer")
}
