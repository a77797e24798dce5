package hostcpu

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Both clocks advance while this thread computes (where the host has them).
func TestClocksAdvance(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := Process(), Thread()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i ^ x
	}
	if runtime.GOOS == "linux" {
		assert.Greater(t, Thread(), t0, "thread CPU time (x=%d)", x)
		assert.Greater(t, Process(), p0, "process CPU time")
	}
}
