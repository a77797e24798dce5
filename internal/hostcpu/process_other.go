//go:build !unix

package hostcpu

// Process is 0 where the host gives no process CPU time.
func Process() float64 { return 0 }
