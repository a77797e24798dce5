//go:build !unix

package bench

// ProcessCPUSeconds is 0 where the host gives no process CPU time.
func ProcessCPUSeconds() float64 { return 0 }
