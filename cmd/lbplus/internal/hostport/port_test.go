package hostport

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTelnetFilter(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want []byte
	}{
		{"plain", []byte("abc"), []byte("abc")},
		{"CR NUL is CR", []byte("a\r\x00b"), []byte("a\rb")},
		{"CR LF kept", []byte("a\r\n"), []byte("a\r\n")},
		{"option negotiation dropped", []byte{'x', telIAC, telDO, telECHO, 'y'}, []byte("xy")},
		{"doubled IAC is data", []byte{telIAC, telIAC}, []byte{0xFF}},
		{"subnegotiation dropped", []byte{'a', telIAC, telSB, 24, 0, 'v', 't', telIAC, telSE, 'b'}, []byte("ab")},
		{"two-byte command dropped", []byte{'a', telIAC, 241, 'b'}, []byte("ab")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f telnetFilter
			// Byte by byte and whole must agree: state crosses reads.
			var split []byte
			for _, b := range tt.in {
				split = append(split, f.filter([]byte{b})...)
			}
			var g telnetFilter
			assert.Equal(t, tt.want, g.filter(tt.in))
			assert.Equal(t, tt.want, split)
		})
	}
}

func TestTCPConsoleRoundTrip(t *testing.T) {
	c, err := ListenTCP("127.0.0.1:0")
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("boot\r\n")) // before anyone connects: held
	require.NoError(t, err)
	conn, err := net.Dial("tcp", c.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	r := bufio.NewReader(conn)
	nego := make([]byte, 9)
	_, err = io.ReadFull(r, nego)
	require.NoError(t, err)
	assert.Equal(t, []byte{telIAC, telWILL, telECHO, telIAC, telWILL, telSGA, telIAC, telDO, telSGA}, nego)
	banner := make([]byte, 6)
	_, err = io.ReadFull(r, banner)
	require.NoError(t, err)
	assert.Equal(t, "boot\r\n", string(banner))

	_, err = conn.Write([]byte{'h', 'i', telIAC, telDO, telSGA, '\r', 0})
	require.NoError(t, err)
	var got []byte
	deadline := time.After(5 * time.Second)
	for len(got) < 3 {
		select {
		case p := <-c.Input():
			got = append(got, p...)
		case <-deadline:
			t.Fatalf("input not received, got %q", got)
		}
	}
	assert.Equal(t, []byte("hi\r"), got)

	_, err = c.Write([]byte{'o', 'k', 0xFF})
	require.NoError(t, err)
	out := make([]byte, 4)
	_, err = io.ReadFull(r, out)
	require.NoError(t, err)
	assert.Equal(t, []byte{'o', 'k', 0xFF, 0xFF}, out)
}

func TestOpenRejectsUnknownConsole(t *testing.T) {
	_, err := Open("serial:/dev/ttyS0")
	assert.ErrorContains(t, err, "want stdio, tcp:PORT or tcp:HOST:PORT")
}

// Ctrl-\ opens the escape prompt: the line up to Return goes to Commands,
// bytes before and after it to the board; Ctrl-] still quits.
func TestStdioEscapePrompt(t *testing.T) {
	r, w := io.Pipe()
	var echo bytes.Buffer
	s := &Stdio{in: make(chan []byte, 16), cmds: make(chan string, 4), done: make(chan struct{}), echo: &echo}
	go s.read(r)
	w.Write([]byte("ab\x1ceject 0\rcd"))
	assert.Equal(t, []byte("ab"), <-s.in)
	assert.Equal(t, "eject 0", <-s.cmds)
	assert.Equal(t, []byte("cd"), <-s.in)
	w.Write([]byte("\x1cins\x7fsert 1 a.imd\n"))
	assert.Equal(t, "insert 1 a.imd", <-s.cmds)
	w.Write([]byte{QuitKey})
	<-s.Done()
	assert.Contains(t, echo.String(), "lbplus> ")
}

// TestTCPAddresses: a bare port listens on the loopback address only; any
// other address must be written out, and is reported as exposed.
func TestTCPAddresses(t *testing.T) {
	for _, c := range []struct{ spec, addr, err string }{
		{"tcp:2323", "127.0.0.1:2323", ""},
		{"tcp:0.0.0.0:2323", "0.0.0.0:2323", ""},
		{"tcp:[::1]:2323", "[::1]:2323", ""},
		{"tcp:localhost:0", "localhost:0", ""},
		{"tcp:x", "", `port "x" is not a number`},
		{"tcp:99999", "", `port "99999" is not a number`},
		{"tcp:1.2.3.4", "", `port "1.2.3.4" is not a number`},
		{"tcp:a:b:c", "", "too many colons"},
	} {
		addr, err := TCPAddr(c.spec)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.spec)
			continue
		}
		require.NoError(t, err, c.spec)
		assert.Equal(t, c.addr, addr, c.spec)
	}
	p, err := Open("tcp:0")
	require.NoError(t, err)
	defer p.Close()
	tc := p.(*TCP)
	assert.True(t, tc.Addr().(*net.TCPAddr).IP.IsLoopback(), "tcp:PORT is loopback only")
	assert.False(t, tc.Exposed())
	q, err := Open("tcp:0.0.0.0:0")
	require.NoError(t, err)
	defer q.Close()
	assert.True(t, q.(*TCP).Exposed())
}

// TestSecondClientRefused: while a client is connected a second one reads
// the busy message and is disconnected; the first keeps the session, and
// once it leaves the next client is served.
func TestSecondClientRefused(t *testing.T) {
	c, err := ListenTCP("127.0.0.1:0")
	require.NoError(t, err)
	defer c.Close()
	first, err := net.Dial("tcp", c.Addr().String())
	require.NoError(t, err)
	nego := make([]byte, 9)
	_, err = io.ReadFull(first, nego)
	require.NoError(t, err)

	second, err := net.Dial("tcp", c.Addr().String())
	require.NoError(t, err)
	second.SetReadDeadline(time.Now().Add(5 * time.Second))
	msg, err := io.ReadAll(second)
	require.NoError(t, err)
	assert.Equal(t, BusyMessage, string(msg))

	_, err = first.Write([]byte("still mine"))
	require.NoError(t, err)
	select {
	case p := <-c.Input():
		assert.Equal(t, "still mine", string(p))
	case <-time.After(5 * time.Second):
		t.Fatal("first client's input lost")
	}
	first.Close()
	require.Eventually(t, func() bool {
		third, err := net.Dial("tcp", c.Addr().String())
		if err != nil {
			return false
		}
		defer third.Close()
		third.SetReadDeadline(time.Now().Add(2 * time.Second))
		b := make([]byte, 3)
		_, err = io.ReadFull(third, b)
		return err == nil && b[0] == telIAC
	}, 5*time.Second, 50*time.Millisecond, "the console is free again")
}

// TestPipedInputEnds: the end of piped input closes Ended, not Done, so the
// front end can let the board answer what was piped.
func TestPipedInputEnds(t *testing.T) {
	r, w := io.Pipe()
	s := &Stdio{in: make(chan []byte, 16), cmds: make(chan string, 4), done: make(chan struct{}),
		echo: io.Discard, piped: true, ended: make(chan struct{})}
	go s.read(r)
	w.Write([]byte("H\r"))
	assert.Equal(t, []byte("H\r"), <-s.in)
	w.Close()
	select {
	case <-s.Ended():
	case <-time.After(5 * time.Second):
		t.Fatal("Ended not closed at the end of input")
	}
	select {
	case <-s.Done():
		t.Fatal("end of piped input is not a quit")
	default:
	}
}

// TestTCPIPv4AddressStaysIPv4: tcp:0.0.0.0:PORT listens on the IPv4
// addresses only, not on every IPv6 address too (Go's dual-stack "[::]").
func TestTCPIPv4AddressStaysIPv4(t *testing.T) {
	p, err := Open("tcp:0.0.0.0:0")
	require.NoError(t, err)
	defer p.Close()
	a := p.(*TCP).Addr().(*net.TCPAddr)
	assert.Equal(t, "0.0.0.0", a.IP.String())
}
