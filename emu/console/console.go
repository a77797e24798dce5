// Package console holds the deterministic ends of the board's serial
// console (DART channel A): a Transcript that records what the board
// transmits, with the simulated time of each byte, and a Typist that types
// into it and waits for output, for tests, scripts and the benchmarks.
//
// The host's ends (the user's terminal, TCP, a pty) are front-end code and
// live in cmd/lbplus/internal/hostport: nothing here touches the host.
package console

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lbplus/lbplus/sched"
)

// Transcript records every character the board transmits.
type Transcript struct {
	buf []byte
	// Times holds the simulated time each byte's stop bit ended.
	Times []sched.Time
}

// Out is the board's ConsoleOut callback.
func (t *Transcript) Out(now sched.Time, b byte) {
	t.buf = append(t.buf, b)
	t.Times = append(t.Times, now)
}

// String returns everything received so far.
func (t *Transcript) String() string { return string(t.buf) }

// Bytes returns everything received so far (not a copy).
func (t *Transcript) Bytes() []byte { return t.buf }

// Len is the number of bytes received so far.
func (t *Transcript) Len() int { return len(t.buf) }

// Board is what a Typist needs of the board.
type Board interface {
	ConsoleInput(p []byte)
	ConsoleQueued() int
	RunUntil(cond func() bool, limit sched.Time) (bool, error)
}

// Typist plays a person at the terminal: it waits for text to appear and
// types lines, at the line's baud rate (the DART paces received characters).
type Typist struct {
	B Board
	T *Transcript
	// Limit is the simulated time allowed for each wait (default 10 s).
	Limit sched.Time
	mark  int
}

func (ty *Typist) limit() sched.Time {
	if ty.Limit == 0 {
		return 10 * sched.Second
	}
	return ty.Limit
}

// WaitFor runs the board until the transcript, from the last point waited
// for, contains s; the next wait starts after it.
func (ty *Typist) WaitFor(s string) error {
	want := []byte(s)
	var at int
	ok, err := ty.B.RunUntil(func() bool {
		at = bytes.Index(ty.T.buf[ty.mark:], want)
		return at >= 0
	}, ty.limit())
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("console: %q did not appear within %v; got %q", s, ty.limit(), tail(ty.T.buf[ty.mark:]))
	}
	ty.mark += at + len(want)
	return nil
}

// Type sends s and runs the board until every character has been received.
func (ty *Typist) Type(s string) error {
	ty.B.ConsoleInput([]byte(s))
	ok, err := ty.B.RunUntil(func() bool { return ty.B.ConsoleQueued() == 0 }, ty.limit())
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("console: typing %q did not finish within %v (is the receiver clocked?)", s, ty.limit())
	}
	return nil
}

// Command waits for prompt, then types line followed by CR.
func (ty *Typist) Command(prompt, line string) error {
	if err := ty.WaitFor(prompt); err != nil {
		return err
	}
	return ty.Type(line + "\r")
}

func tail(b []byte) string {
	s := string(b)
	if len(s) > 200 {
		s = "..." + s[len(s)-200:]
	}
	return strings.ToValidUTF8(s, "?")
}
