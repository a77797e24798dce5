package hostport

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Pty is a serial end on a pseudo-terminal: a host program opens Name
// (/dev/pts/N) as if it were a serial line. The terminal is in raw mode
// (no echo, no line editing, 8 bits) until the program sets its own.
type Pty struct {
	master *os.File
	name   string
	in     chan []byte
	out    *outQueue
	done   chan struct{}
	once   sync.Once
}

// ptyIdle is how long the reader waits before looking again while no
// program has the terminal open (reads fail then).
const ptyIdle = 20 * time.Millisecond

// OpenPty makes a pseudo-terminal: /dev/ptmx opened, unlocked, its slave
// named by the kernel's number for it.
func OpenPty() (*Pty, error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("serial pty: /dev/ptmx: %w", err)
	}
	fail := func(what string, err error) (*Pty, error) {
		unix.Close(fd)
		return nil, fmt.Errorf("serial pty: %s: %w", what, err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return fail("unlock", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		return fail("number", err)
	}
	// Termios requests on the master apply to the slave (Linux).
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fail("terminal mode", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fail("raw mode", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		return fail("non-blocking", err)
	}
	p := &Pty{master: os.NewFile(uintptr(fd), "/dev/ptmx"), name: fmt.Sprintf("/dev/pts/%d", n),
		in: make(chan []byte, 16), done: make(chan struct{})}
	p.out = newOutQueue(func(b []byte) { p.master.Write(b) })
	go p.read()
	return p, nil
}

// Name is the terminal a host program opens.
func (p *Pty) Name() string { return p.name }

func (p *Pty) read() {
	buf := make([]byte, 256)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			select {
			case p.in <- append([]byte(nil), buf[:n]...):
			case <-p.done:
				return
			}
		}
		if err != nil {
			if errors.Is(err, os.ErrClosed) {
				return
			}
			if !errors.Is(err, syscall.EIO) {
				fmt.Fprintln(os.Stderr, "serial pty:", err)
			}
			// EIO: no program has the terminal open (yet, or any more).
			select {
			case <-p.done:
				return
			case <-time.After(ptyIdle):
			}
		}
	}
}

// Input delivers what the host program writes.
func (p *Pty) Input() <-chan []byte { return p.in }

// Write queues the board's output for the host program.
func (p *Pty) Write(b []byte) (int, error) {
	p.out.put(b)
	return len(b), nil
}

// Close removes the pseudo-terminal.
func (p *Pty) Close() error {
	p.once.Do(func() { close(p.done) })
	p.out.close()
	return p.master.Close()
}
