//go:build !linux

package hostport

import "errors"

// Pty is a pseudo-terminal serial end (Linux only).
type Pty struct{ Serial }

// OpenPty is not available here.
func OpenPty() (*Pty, error) {
	return nil, errors.New("serial pty: pseudo-terminals are made on Linux only")
}

// Name is the terminal's name.
func (p *Pty) Name() string { return "" }
