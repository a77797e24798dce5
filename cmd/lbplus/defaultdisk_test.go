package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/cmd/lbplus/internal/hostport"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
	"github.com/lbplus/lbplus/sysdisk"
)

// runScript runs `lbplus run` with no arguments (at --speed max) on this
// process's stdin and stdout as pipes, answers each prompt with the next
// line of script once the output so far contains want[i], and quits after
// the last want. It returns the console output.
func runScript(t *testing.T, want, script []string) string {
	t.Helper()
	return runScriptWith(t, nil, want, script)
}

// runScriptWith is runScript with more flags: `lbplus run --speed max
// ARGS`.
func runScriptWith(t *testing.T, args, want, script []string) string {
	t.Helper()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	defer func() { os.Stdin, os.Stdout = oldIn, oldOut }()

	var (
		mu      sync.Mutex
		seen    []byte
		waiting = -1 // the want not seen yet, -1 once all are
	)
	// A want that never comes ends the run (as the user's quit key would)
	// instead of hanging the test.
	watchdog := time.AfterFunc(scriptTimeout, func() { inW.Write([]byte{hostport.QuitKey}) })
	defer watchdog.Stop()
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
				mu.Lock()
				waiting = step
				mu.Unlock()
				at := strings.Index(s[from:], want[step])
				if at < 0 {
					break
				}
				from += at + len(want[step])
				if step < len(script) {
					inW.Write([]byte(script[step]))
				} else {
					inW.Write([]byte{hostport.QuitKey})
				}
				step++
			}
			if step == len(want) {
				mu.Lock()
				waiting = -1
				mu.Unlock()
			}
			if err != nil || step == len(want) {
				return
			}
		}
	}()
	_, _, err = execute(append([]string{"run", "--speed", "max"}, args...)...)
	require.NoError(t, err)
	outW.Close()
	<-user
	inW.Close()
	mu.Lock()
	defer mu.Unlock()
	if waiting >= 0 {
		t.Errorf("no %q on the console after %v; it shows:\n%s", want[waiting], scriptTimeout, seen)
	}
	return string(seen)
}

// scriptTimeout bounds a scripted run in host time (at --speed max a
// session takes seconds).
const scriptTimeout = 2 * time.Minute

// `lbplus run` with nothing attached boots CP/M to A> from the default
// system disk, which it makes in the data directory on first use; what a
// session saves on it is there in the next session; our programs are on
// A: and run.
func TestRunDefaultBootsCPM(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	got := runScript(t,
		[]string{"A>", "A: README   TXT : SUBMIT   COM : DUMP     COM : COPY     COM\r\nA: STAT     COM : FORMAT   COM : EDIT     COM : XFER     COM\r\nA: BACKUP   COM : RESTORE  COM\r\nA>", "A>",
			"A: STAT     COM : FORMAT   COM : EDIT     COM : XFER     COM\r\nA: BACKUP   COM : RESTORE  COM : HELLO    COM\r\nA>", "delete it to start again from a fresh one.\r\n", "K free of 4080K\r\n"},
		[]string{"DIR\r", "SAVE 2 HELLO.COM\r", "DIR\r", "TYPE README.TXT\r", "STAT\r"})
	assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")
	disk := filepath.Join(dir, "lbplus", DefaultDiskName)
	assert.FileExists(t, disk)
	assert.FileExists(t, disk+".toml")

	got = runScript(t, []string{"A>", "RESTORE  COM : HELLO    COM\r\nA>"}, []string{"DIR\r"})
	assert.Contains(t, got, "HELLO    COM", "the file persists")

	// Deleting the image (as the README says) starts fresh; the old
	// sidecar left behind is replaced.
	require.NoError(t, os.Remove(disk))
	got = runScript(t, []string{"A>", "RESTORE  COM\r\nA>"}, []string{"DIR\r"})
	assert.NotContains(t, got, "HELLO", "a fresh disk")
	assert.FileExists(t, disk)
}

// A session on `lbplus run` with no arguments, typed through the emulated
// DART at the BIOS's 9600 baud: SAVE, REN, ERA, DIR, TYPE and USER in the
// first run; in the second, SUBMIT (A:SUBMIT.COM of the default disk) runs
// a batch put on the disk from the host, with its parameter substituted.
func TestRunDefaultSession(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	// Each command line is echoed with its CR; the CCP then starts a new
	// line for what the command prints and for the next prompt.
	script := []struct{ line, want string }{
		{"SAVE 4 PROG.COM", "A>"},
		{"REN NEW.COM=PROG.COM", "A>"},
		{"DIR *.COM", "A: SUBMIT   COM : DUMP     COM : COPY     COM : STAT     COM\r\nA: FORMAT   COM : EDIT     COM : XFER     COM : BACKUP   COM\r\nA: RESTORE  COM : NEW      COM\r\nA>"},
		{"ERA NEW.COM", "A>"},
		{"DIR NEW.COM", "NO FILE\r\nA>"},
		{"USER 5", "A>"},
		{"SAVE 1 U5.COM", "A>"},
		{"DIR", "A: U5       COM\r\nA>"},
		{"USER 0", "A>"},
		{"DIR U5.COM", "NO FILE\r\nA>"},
		{"TYPE README.TXT", strings.ReplaceAll(sysdisk.Readme, "\n", "\r\n") + "\r\nA>"},
	}
	want, lines := []string{"A>"}, []string(nil)
	for _, s := range script {
		lines = append(lines, s.line+"\r")
		want = append(want, s.line+"\r\r\n"+s.want)
	}
	got := runScript(t, want, lines)
	assert.NotContains(t, got, "?\r\n", "the CCP understood every command")

	dir := t.TempDir()
	for name, text := range map[string]string{
		"test.sub": "TYPE $1\r\nERA $1\r\nDIR $1\r\n\x1a",
		"note.txt": "A note for the batch.\r\n\x1a",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	disk := filepath.Join(os.Getenv("XDG_DATA_HOME"), "lbplus", DefaultDiskName)
	require.NoError(t, cpmOptions{}.put(io.Discard, disk, []string{filepath.Join(dir, "test.sub"), filepath.Join(dir, "note.txt")}))

	got = runScript(t,
		[]string{"A>", "A>TYPE NOTE.TXT\r\nA note for the batch.\r\n\r\nA>ERA NOTE.TXT\r\nA>DIR NOTE.TXT\r\nNO FILE\r\nA>",
			"DIR *.SUB\r\r\nA: TEST     SUB\r\nA>"},
		[]string{"SUBMIT TEST NOTE.TXT\r", "DIR *.SUB\r"})
	assert.NotContains(t, got, "$$$", "the batch file is gone once it has run")
}

// lbplus run --tape FILE alone boots the default system disk with the tape
// beside it (BACKUP and RESTORE on its A: need both); a disk of the
// user's, hard or floppy, replaces the default.
func TestRunTapeJoinsTheDefaultDisk(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	tape := filepath.Join(t.TempDir(), "t.tape")
	require.NoError(t, mcd403.Create(tape, 3))
	cfg, err := runConfigFor(t, "--tape", tape)
	require.NoError(t, err)
	disk := filepath.Join(os.Getenv("XDG_DATA_HOME"), "lbplus", DefaultDiskName)
	assert.ElementsMatch(t, []scsidev.Spec{
		{ID: emu.TapeID, Type: "mcd403", Images: []string{tape}},
		{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}},
	}, cfg.SCSI)

	fd := filepath.Join(t.TempDir(), "f.imd")
	require.NoError(t, floppyCreate(io.Discard, fd, "amp2", 0, systemFlags{}, stamp))
	cfg, err = runConfigFor(t, "--tape", tape, "--fd0", fd)
	require.NoError(t, err)
	assert.ElementsMatch(t, []scsidev.Spec{
		{ID: emu.TapeID, Type: "mcd403", Images: []string{tape}},
		{ID: emu.HD0ID, Type: "acb4000", Images: []string{disk}},
	}, cfg.SCSI, "a floppy of the user's keeps the default disk")
}
