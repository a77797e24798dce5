package z80host

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, so a
// benchmark can report a rate that does not depend on how many other
// processes share the host. The caller must hold runtime.LockOSThread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var _ = runtime.LockOSThread
