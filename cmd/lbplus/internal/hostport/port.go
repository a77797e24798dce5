package hostport

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// QuitKey ends `lbplus run` on the terminal console (Ctrl-], as in telnet);
// every other byte, Ctrl-C included, goes to the board.
const QuitKey = 0x1D

// MenuKey (Ctrl-\\) on the terminal console opens a one-line command prompt
// for the emulator (insert or eject a floppy, ...): the line typed after it,
// up to Return, arrives on Commands instead of going to the board.
const MenuKey = 0x1C

// Menu is a console that offers the escape prompt.
type Menu interface {
	Commands() <-chan string
}

// Port is a console the user types at: typed bytes arrive on Input, the
// board's output is written with Write. Done is closed when the user asks
// to quit (or the input ends).
type Port interface {
	Input() <-chan []byte
	Write(p []byte) (int, error)
	Done() <-chan struct{}
	Close() error
}

// Ender is a console whose input can end without the user quitting: piped
// standard input. Ended is closed at the end of the input; the front end
// then runs until the board has taken it all and settled, and stops.
type Ender interface {
	Ended() <-chan struct{}
}

// Open returns the console named by spec: "stdio", "tcp:PORT" (listening
// on the loopback address only) or "tcp:HOST:PORT" (HOST may be 0.0.0.0 or
// [::] for every interface: see TCP.Exposed).
func Open(spec string) (Port, error) {
	switch {
	case spec == "" || spec == "stdio":
		return OpenStdio()
	case strings.HasPrefix(spec, "tcp:"):
		addr, err := TCPAddr(spec)
		if err != nil {
			return nil, err
		}
		return ListenTCP(addr)
	}
	return nil, fmt.Errorf("console %q: want stdio, tcp:PORT or tcp:HOST:PORT", spec)
}

// Check reports whether spec names a console Open can make, without
// opening it.
func Check(spec string) error {
	switch {
	case spec == "" || spec == "stdio":
		return nil
	case strings.HasPrefix(spec, "tcp:"):
		_, err := TCPAddr(spec)
		return err
	}
	return fmt.Errorf("console %q: want stdio, tcp:PORT or tcp:HOST:PORT", spec)
}

// TCPAddr turns "tcp:PORT" into the loopback address 127.0.0.1:PORT (the
// console has no authentication, so it is not offered to the network
// unless asked) and "tcp:HOST:PORT" into HOST:PORT, checking the port.
func TCPAddr(spec string) (string, error) { return tcpAddr("console", spec) }

// tcpAddr is TCPAddr with what naming the port in errors.
func tcpAddr(what, spec string) (string, error) {
	rest := strings.TrimPrefix(spec, "tcp:")
	host, port := "127.0.0.1", rest
	if strings.Contains(rest, ":") {
		var err error
		if host, port, err = net.SplitHostPort(rest); err != nil {
			return "", fmt.Errorf("%s %q: %v (want tcp:PORT or tcp:HOST:PORT)", what, spec, err)
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%s %q: port %q is not a number 0-65535", what, spec, port)
	}
	return net.JoinHostPort(host, port), nil
}

// Stdio is the user's terminal, in raw mode while the board runs.
type Stdio struct {
	in      chan []byte
	cmds    chan string
	done    chan struct{}
	restore func()
	once    sync.Once
	echo    io.Writer // where the escape prompt echoes (the terminal)
	// piped is set when standard input is not a terminal: its end closes
	// ended, not done, so the board still answers what was piped in.
	piped bool
	ended chan struct{}
}

// OpenStdio puts standard input in raw mode (if it is a terminal) and starts
// reading it. Close restores the terminal.
func OpenStdio() (*Stdio, error) {
	restore, err := makeRaw(int(os.Stdin.Fd()))
	if err != nil {
		return nil, fmt.Errorf("console: terminal raw mode: %w", err)
	}
	s := &Stdio{in: make(chan []byte, 16), cmds: make(chan string, 4), done: make(chan struct{}), restore: restore,
		echo: os.Stdout, ended: make(chan struct{})}
	if st, err := os.Stdin.Stat(); err == nil && st.Mode()&os.ModeCharDevice == 0 {
		s.piped = true
	}
	go s.read(os.Stdin)
	return s, nil
}

func (s *Stdio) read(r io.Reader) {
	buf := make([]byte, 256)
	var line []byte
	menu := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p := append([]byte(nil), buf[:n]...)
			if i := indexByte(p, QuitKey); i >= 0 {
				if i > 0 && !menu {
					s.in <- p[:i]
				}
				s.quit()
				return
			}
			if !menu {
				if i := indexByte(p, MenuKey); i >= 0 {
					if i > 0 {
						s.in <- p[:i]
					}
					menu, line, p = true, line[:0], p[i+1:]
					fmt.Fprint(s.echo, "\r\nlbplus> ")
				}
			}
			if menu {
				for k, c := range p {
					switch {
					case c == '\r' || c == '\n':
						fmt.Fprint(s.echo, "\r\n")
						s.cmds <- string(line)
						menu = false
						if rest := p[k+1:]; len(rest) > 0 {
							s.in <- append([]byte(nil), rest...)
						}
					case c == 0x7F || c == 0x08:
						if len(line) > 0 {
							line = line[:len(line)-1]
							fmt.Fprint(s.echo, "\b \b")
						}
					case c >= ' ':
						line = append(line, c)
						s.echo.Write([]byte{c})
					}
					if !menu {
						break
					}
				}
				p = nil
			}
			if len(p) > 0 {
				s.in <- p
			}
		}
		if err != nil {
			if s.piped && s.ended != nil {
				close(s.ended)
				return
			}
			s.quit()
			return
		}
	}
}

// Ended is closed at the end of piped input (never for a terminal, whose
// end is the quit key).
func (s *Stdio) Ended() <-chan struct{} { return s.ended }

func indexByte(p []byte, c byte) int {
	for i, b := range p {
		if b == c {
			return i
		}
	}
	return -1
}

func (s *Stdio) quit() { s.once.Do(func() { close(s.done) }) }

// Input delivers typed bytes.
func (s *Stdio) Input() <-chan []byte { return s.in }

// Commands delivers the lines typed at the escape prompt (MenuKey).
func (s *Stdio) Commands() <-chan string { return s.cmds }

// Done is closed on the quit key or end of input.
func (s *Stdio) Done() <-chan struct{} { return s.done }

// Write sends the board's output to the terminal.
func (s *Stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }

// Close restores the terminal mode. It is safe to call more than once.
func (s *Stdio) Close() error {
	if s.restore != nil {
		s.restore()
		s.restore = nil
	}
	return nil
}

// Telnet bytes [F RFC 854, RFC 857 (ECHO), RFC 858 (SGA)].
const (
	telIAC  = 255
	telDONT = 254
	telDO   = 253
	telWONT = 252
	telWILL = 251
	telSB   = 250
	telSE   = 240
	telECHO = 1
	telSGA  = 3
)

// TCP is a telnet-able console: one client at a time; a second client is
// told the console is busy and disconnected, so nobody can take over a
// session. Input is read no faster than the front end takes it (Input is a
// short channel), so a flooding client is held back by TCP itself.
type TCP struct {
	ln   net.Listener
	in   chan []byte
	done chan struct{}
	mu   sync.Mutex
	conn net.Conn
	once sync.Once
	// held keeps output sent before the first client connected (the boot
	// banner), up to maxHeld bytes, so a late telnet still sees it.
	held      []byte
	connected bool
}

const maxHeld = 64 << 10

// ListenTCP listens on addr ("127.0.0.1:2323"). An IPv4 address is
// listened on over IPv4 only: 0.0.0.0 would otherwise also open every IPv6
// address of the host, more than was asked for.
func ListenTCP(addr string) (*TCP, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	t := &TCP{ln: ln, in: make(chan []byte, 16), done: make(chan struct{})}
	go t.accept()
	return t, nil
}

// BusyMessage is what a second client reads before it is disconnected.
const BusyMessage = "lbplus: the console is in use by another client; try again when it has left\r\n"

// Addr is the address the console listens on.
func (t *TCP) Addr() net.Addr { return t.ln.Addr() }

// Exposed reports whether the console listens beyond this host (any
// address but a loopback one), where anyone who can reach it may type.
func (t *TCP) Exposed() bool { return exposed(t.ln) }

// listen listens on addr; an IPv4 address over IPv4 only.
func listen(addr string) (net.Listener, error) {
	network := "tcp"
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
			network = "tcp4"
		}
	}
	return net.Listen(network, addr)
}

// exposed reports whether ln listens beyond this host.
func exposed(ln net.Listener) bool {
	a, ok := ln.Addr().(*net.TCPAddr)
	return !ok || !a.IP.IsLoopback()
}

func (t *TCP) accept() {
	for {
		c, err := t.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				fmt.Fprintln(os.Stderr, "console:", err)
			}
			t.once.Do(func() { close(t.done) })
			return
		}
		t.mu.Lock()
		if t.conn != nil {
			t.mu.Unlock()
			c.Write([]byte(BusyMessage))
			c.Close()
			continue
		}
		t.conn = c
		// Character mode: the server echoes (the monitor does) and
		// suppresses go-ahead.
		c.Write([]byte{telIAC, telWILL, telECHO, telIAC, telWILL, telSGA, telIAC, telDO, telSGA})
		if !t.connected {
			t.connected = true
			c.Write(t.held)
			t.held = nil
		}
		t.mu.Unlock()
		go t.read(c)
	}
}

func (t *TCP) read(c net.Conn) {
	var f telnetFilter
	buf := make([]byte, 256)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if p := f.filter(buf[:n]); len(p) > 0 {
				t.in <- p
			}
		}
		if err != nil {
			// The client left: the console is free for the next one.
			t.mu.Lock()
			if t.conn == c {
				t.conn = nil
			}
			t.mu.Unlock()
			c.Close()
			return
		}
	}
}

// telnetFilter strips telnet commands from the client's bytes and turns
// "CR NUL" back into CR.
type telnetFilter struct {
	state  int // 0 data, 1 after IAC, 2 option byte, 3 in SB, 4 IAC in SB
	lastCR bool
}

func (f *telnetFilter) filter(p []byte) []byte {
	out := make([]byte, 0, len(p))
	for _, b := range p {
		switch f.state {
		case 0:
			if b == telIAC {
				f.state = 1
				continue
			}
			if b == 0 && f.lastCR {
				f.lastCR = false
				continue
			}
			f.lastCR = b == '\r'
			out = append(out, b)
		case 1:
			switch {
			case b == telIAC:
				out = append(out, b)
				f.state = 0
			case b >= telWILL && b <= telDONT:
				f.state = 2
			case b == telSB:
				f.state = 3
			default:
				f.state = 0
			}
		case 2:
			f.state = 0
		case 3:
			if b == telIAC {
				f.state = 4
			}
		case 4:
			if b == telSE {
				f.state = 0
			} else {
				f.state = 3
			}
		}
	}
	return out
}

// Input delivers typed bytes.
func (t *TCP) Input() <-chan []byte { return t.in }

// Done is closed when the listener closes.
func (t *TCP) Done() <-chan struct{} { return t.done }

// Write sends the board's output to the connected client (IAC doubled).
// Before the first client connects output is held for it; after a client
// leaves, output is dropped like a terminal that is switched off.
func (t *TCP) Write(p []byte) (int, error) {
	q := make([]byte, 0, len(p))
	for _, b := range p {
		q = append(q, b)
		if b == telIAC {
			q = append(q, telIAC)
		}
	}
	t.mu.Lock()
	c := t.conn
	if !t.connected && len(t.held)+len(q) <= maxHeld {
		t.held = append(t.held, q...)
	}
	t.mu.Unlock()
	if c == nil {
		return len(p), nil
	}
	if _, err := c.Write(q); err != nil {
		t.mu.Lock()
		if t.conn == c {
			t.conn = nil
		}
		t.mu.Unlock()
	}
	return len(p), nil
}

// Close stops listening and drops the client.
func (t *TCP) Close() error {
	t.mu.Lock()
	if t.conn != nil {
		t.conn.Close()
		t.conn = nil
	}
	t.mu.Unlock()
	return t.ln.Close()
}
