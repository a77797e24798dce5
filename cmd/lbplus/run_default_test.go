package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu/console"
)

// runScript runs `lbplus run` with no arguments (at --speed max) on this
// process's stdin and stdout as pipes, answers each prompt with the next
// line of script once the output so far contains want[i], and quits after
// the last want. It returns the console output.
func runScript(t *testing.T, want, script []string) string {
	t.Helper()
	return runScriptWith(t, nil, want, script)
}

// runScriptWith is runScript with setup changing the flags (after they
// are reset to the defaults).
func runScriptWith(t *testing.T, setup func(), want, script []string) string {
	t.Helper()
	runFlags.rom, runFlags.speed, runFlags.console, runFlags.scsiID = "", "max", "stdio", 7
	runFlags.hd0, runFlags.lun1, runFlags.tape, runFlags.machine, runFlags.scsi = "", "", "", "", nil
	fdFlags = [4]string{}
	t.Cleanup(func() { runFlags.hd0, fdFlags = "", [4]string{} })
	if setup != nil {
		setup()
	}
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	defer func() { os.Stdin, os.Stdout = oldIn, oldOut }()

	var (
		mu   sync.Mutex
		seen []byte
	)
	user := make(chan struct{})
	go func() {
		defer close(user)
		buf := make([]byte, 256)
		step, from := 0, 0
		for {
			n, err := outR.Read(buf)
			mu.Lock()
			seen = append(seen, buf[:n]...)
			s := string(seen)
			mu.Unlock()
			for step < len(want) {
				at := strings.Index(s[from:], want[step])
				if at < 0 {
					break
				}
				from += at + len(want[step])
				if step < len(script) {
					inW.Write([]byte(script[step]))
				} else {
					inW.Write([]byte{console.QuitKey})
				}
				step++
			}
			if err != nil || step == len(want) {
				return
			}
		}
	}()
	require.NoError(t, runBoard(runCmd, nil))
	outW.Close()
	<-user
	inW.Close()
	mu.Lock()
	defer mu.Unlock()
	return string(seen)
}

// `lbplus run` with nothing attached boots CP/M to A> from the default
// system disk, which it makes in the data directory on first use; what a
// session saves on it is there in the next session; our programs are on
// A: and run.
func TestRunDefaultBootsCPM(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	got := runScript(t,
		[]string{"A>", "A: README   TXT : SUBMIT   COM : DUMP     COM : COPY     COM\r\nA: STAT     COM\r\nA>", "A>",
			"A: STAT     COM : HELLO    COM\r\nA>", "delete it to start again from a fresh one.\r\n", "K free of 4080K\r\n"},
		[]string{"DIR\r", "SAVE 2 HELLO.COM\r", "DIR\r", "TYPE README.TXT\r", "STAT\r"})
	assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")
	disk := filepath.Join(dir, "lbplus", DefaultDiskName)
	assert.FileExists(t, disk)
	assert.FileExists(t, disk+".toml")

	got = runScript(t, []string{"A>", "A: STAT     COM : HELLO    COM\r\nA>"}, []string{"DIR\r"})
	assert.Contains(t, got, "HELLO    COM", "the file persists")
}
