package dart

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// fixedClock pulses every period from time zero, like a CTC channel.
type fixedClock struct{ period sched.Time }

func (f fixedClock) PulseAfter(t sched.Time, n int) sched.Time {
	if f.period == 0 {
		return sched.MaxTime
	}
	return (t/f.period + sched.Time(n)) * f.period
}

// ZC/TO of a CTC counting 13 edges of 2 MHz: 16 pulses a bit is 9615 baud.
var baud9615 = fixedClock{13 * sched.CTCTrigPeriod}

type sent struct {
	at sched.Time
	b  uint8
}

func setup8N1(c *Channel) {
	for _, w := range []uint8{0x18, 0x04, 0x44, 0x03, 0xC1, 0x05, 0xEA} {
		c.WriteControl(w)
	}
}

func TestTransmitPacedAtBaudRate(t *testing.T) {
	s := sched.New()
	d := New(s)
	a := d.Channel(0)
	a.SetClock(baud9615)
	var out []sent
	a.OnTx = func(now sched.Time, b uint8) { out = append(out, sent{now, b}) }
	setup8N1(a)
	assert.Equal(t, uint8(0x04), a.ReadControl()&0x04, "buffer empty")
	a.WriteData('H')
	assert.Equal(t, uint8(0x04), a.ReadControl()&0x04, "moved to the shift register")
	a.WriteData('i')
	assert.Equal(t, uint8(0), a.ReadControl()&0x04, "buffer full behind the shifter")
	a.WriteControl(1)
	assert.Equal(t, uint8(0), a.ReadControl()&1, "not all sent")
	s.Advance(10 * sched.Millisecond)
	char := 160 * baud9615.period // 10 bits x 16 pulses
	require.Len(t, out, 2)
	assert.Equal(t, sent{char, 'H'}, out[0])
	assert.Equal(t, sent{2 * char, 'i'}, out[1])
	assert.InDelta(t, 1.04, float64(char)/float64(sched.Millisecond), 0.001)
	a.WriteControl(1)
	assert.Equal(t, uint8(1), a.ReadControl()&1, "all sent")
}

func TestFrameLength(t *testing.T) {
	tests := []struct {
		wr4, bits, want int
	}{
		{0x44, 8, 160}, // x16 8N1
		{0x4C, 8, 176}, // x16 8N2
		{0x45, 7, 160}, // x16 7E1
		{0x48, 8, 168}, // x16 8N1.5
		{0x04, 8, 10},  // x1
		{0xC4, 8, 640}, // x64
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, framePulses(uint8(tt.wr4), tt.bits), "wr4 %02x", tt.wr4)
	}
}

func TestReceiveNoFasterThanBaudAndOverrun(t *testing.T) {
	s := sched.New()
	d := New(s)
	a := d.Channel(0)
	a.SetClock(baud9615)
	setup8N1(a)
	a.Feed([]byte("abcde"))
	assert.Equal(t, uint8(0), a.ReadControl()&1, "nothing arrives instantly")
	char := 160 * baud9615.period
	s.Advance(char)
	assert.Equal(t, uint8(1), a.ReadControl()&1)
	assert.Equal(t, uint8('a'), a.ReadData())
	assert.Equal(t, uint8(0), a.ReadControl()&1)
	s.Advance(5 * char)
	// b, c, d filled the FIFO; e overran the last slot.
	assert.Equal(t, uint8('b'), a.ReadData())
	assert.Equal(t, uint8('c'), a.ReadData())
	assert.Equal(t, uint8('e'), a.ReadData())
	a.WriteControl(1)
	assert.Equal(t, uint8(0x20), a.ReadControl()&0x20, "overrun flagged in RR1")
	a.WriteControl(0x30)
	a.WriteControl(1)
	assert.Equal(t, uint8(0), a.ReadControl()&0x20)
}

func TestStoppedClockHoldsTheLine(t *testing.T) {
	s := sched.New()
	d := New(s)
	a := d.Channel(0)
	clk := &switchClock{}
	a.SetClock(clk)
	setup8N1(a)
	a.Feed([]byte("x"))
	s.Advance(sched.Second)
	assert.Equal(t, uint8(0), a.ReadControl()&1)
	clk.on = true
	a.ClockChanged()
	s.Advance(sched.Second + sched.Millisecond*2)
	assert.Equal(t, uint8(1), a.ReadControl()&1)
}

type switchClock struct{ on bool }

func (c *switchClock) PulseAfter(t sched.Time, n int) sched.Time {
	if !c.on {
		return sched.MaxTime
	}
	return baud9615.PulseAfter(t, n)
}

func TestInterruptsVectorsAndPriority(t *testing.T) {
	s := sched.New()
	d := New(s)
	a, b := d.Channel(0), d.Channel(1)
	a.SetClock(baud9615)
	b.SetClock(baud9615)
	setup8N1(a)
	setup8N1(b)
	b.WriteControl(2)
	b.WriteControl(0x60) // vector
	b.WriteControl(1)
	b.WriteControl(0x04 | 0x10) // status affects vector, rx int on all chars
	a.WriteControl(1)
	a.WriteControl(0x12) // A: tx int, rx int all chars

	b.Feed([]byte("1"))
	s.Advance(2 * sched.Millisecond)
	req, _ := d.IntState()
	require.True(t, req)
	b.WriteControl(2)
	assert.Equal(t, uint8(0x60|2<<1), b.ReadControl(), "RR2 names B receive")

	a.WriteData('z') // A tx empties at once: tx A outranks rx B
	assert.Equal(t, uint8(0x60|4<<1), d.Acknowledge())
	req, busy := d.IntState()
	assert.False(t, req, "B below A-tx in service")
	assert.True(t, busy)
	a.WriteControl(0x28) // reset tx int pending
	a.WriteControl(0x38) // return from interrupt (software RETI)
	assert.Equal(t, uint8(0x60|2<<1), d.Acknowledge())
	assert.Equal(t, uint8('1'), b.ReadData())
	d.RETI()
	req, busy = d.IntState()
	assert.False(t, req)
	assert.False(t, busy)
	b.WriteControl(2)
	assert.Equal(t, uint8(0x60|codeNone<<1), b.ReadControl())
}

func TestExternalStatusInterrupt(t *testing.T) {
	s := sched.New()
	d := New(s)
	b := d.Channel(1)
	b.WriteControl(1)
	b.WriteControl(0x05) // ext int enable, status affects vector
	b.SetDCD(true)
	assert.Equal(t, uint8(0x08), b.ReadControl()&0x08)
	assert.Equal(t, uint8(1<<1), d.Acknowledge())
	b.WriteControl(0x10)
	d.RETI()
	req, _ := d.IntState()
	assert.False(t, req)
}

func TestReceiveInterruptModes(t *testing.T) {
	char := 160 * baud9615.period
	tests := []struct {
		name   string
		wr1    uint8
		feed   string
		reqs   []bool // after each character arrives (none read)
		vector uint8  // with status affects vector on channel B
	}{
		{"disabled", 0x00, "ab", []bool{false, false}, 0},
		{"first character only", 0x08, "ab", []bool{true, true}, 6},
		{"every character", 0x10, "ab", []bool{true, true}, 6},
		{"overrun is a special condition", 0x18, "abcd", []bool{true, true, true, true}, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sched.New()
			d := New(s)
			a, b := d.Channel(0), d.Channel(1)
			a.SetClock(baud9615)
			setup8N1(a)
			b.WriteControl(1)
			b.WriteControl(0x04)
			a.WriteControl(0x20) // enable interrupt on next character
			a.WriteControl(1)
			a.WriteControl(tt.wr1)
			a.Feed([]byte(tt.feed))
			for i, want := range tt.reqs {
				s.Advance(sched.Time(i+1) * char)
				req, _ := d.IntState()
				assert.Equal(t, want, req, "after character %d", i+1)
			}
			if tt.vector != 0 {
				assert.Equal(t, tt.vector<<1, d.Acknowledge())
			}
		})
	}
}

func TestFirstCharacterModeNeedsRearming(t *testing.T) {
	s := sched.New()
	d := New(s)
	a := d.Channel(0)
	a.SetClock(baud9615)
	setup8N1(a)
	a.WriteControl(0x20) // arm
	a.WriteControl(1)
	a.WriteControl(0x08) // interrupt on first character
	a.Feed([]byte("ab"))
	char := 160 * baud9615.period
	s.Advance(char)
	req, _ := d.IntState()
	require.True(t, req)
	a.ReadData()
	req, _ = d.IntState()
	assert.False(t, req, "reading the character clears the request")
	s.Advance(2 * char)
	req, _ = d.IntState()
	assert.False(t, req, "the second character does not interrupt until re-armed")
	assert.Equal(t, uint8('b'), a.ReadData())
}

func TestRR0InterruptPendingOnChannelAOnly(t *testing.T) {
	s := sched.New()
	d := New(s)
	a, b := d.Channel(0), d.Channel(1)
	b.WriteControl(1)
	b.WriteControl(0x01)
	b.SetCTS(true)
	assert.Equal(t, uint8(0x02), a.ReadControl()&0x02)
	assert.Zero(t, b.ReadControl()&0x02)
}

// TestPacedFarEndNeverOverruns: a paced far end (the console terminal) holds
// its characters while the FIFO is full and sends the next one a character
// time after the program reads, so a slow reader loses nothing.
func TestPacedFarEndNeverOverruns(t *testing.T) {
	s := sched.New()
	d := New(s)
	a := d.Channel(0)
	a.SetClock(baud9615)
	a.Paced = true
	setup8N1(a)
	a.Feed([]byte("abcdefg"))
	char := 160 * baud9615.period
	s.Advance(20 * char)
	assert.Equal(t, 4, a.Queued(), "three in the FIFO, the rest held")
	var got []byte
	for len(got) < 7 {
		if a.ReadControl()&1 != 0 {
			got = append(got, a.ReadData())
			continue
		}
		s.Advance(s.Now() + char)
	}
	assert.Equal(t, "abcdefg", string(got))
	a.WriteControl(1)
	assert.Equal(t, uint8(0), a.ReadControl()&0x20, "no overrun")
}

// /DTR follows WR5 bit 7; OnDTR hears each change, including the one a
// channel reset makes, and nothing when a write leaves it as it was.
func TestDTROutput(t *testing.T) {
	s := sched.New()
	d := New(s)
	c := d.Channel(0)
	var heard []bool
	c.OnDTR = func(_ sched.Time, active bool) { heard = append(heard, active) }
	wr5 := func(v uint8) { c.WriteControl(5); c.WriteControl(v) }
	wr5(0x6A)
	assert.False(t, c.DTR())
	wr5(0xEA)
	assert.True(t, c.DTR())
	wr5(0xE8) // RTS off: DTR unchanged
	c.WriteControl(0x18)
	assert.False(t, c.DTR(), "channel reset clears WR5")
	assert.Equal(t, []bool{true, false}, heard)
}

// An INT observer is told after OnINT, as often, until it is removed.
func TestObserveINT(t *testing.T) {
	s := sched.New()
	d := New(s)
	b := d.Channel(1)
	b.SetClock(baud9615)
	setup8N1(b)
	b.WriteControl(1)
	b.WriteControl(0x10) // rx int on all chars
	var order []string
	d.OnINT = func() { order = append(order, "wire") }
	remove := d.ObserveINT(func() { order = append(order, "observer") })
	b.Feed([]byte("1"))
	s.Advance(2 * sched.Millisecond)
	req, _ := d.IntState()
	require.True(t, req)
	require.NotEmpty(t, order)
	for i := 0; i+1 < len(order); i += 2 {
		assert.Equal(t, []string{"wire", "observer"}, order[i:i+2])
	}
	remove()
	n := len(order)
	d.Acknowledge()
	assert.Greater(t, len(order), n, "the wire is still told")
	assert.NotContains(t, order[n:], "observer")
}
