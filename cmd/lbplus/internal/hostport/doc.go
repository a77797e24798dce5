// Package hostport is the host's end of the board's two serial ports: the
// user's terminal in raw mode (with the quit key and the escape prompt), a
// telnet-style TCP console, and for DART channel B a raw TCP socket or a
// pseudo-terminal.
//
// It lives under cmd/ because it is host I/O: goroutines, sockets and the
// wall clock (a pty with no reader is polled again after a pause). The
// board never waits on it: bytes that arrive are handed to the DART by the
// front end's loop between runs, and the board's output is written after
// a run, so the emulation stays deterministic (emu/console holds the
// deterministic ends used by tests and scripts).
package hostport
