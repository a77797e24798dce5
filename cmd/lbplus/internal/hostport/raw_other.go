//go:build !linux

package hostport

// makeRaw is a no-op where raw mode is not implemented: the terminal stays
// line-buffered and echoes locally.
func makeRaw(fd int) (func(), error) { return func() {}, nil }
