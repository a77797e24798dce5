package hostport

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
)

// Serial is the host end of the board's second serial port (DART channel
// B): a pseudo-terminal for a host program (sx, rx, minicom) or a raw TCP
// socket. Bytes from the host arrive on Input; Write sends the board's
// output and never blocks: while nobody is connected, or the far end
// reads too slowly, output is dropped, as on a line nobody listens to.
type Serial interface {
	Input() <-chan []byte
	Write(p []byte) (int, error)
	Close() error
}

// CheckSerial reports whether spec is "pty" or a good "tcp:PORT" /
// "tcp:HOST:PORT" (without opening anything); flag names the setting in
// the error ("--serial").
func CheckSerial(flag, spec string) error {
	switch {
	case spec == "pty":
		return nil
	case strings.HasPrefix(spec, "tcp:"):
		_, err := tcpAddr(flag, spec)
		return err
	}
	return fmt.Errorf("%s %q: want pty, tcp:PORT or tcp:HOST:PORT", flag, spec)
}

// OpenSerial opens the serial end spec names: "pty" (OpenPty) or
// "tcp:PORT" (loopback only) / "tcp:HOST:PORT" (ListenRaw).
func OpenSerial(flag, spec string) (Serial, error) {
	if err := CheckSerial(flag, spec); err != nil {
		return nil, err
	}
	if spec == "pty" {
		return OpenPty()
	}
	addr, _ := tcpAddr(flag, spec)
	return ListenRaw(addr)
}

// outQueue is a writer that never blocks its caller: a goroutine writes
// what is queued. Up to outQueueMax bytes wait (a minute of output at
// 9600 baud); beyond that, output is dropped.
type outQueue struct {
	mu     sync.Mutex
	buf    []byte
	wake   chan struct{}
	closed bool
}

const outQueueMax = 64 << 10

func newOutQueue(write func(p []byte)) *outQueue {
	q := &outQueue{wake: make(chan struct{}, 1)}
	go func() {
		for range q.wake {
			q.mu.Lock()
			p := q.buf
			q.buf = nil
			q.mu.Unlock()
			if len(p) > 0 {
				write(p)
			}
		}
	}()
	return q
}

func (q *outQueue) put(p []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.buf)+len(p) > outQueueMax {
		return
	}
	q.buf = append(q.buf, p...)
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *outQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.wake)
	}
}

// Raw is a TCP serial end: bytes both ways as they are (no telnet), one
// client at a time; a second client reads BusySerial and is disconnected.
type Raw struct {
	ln   net.Listener
	in   chan []byte
	out  *outQueue
	mu   sync.Mutex
	conn net.Conn
}

// BusySerial is what a second client of a TCP serial end reads.
const BusySerial = "lbplus: the serial port is in use by another client\r\n"

// ListenRaw listens on addr for the serial port's client (an IPv4 address
// over IPv4 only, as ListenTCP).
func ListenRaw(addr string) (*Raw, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, fmt.Errorf("serial: %w", err)
	}
	r := &Raw{ln: ln, in: make(chan []byte, 16)}
	r.out = newOutQueue(func(p []byte) {
		r.mu.Lock()
		c := r.conn
		r.mu.Unlock()
		if c != nil {
			c.Write(p)
		}
	})
	go r.accept()
	return r, nil
}

// Addr is the address the serial end listens on.
func (r *Raw) Addr() net.Addr { return r.ln.Addr() }

// Exposed reports whether it listens beyond this host.
func (r *Raw) Exposed() bool { return exposed(r.ln) }

func (r *Raw) accept() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				fmt.Fprintln(os.Stderr, "serial:", err)
			}
			return
		}
		r.mu.Lock()
		if r.conn != nil {
			r.mu.Unlock()
			c.Write([]byte(BusySerial))
			c.Close()
			continue
		}
		r.conn = c
		r.mu.Unlock()
		go r.read(c)
	}
}

func (r *Raw) read(c net.Conn) {
	buf := make([]byte, 256)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			r.in <- append([]byte(nil), buf[:n]...)
		}
		if err != nil {
			r.mu.Lock()
			if r.conn == c {
				r.conn = nil
			}
			r.mu.Unlock()
			c.Close()
			return
		}
	}
}

// Input delivers the client's bytes.
func (r *Raw) Input() <-chan []byte { return r.in }

// Write queues the board's output for the client (dropped without one).
func (r *Raw) Write(p []byte) (int, error) {
	r.out.put(p)
	return len(p), nil
}

// Close stops listening and drops the client.
func (r *Raw) Close() error {
	r.mu.Lock()
	if r.conn != nil {
		r.conn.Close()
		r.conn = nil
	}
	r.mu.Unlock()
	r.out.close()
	return r.ln.Close()
}
