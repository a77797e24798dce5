//go:build !linux

package emu_test

import "time"

func threadCPU() time.Duration { return 0 }
