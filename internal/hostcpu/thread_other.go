//go:build !linux

package hostcpu

import "time"

// Thread is 0 where the host gives no per-thread CPU time.
func Thread() time.Duration { return 0 }
