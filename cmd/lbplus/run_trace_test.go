package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/bootdemo"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// vcdRisingEdges counts 0->1 changes of the wire named name in a VCD file.
func vcdRisingEdges(t *testing.T, vcd []byte, name string) int {
	t.Helper()
	id := ""
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(vcd))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 5 && f[0] == "$var" && f[4] == name:
			id = f[3]
		case id != "" && len(f) == 1 && f[0] == "1"+id:
			n++
		}
	}
	require.NotEmpty(t, id, "VCD declares %s", name)
	return n
}

// `lbplus run --hd0 FILE --vcd V --trace T`, watched as a user would: the
// boot ROM boots the demo block from the ACB-4000, and both trace files
// are complete when run ends (Ctrl-]), with one REQ per byte the boot moved.
func TestRunBootsHD0WithBusTraces(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "hd0.img")
	bootDemoDisk(t, img)

	vcd, txt := filepath.Join(dir, "bus.vcd"), filepath.Join(dir, "bus.txt")
	// The user waits for the boot block's message and the monitor prompt
	// after it, then quits.
	got := runScriptWith(t, []string{"--hd0", img, "--vcd", vcd, "--trace", txt}, []string{bootdemo.Message + "0\r\n> "}, nil)
	assert.Contains(t, got, "Any key: monitor\r\n"+bootdemo.Message+"0\r\n")

	// One REQ per byte: 6 CDB bytes, 512 data bytes, status and message.
	const bytesMoved = 6 + 512 + 1 + 1
	v, err := os.ReadFile(vcd)
	require.NoError(t, err)
	assert.Equal(t, bytesMoved, vcdRisingEdges(t, v, "REQ"))
	assert.Equal(t, bytesMoved, vcdRisingEdges(t, v, "ACK"))
	assert.Regexp(t, `#\d+\n$`, string(v), "ends with the closing timestamp")
	tr, err := os.ReadFile(txt)
	require.NoError(t, err)
	assert.Equal(t, bytesMoved, strings.Count(string(tr), "+REQ"))
	assert.Contains(t, string(tr), "DATA IN")
}

func TestRunTraceBadFile(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"no dir": {[]string{"--vcd", filepath.Join(dir, "none", "x.vcd")}, "none/x.vcd"},
		"same":   {[]string{"--vcd", filepath.Join(dir, "a"), "--trace", filepath.Join(dir, "a")}, "--vcd and --trace: both write"},
	} {
		_, _, err := execute(append([]string{"run", "--speed", "max"}, c.args...)...)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
	}
}

// A trace that cannot be written (a full disk) stops the machine at the
// first failed write with one error naming the flag and the file; the end
// of the run reports that same error, not a second one.
func TestRunTraceWriteErrorStopsAtOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	disk, err := defaultSystemDisk(io.Discard)
	require.NoError(t, err)
	for _, flag := range []string{"--trace", "--vcd"} {
		_, s := runSessionFor(t, flag, "/dev/full")
		rom, err := monitor.Image()
		require.NoError(t, err)
		cfg := emu.DefaultConfig(rom)
		cfg.SCSI = []scsidev.Spec{{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}}}
		b, err := emu.New(cfg)
		require.NoError(t, err)
		require.NoError(t, s.attachBusTrace(b))
		// CP/M's boot from the disk moves 16 KB over the bus: the
		// trace's buffer fills and its first write fails.
		err = nil
		var when sched.Time
		for i := 0; i < 6000 && err == nil; i++ {
			err = b.RunFor(10 * sched.Millisecond)
			when = b.Now()
		}
		want := flag + " /dev/full: write /dev/full: no space left on device"
		require.EqualError(t, err, want)
		assert.Less(t, when, 30*sched.Second, "stopped when the write failed, during the boot")
		assert.EqualError(t, b.RunFor(sched.Millisecond), want, "the machine stays stopped")
		var exit error
		s.exitHooks(&exit)
		assert.EqualError(t, exit, want, "the same error at the end, once")
		b.Close()
	}
}
