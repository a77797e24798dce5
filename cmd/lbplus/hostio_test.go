package main

import (
	"bytes"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/cmd/lbplus/internal/hostport"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// hostRig is the default system disk booted to A> with --serial and
// --printer attached by openHostIO and pumped as `lbplus run` pumps them
// (hostIO.pump between runs of the board).
type hostRig struct {
	b    *emu.Board
	h    *hostIO
	tr   *console.Transcript
	ty   *console.Typist
	disk string
	// paced: simulated time is kept from running ahead of the host's, as
	// --speed realtime does, for a host program with its own time-outs.
	paced     bool
	wall      time.Time
	simAt     sched.Time
	pumpErr   error
	closeOnce bool
}

func (r *hostRig) ConsoleInput(p []byte) { r.b.ConsoleInput(p) }
func (r *hostRig) ConsoleQueued() int    { return r.b.ConsoleQueued() }

// RunUntil runs the board, pumping the host side at least every
// millisecond of simulated time (emu.CondQuantum).
func (r *hostRig) RunUntil(cond func() bool, limit sched.Time) (bool, error) {
	ok, err := r.b.RunUntil(func() bool {
		if r.pumpErr = r.h.pump(r.b); r.pumpErr != nil {
			return true
		}
		if r.paced {
			ahead := time.Duration((r.b.Now()-r.simAt)/sched.Nanosecond) - time.Since(r.wall)
			if ahead > 0 {
				time.Sleep(ahead)
			}
		}
		return cond()
	}, limit)
	if err == nil {
		err = r.pumpErr
	}
	return ok, err
}

// pace runs the board at its real speed from now on.
func (r *hostRig) pace() { r.paced, r.wall, r.simAt = true, time.Now(), r.b.Now() }

// newHostRig makes the default system disk with files on A:, then boots
// it with cfg.Serial and cfg.Printer set to serial and printer.
func newHostRig(t *testing.T, serial, printer string, files map[string][]byte) *hostRig {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	disk, err := defaultSystemDisk(io.Discard)
	require.NoError(t, err)
	dir := t.TempDir()
	var paths []string
	for name, data := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		paths = append(paths, p)
	}
	if len(paths) > 0 {
		require.NoError(t, cpmOptions{}.put(io.Discard, disk, paths))
	}
	rom, err := monitor.Image()
	require.NoError(t, err)
	cfg := emu.DefaultConfig(rom)
	cfg.SCSI = []scsidev.Spec{{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}}}
	cfg.Serial, cfg.Printer = serial, printer
	r := &hostRig{tr: &console.Transcript{}, disk: disk}
	cfg.ConsoleOut = r.tr.Out
	r.h, err = openHostIO(&cfg, io.Discard)
	require.NoError(t, err)
	t.Cleanup(func() { r.h.Close() })
	r.b, err = emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.close() })
	r.ty = &console.Typist{B: r, T: r.tr, Limit: 60 * sched.Second}
	require.NoError(t, r.ty.WaitFor("A>"))
	return r
}

func (r *hostRig) close() {
	if !r.closeOnce {
		r.closeOnce = true
		r.b.Close()
	}
}

// file stops the board and reads A:name from its disk.
func (r *hostRig) file(t *testing.T, name string) []byte {
	t.Helper()
	r.close()
	fs, done, err := cpmOptions{}.open(r.disk, true)
	require.NoError(t, err)
	defer done()
	data, err := fs.Read(0, name)
	require.NoError(t, err)
	return data
}

// hostProgram runs a host XMODEM program on the serial end (the pty's
// terminal, or a connection to the TCP end through pipes) while the board
// runs until the console shows want; it returns the simulated time taken.
func (r *hostRig) hostProgram(t *testing.T, dir, want string, args ...string) sched.Time {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	switch end := r.h.serial.(type) {
	case *hostport.Pty:
		line, err := os.OpenFile(end.Name(), os.O_RDWR, 0)
		require.NoError(t, err)
		defer line.Close()
		cmd.Stdin, cmd.Stdout = line, line
	case *hostport.Raw:
		conn, err := net.Dial("tcp", end.Addr().String())
		require.NoError(t, err)
		defer conn.Close()
		in, err := cmd.StdinPipe()
		require.NoError(t, err)
		go io.Copy(in, conn)
		cmd.Stdout = conn
	}
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	start := r.b.Now()
	r.pace()
	r.ty.Limit = 300 * sched.Second
	err := r.ty.WaitFor(want)
	took := r.b.Now() - start
	r.paced = false
	if err != nil {
		cmd.Process.Kill()
	}
	require.NoError(t, err, "%s: %s", args[0], stderr.String())
	select {
	case err = <-exited:
	case <-time.After(60 * time.Second): // a guard against a hang, not a timing
		cmd.Process.Kill()
		err = <-exited
	}
	require.NoError(t, err, "%s: %s", args[0], stderr.String())
	return took
}

// testData is n reproducible bytes that do not end in ^Z.
func testData(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	if b[n-1] == 0x1A {
		b[n-1] = 0
	}
	return b
}

// padded is data with ^Z up to a whole 128-byte record, as CP/M keeps it.
func padded(data []byte) []byte {
	out := append([]byte(nil), data...)
	for len(out)%128 != 0 {
		out = append(out, 0x1A)
	}
	return out
}

// Debian's lrzsz sends to XFER R over the pty: 1K blocks (sx -k) and
// 128-byte blocks (sx), both with CRC. The file on the disk is the
// host's, padded with ^Z to a whole record; the sender's padding beyond
// that record is dropped.
func TestXferReceivesFromSx(t *testing.T) {
	needTool(t, "sx")
	for _, c := range []struct {
		name string
		args []string
		size int
	}{
		{"1K blocks", []string{"sx", "-k"}, 5000},
		{"128-byte blocks", []string{"sx"}, 1000},
		{"whole records", []string{"sx", "-k"}, 2048},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := testData(c.size, int64(c.size))
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "in.bin"), data, 0o644))
			r := newHostRig(t, "pty", "", nil)
			require.NoError(t, r.ty.Type("XFER R IN.BIN\r"))
			require.NoError(t, r.ty.WaitFor("start the XMODEM sender"))
			took := r.hostProgram(t, dir, " records written\r\n", append(c.args, "in.bin")...)
			assert.Contains(t, r.tr.String(), "XFER: received ")
			t.Logf("%d bytes in %v of emulated time: %.0f bytes/s", len(data), took, float64(len(data))/took.Seconds())
			assert.Equal(t, padded(data), r.file(t, "IN.BIN"))
		})
	}
}

// XFER S sends to Debian's lrzsz rx over the TCP end (rx's standard
// input and output are pipes to a connection; on a pty, rx discards its
// own last ACK when it flushes the terminal as it exits, docs/CPM.md): with CRC (rx -c: 1K
// blocks, then 128-byte ones for the last records) and with the checksum
// (rx: 128-byte blocks). A CP/M file is whole records, so the host's
// copy is byte for byte the file.
func TestXferSendsToRx(t *testing.T) {
	needTool(t, "rx")
	for _, c := range []struct {
		name   string
		args   []string
		size   int
		blocks string
	}{
		{"CRC", []string{"rx", "-c"}, 23 * 128, "sent 9 blocks"}, // two 1K, seven 128
		{"checksum", []string{"rx"}, 5 * 128, "sent 5 blocks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := testData(c.size, int64(c.size))
			r := newHostRig(t, "tcp:0", "", map[string][]byte{"out.bin": data})
			require.NoError(t, r.ty.Type("XFER S OUT.BIN\r"))
			require.NoError(t, r.ty.WaitFor("start the XMODEM receiver"))
			dir := t.TempDir()
			took := r.hostProgram(t, dir, " blocks\r\n", append(c.args, "got.bin")...)
			assert.Contains(t, r.tr.String(), "XFER: "+c.blocks)
			t.Logf("%d bytes in %v of emulated time: %.0f bytes/s", len(data), took, float64(len(data))/took.Seconds())
			got, err := os.ReadFile(filepath.Join(dir, "got.bin"))
			require.NoError(t, err)
			assert.Equal(t, data, got)
		})
	}
}

// COPY LST:=FILE prints through the BIOS's LST: (the parallel port by the
// default IOBYTE) to --printer's file, which has the text as it comes;
// the file is appended to, never replaced.
func TestPrinterFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "printer.txt")
	require.NoError(t, os.WriteFile(out, []byte("before\r\n"), 0o644))
	text := "Printed on the Little Board/PLUS.\r\nSecond line.\r\n"
	r := newHostRig(t, "", out, map[string][]byte{"note.txt": []byte(text + "\x1a")})
	require.NoError(t, r.ty.Type("COPY LST:=NOTE.TXT\r"))
	require.NoError(t, r.ty.WaitFor("A>"))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "before\r\n"+text, string(got))
}

// --serial FILE gets what the board sends on DART B: here PUN: (DART B by
// the default IOBYTE) through COPY.
func TestSerialFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "serial.out")
	text := "to the punch\r\n"
	r := newHostRig(t, out, "", map[string][]byte{"p.txt": []byte(text + "\x1a")})
	require.NoError(t, r.ty.Type("COPY PUN:=P.TXT\r"))
	require.NoError(t, r.ty.WaitFor("A>"))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, text, string(got))
}

// crc16 is XMODEM's CRC-16: polynomial 1021h, initial 0 (docs/CPM.md).
func crc16(p []byte) uint16 {
	var c uint16
	for _, b := range p {
		c ^= uint16(b) << 8
		for i := 0; i < 8; i++ {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// A sender of our own over the TCP end, for what lrzsz does not do: a
// 1K last block padded with whole records of ^Z (XFER drops them), the
// same block sent twice (ACKed, stored once) and a damaged block (NAKed,
// then taken when sent again).
func TestXferReceivePaddingAndRepeats(t *testing.T) {
	r := newHostRig(t, "tcp:0", "", nil)
	conn, err := net.Dial("tcp", r.h.serial.(*hostport.Raw).Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, r.ty.Type("XFER R PAD.BIN\r"))
	require.NoError(t, r.ty.WaitFor("start the XMODEM sender"))

	data := testData(1024+600, 7)
	block := func(n byte, p []byte) []byte {
		pad := append([]byte(nil), p...)
		for len(pad) < 1024 {
			pad = append(pad, 0x1A)
		}
		c := crc16(pad)
		return append(append([]byte{0x02, n, ^n}, pad...), byte(c>>8), byte(c))
	}
	var answers []byte
	sender := make(chan error, 1)
	go func() {
		one := make([]byte, 1)
		read := func() byte {
			if _, err := io.ReadFull(conn, one); err != nil {
				return 0
			}
			answers = append(answers, one[0])
			return one[0]
		}
		for read() != 'C' {
		}
		b1, b2 := block(1, data[:1024]), block(2, data[1024:])
		bad := append([]byte(nil), b2...)
		bad[100] ^= 0xFF
		for _, p := range [][]byte{b1, b1, bad, b2, {0x04}} {
			conn.Write(p)
			read()
		}
		sender <- nil
	}()
	r.ty.Limit = 120 * sched.Second
	require.NoError(t, r.ty.WaitFor(" records written\r\n"))
	<-sender
	assert.Equal(t, []byte{'C', 0x06, 0x06, 0x15, 0x06, 0x06}, answers, "C, then NAK for the damaged block, ACK for the rest")
	assert.Contains(t, r.tr.String(), "received 2 blocks, 13 records written")
	assert.Equal(t, padded(data), r.file(t, "PAD.BIN"))
}
