package console

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
	assert.ErrorContains(t, err, "want stdio or tcp:PORT")
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
