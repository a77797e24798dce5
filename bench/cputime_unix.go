//go:build unix

package bench

import "syscall"

// ProcessCPUSeconds is the user+system CPU time of this process, for
// reporting emulation speed on a shared machine (wall time counts other
// processes' load). It is a host measurement, never used in emulation.
func ProcessCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime) + sec(ru.Stime)
}
