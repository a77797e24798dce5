package emu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// busy reads DART B's RR0 at T-state t and reports bit 4 (RI: the
// printer's BUSY).
func busy(b *emu.Board, t uint64) bool {
	v, _ := b.In(0x8C, t)
	return v&0x10 != 0
}

// A printer cabled to the parallel port takes the data latch when STROBE
// is asserted, once per strobe, and holds BUSY for PrinterBusy; without
// one the bytes go nowhere and BUSY stays off.
func TestPrinterStrobeAndBusy(t *testing.T) {
	b, err := emu.New(emu.DefaultConfig(make([]byte, 4096)))
	require.NoError(t, err)
	b.Out(0x01, 'x', 0)
	b.Out(0x02, 0, 10)
	assert.False(t, busy(b, 12), "no printer: BUSY inactive")
	b.Out(0x03, 0, 14)

	var got []byte
	var at []sched.Time
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.PrinterOut = func(now sched.Time, c byte) { got, at = append(got, c), append(at, now) }
	b, err = emu.New(cfg)
	require.NoError(t, err)
	b.Out(0x01, 'H', 0)
	assert.Empty(t, got, "the data latch alone prints nothing")
	b.Out(0x02, 0, 10)
	assert.Equal(t, "H", string(got))
	assert.Equal(t, []sched.Time{11 * sched.TState}, at, "taken as STROBE goes active")
	assert.True(t, busy(b, 12), "BUSY right after the strobe")
	b.Out(0x02, 0, 14)
	assert.Equal(t, "H", string(got), "STROBE held: no second byte")
	b.Out(0x03, 0, 16)
	end := uint64(11 + emu.PrinterBusy/sched.TState)
	assert.True(t, busy(b, end-2), "BUSY for PrinterBusy")
	assert.False(t, busy(b, end), "then ready")
	b.Out(0x01, 'i', end+10)
	b.Out(0x02, 0, end+20)
	b.Out(0x03, 0, end+30)
	assert.Equal(t, "Hi", string(got))
}

// Bytes from the host reach DART B at its programmed rate; the far end
// holds what the three-byte FIFO cannot take, so nothing is overrun.
// CTS B is active when something is attached to the port.
func TestSerialBInputPaced(t *testing.T) {
	b, tr := newMonitorBoard(t)
	v, _ := b.In(0x8C, b.CPU().T())
	assert.Zero(t, v&0x20, "nothing attached: CTS B inactive")
	ok, err := b.RunUntil(func() bool { return tr.Len() > 0 }, 2*sched.Second)
	require.NoError(t, err)
	require.True(t, ok, "the ROM has set up the DART")
	b.SerialBInput([]byte("ABCDE"))
	assert.Equal(t, 5, b.SerialBQueued())
	require.NoError(t, b.RunFor(20*sched.Millisecond))
	assert.Equal(t, 2, b.SerialBQueued(), "three in the FIFO, two held")
	var got []byte
	for i := 0; i < 100 && len(got) < 5; i++ {
		rr0, _ := b.In(0x8C, b.CPU().T())
		if rr0&1 != 0 {
			c, _ := b.In(0x88, b.CPU().T())
			got = append(got, c)
			continue
		}
		require.NoError(t, b.RunFor(2*sched.Millisecond))
	}
	assert.Equal(t, "ABCDE", string(got))
	b.Out(0x8C, 1, b.CPU().T()) // RR1
	rr1, _ := b.In(0x8C, b.CPU().T())
	assert.Zero(t, rr1&0x20, "no overrun")

	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.SerialBOut = func(sched.Time, byte) {}
	b, err = emu.New(cfg)
	require.NoError(t, err)
	v, _ = b.In(0x8C, 0)
	assert.NotZero(t, v&0x20, "attached: CTS B active")
}
