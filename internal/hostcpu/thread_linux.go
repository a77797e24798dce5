package hostcpu

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time the calling OS thread has used, so a
// benchmark can compare rates that other processes on a shared host do not
// skew. The caller must hold runtime.LockOSThread.
func Thread() time.Duration {
	// CLOCK_THREAD_CPUTIME_ID is exact to the nanosecond; getrusage's
	// per-thread times are sampled at the scheduler tick, too coarse for
	// slices of a millisecond.
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
