//go:build !linux

package z80host

import "time"

func threadCPU() time.Duration { return 0 }
