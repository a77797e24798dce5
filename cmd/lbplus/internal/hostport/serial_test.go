package hostport

import (
	"io"
	"net"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recv collects n bytes from in (a guard against a hang, not a timing).
func recv(t *testing.T, in <-chan []byte, n int) []byte {
	t.Helper()
	var got []byte
	deadline := time.After(10 * time.Second)
	for len(got) < n {
		select {
		case p := <-in:
			got = append(got, p...)
		case <-deadline:
			t.Fatalf("got %q of %d bytes", got, n)
		}
	}
	return got
}

// Every byte value passes the raw TCP end both ways unchanged (no telnet
// escapes); a second client is refused while the first is connected.
func TestRawSerialTCP(t *testing.T) {
	s, err := OpenSerial("--serial", "tcp:0")
	require.NoError(t, err)
	defer s.Close()
	r := s.(*Raw)
	assert.True(t, r.Addr().(*net.TCPAddr).IP.IsLoopback())
	assert.False(t, r.Exposed())
	c, err := net.Dial("tcp", r.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	_, err = c.Write(all)
	require.NoError(t, err)
	assert.Equal(t, all, recv(t, s.Input(), 256))
	s.Write(all) // the client is registered: its bytes came in
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	back := make([]byte, 256)
	_, err = io.ReadFull(c, back)
	require.NoError(t, err)
	assert.Equal(t, all, back)

	c2, err := net.Dial("tcp", r.Addr().String())
	require.NoError(t, err)
	c2.SetReadDeadline(time.Now().Add(10 * time.Second))
	msg, err := io.ReadAll(c2)
	require.NoError(t, err)
	assert.Equal(t, BusySerial, string(msg))
}

func TestSerialSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		"tcp:x":      `--serial "tcp:x": port "x" is not a number 0-65535`,
		"tcp:a:b:c":  "too many colons",
		"serial:COM": `--serial "serial:COM": want pty, tcp:PORT or tcp:HOST:PORT`,
	} {
		_, err := OpenSerial("--serial", spec)
		assert.ErrorContains(t, err, want, spec)
	}
	assert.NoError(t, CheckSerial("--serial", "pty"))
	assert.NoError(t, CheckSerial("--serial", "tcp:0.0.0.0:2324"))
}

// A program on the pseudo-terminal's slave side talks to the board in
// raw mode (8 bits, no echo, CR and LF as they are); before any program
// opens it, the board's output goes nowhere and nothing blocks.
func TestPtySerial(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pseudo-terminals are made on Linux only")
	}
	p, err := OpenPty()
	require.NoError(t, err)
	defer p.Close()
	assert.Regexp(t, `^/dev/pts/\d+$`, p.Name())
	for i := 0; i < 4096; i++ {
		p.Write([]byte("before anyone listens\r\n"))
	}
	slave, err := os.OpenFile(p.Name(), os.O_RDWR, 0)
	require.NoError(t, err)
	defer slave.Close()
	msg := []byte{'\r', '\n', 0x03, 0x11, 0x13, 0x7F, 0x00, 0xFF, 'C'}
	_, err = slave.Write(msg)
	require.NoError(t, err)
	assert.Equal(t, msg, recv(t, p.Input(), len(msg)), "raw: nothing translated or eaten")

	// What the board sent before is in the terminal's buffer or dropped;
	// what it sends now arrives.
	buf := make([]byte, 4096)
	slave.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	for {
		if _, err := slave.Read(buf); err != nil {
			break
		}
	}
	p.Write(msg)
	slave.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, len(msg))
	_, err = io.ReadFull(slave, got)
	require.NoError(t, err)
	assert.Equal(t, msg, got)
}
