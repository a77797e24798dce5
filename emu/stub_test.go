package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

func TestStubROMStartsTheRAMProgram(t *testing.T) {
	b, err := New(DefaultConfig(StubROM(0x0100)))
	require.NoError(t, err)
	b.LoadRAM(0, Stub(0x0100))
	b.LoadRAM(0x0100, []byte{0x3E, 0x5A, 0x32, 0x00, 0x90, 0x76}) // LD A,5Ah; LD (9000h),A; HALT
	ok, err := b.RunUntil(func() bool { return b.RAM(0x9000) == 0x5A }, sched.Millisecond)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.False(t, b.ROMMapped())
}
