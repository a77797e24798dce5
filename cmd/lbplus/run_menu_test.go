package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// TestMenuResetAndNMI: after DI; HALT only the escape prompt's reset (or
// an NMI) gets the board going again.
func TestMenuResetAndNMI(t *testing.T) {
	r, err := asm.AssembleString(`
	org 0
	ld hl,8000h
	inc (hl)        ; counts the starts from reset
	di
	halt
	org 66h
	ld a,42h
	ld (8001h),a
	halt
`, asm.Options{})
	require.NoError(t, err)
	rom := make([]byte, 4096)
	copy(rom, r.Bytes)
	b, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.RunFor(10*sched.Millisecond))
	require.True(t, b.CPU().Halted())
	assert.Equal(t, uint8(1), b.RAM(0x8000))

	assert.Equal(t, "board reset\r\n", menuLine(b, "reset"))
	require.NoError(t, b.RunFor(10*sched.Millisecond))
	assert.Equal(t, uint8(2), b.RAM(0x8000), "ran again from 0000h")

	assert.Contains(t, menuLine(b, "n"), "NMI")
	require.NoError(t, b.RunFor(10*sched.Millisecond))
	assert.Equal(t, uint8(0x42), b.RAM(0x8001), "the NMI handler at 0066h ran")

	help := menuLine(b, "?")
	for _, c := range []string{"reset", "nmi", "insert 0-3", "eject 0-3", "drives"} {
		assert.Contains(t, help, c)
	}
}

// TestConsoleFloodIsBounded: a flood of typed input is taken only while
// little waits for the DART; the rest stays in the console's channel (and
// the socket behind it), so memory does not grow with the flood.
func TestConsoleFloodIsBounded(t *testing.T) {
	b, err := emu.New(emu.DefaultConfig(emu.StubROM(0)))
	require.NoError(t, err)
	defer b.Close()
	in := make(chan []byte, 16)
	for range cap(in) {
		in <- make([]byte, 256)
	}
	assert.True(t, feedConsole(b, in))
	assert.LessOrEqual(t, b.ConsoleQueued(), consoleBacklog+256)
	assert.NotEmpty(t, in, "the rest waits in the channel")
	n := len(in)
	assert.False(t, feedConsole(b, in), "nothing more while the DART has not taken it")
	assert.Equal(t, n, len(in))
}
