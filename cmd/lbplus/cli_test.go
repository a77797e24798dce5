package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/cmd/lbplus/internal/hostport"
	"github.com/lbplus/lbplus/devices/acb4000"
)

// The scripted bad-input run: the real binary, built once, with every kind
// of bad input a user can give and the README's examples with one argument
// corrupted. Each must print one clear line on stderr naming the
// problem, exit non-zero, leave no file behind and change none, and never
// panic or hang.

var cliBuild struct {
	once sync.Once
	path string
	err  error
}

// lbplusBinary builds cmd/lbplus once for every test of the package that
// needs the real binary.
func lbplusBinary(t *testing.T) string {
	t.Helper()
	cliBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "lbplus-cli-")
		if err != nil {
			cliBuild.err = err
			return
		}
		cliBuild.path = filepath.Join(dir, "lbplus")
		out, err := exec.Command("go", "build", "-o", cliBuild.path, ".").CombinedOutput()
		if err != nil {
			cliBuild.err = errors.New(string(out))
		}
	})
	require.NoError(t, cliBuild.err)
	return cliBuild.path
}

type cliResult struct {
	stdout, stderr string
	code           int
	timedOut       bool
}

// runCLI runs the binary in dir with a private HOME and scratch folder,
// stdin from stdin, and kills it after limit.
func runCLI(t *testing.T, dir, stdin string, limit time.Duration, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, lbplusBinary(t), args...)
	cmd.Dir = dir
	home := filepath.Join(dir, "..", "home")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"LBPLUS_SCRATCH="+filepath.Join(dir, "..", "scratch"))
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := cliResult{stdout: out.String(), stderr: errb.String(), timedOut: ctx.Err() != nil}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return r
}

// snapshot lists dir's entries with size and modification time, so a case
// that creates, removes or writes any file shows.
func snapshot(t *testing.T, dirs ...string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil {
				return nil
			}
			if info.Mode().IsRegular() {
				out = append(out, fmt.Sprint(p, " ", info.ModTime(), " ", info.Size()))
			} else {
				out = append(out, p+" "+info.Mode().String())
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

func TestCLIBadInput(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	for _, d := range []string{dir, filepath.Join(root, "home"), filepath.Join(root, "scratch")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	bin := lbplusBinary(t)
	for _, args := range [][]string{{"disk", "create", "d.img"}, {"disk", "create", "locked.img"}, {"tape", "create", "t.tape"},
		{"disk", "create", "--system", "sys.img"}} {
		mk := exec.Command(bin, args...)
		mk.Dir = root
		out, err := mk.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	for _, f := range []string{"d.img", "d.img.toml", "locked.img", "locked.img.toml", "t.tape", "t.tape.toml", "sys.img", "sys.img.toml"} {
		require.NoError(t, os.Rename(filepath.Join(root, f), filepath.Join(dir, f)))
	}
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rept.asm"), []byte(" rept 65535\n rept 65535\n rept 65535\n endm\n endm\n endm\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "incbin.asm"), []byte(" incbin \"pipe\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "incdir.asm"), []byte(" incbin \"sub\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	// A 3 GB file that takes no room (sparse): bounded readers refuse it
	// by its size instead of reading it.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.bin"), nil, 0o644))
	require.NoError(t, os.Truncate(filepath.Join(dir, "big.bin"), 3<<30))
	// Another emulator holds locked.img.
	held, err := acb4000.Open(filepath.Join(dir, "locked.img"), false)
	require.NoError(t, err)
	defer held.Close()

	cases := []struct {
		args []string
		want string
	}{
		// Item 2: no output may be an input, a sidecar, an image or another output.
		{[]string{"run", "--hd0", "d.img", "--vcd", "d.img"}, "--vcd d.img: is also an input"},
		{[]string{"run", "--hd0", "d.img", "--trace", "d.img"}, "--trace d.img: is also an input"},
		{[]string{"run", "--hd0", "d.img", "--trace", "d.img.toml"}, "is the sidecar of input d.img"},
		{[]string{"run", "--hd0", "d.img", "--vcd", "t.tape"}, "is a disk or tape image"},
		{[]string{"run", "--hd0", "d.img", "--vcd", "locked.img"}, "locked by a running emulator"},
		{[]string{"run", "--hd0", "d.img", "--vcd", "x.vcd", "--trace", "x.vcd"}, "both write x.vcd"},
		{[]string{"run", "--hd0", "d.img", "--save-state", "d.img"}, "--save-state d.img: is also an input"},
		{[]string{"run", "--save-state", "t.tape.toml"}, "is the sidecar of image t.tape"},
		{[]string{"run", "--save-state", "sub"}, "--save-state sub: is a directory"},
		{[]string{"run", "--save-state", "nodir/s.state"}, "folder nodir does not exist"},
		{[]string{"run", "--hd0", "d.img", "--load-state", "hello.txt", "--trace", "hello.txt"}, "--trace hello.txt: is also an input"},
		{[]string{"debug", "--text", "--state-file", "d.img"}, "--state-file d.img: is a disk or tape image"},
		{[]string{"debug", "--text", "--state-file", "sub"}, "--state-file sub: is a directory"},
		{[]string{"cpm", "get", "d.img", "X.COM", "d.img"}, "is also an input"},
		{[]string{"cpm", "get", "d.img", "X.COM", "t.tape"}, "is a disk or tape image"},
		{[]string{"bench", "backup", "--vcd", "x", "--trace", "x"}, "both write x"},
		{[]string{"bench", "tape", "--trace", "d.img"}, "is a disk or tape image"},
		// Item 3: the console.
		{[]string{"run", "--console", "tcp:x"}, `port "x" is not a number`},
		{[]string{"run", "--console", "serial"}, "want stdio, tcp:PORT or tcp:HOST:PORT"},
		// DART B and the printer.
		{[]string{"run", "--serial", "tcp:x"}, `--serial "tcp:x": port "x" is not a number`},
		{[]string{"run", "--serial", "tcp:a:b:c"}, `--serial "tcp:a:b:c"`},
		{[]string{"run", "--serial", "sub"}, "--serial sub: is a directory"},
		{[]string{"run", "--printer", "nodir/p.txt"}, "--printer nodir/p.txt: folder nodir does not exist"},
		{[]string{"run", "--printer", "sub"}, "--printer sub: is a directory"},
		{[]string{"run", "--hd0", "d.img", "--printer", "d.img"}, "--printer d.img: is also an input"},
		{[]string{"run", "--serial", "p.txt", "--printer", "p.txt"}, "both write p.txt"},
		{[]string{"debug", "--text", "--printer", "p.txt"}, "lbplus run only"},
		// Item 5: options checked before a long run.
		{[]string{"bench", "seed", "--mb", "30"}, "at most 21.4 MB"},
		{[]string{"bench", "backup", "--mb", "22"}, "at most 21.4 MB"},
		{[]string{"bench", "seed", "--plot", "out.txt"}, "--plot out.txt: a plot is written as .png"},
		{[]string{"bench", "seed", "--plot", "missing/x.png"}, "folder missing does not exist"},
		{[]string{"bench", "sweep", "--plot", "x.gif"}, "a plot is written as"},
		{[]string{"bench", "tape", "--delay", "4001"}, "--delay 4001: give 0 to 4000 ms"},
		{[]string{"bench", "tape", "--interleave", "3,99"}, "interleave 99"},
		{[]string{"bench", "interleave", "--samples", "-1"}, "--samples -1"},
		{[]string{"bench", "params", "--param", "NoSuch"}, "--param NoSuch: no such fitted parameter"},
		// Item 6: odd files.
		{[]string{"disk", "info", "pipe"}, "pipe: a named pipe, not a regular file"},
		{[]string{"tape", "info", "pipe"}, "pipe: a named pipe, not a regular file"},
		{[]string{"floppy", "info", "pipe"}, "not a regular file"},
		{[]string{"run", "--rom", "/dev/zero"}, "/dev/zero: a device, not a regular file"},
		{[]string{"run", "--rom", "pipe"}, "a named pipe"},
		{[]string{"run", "--machine", "pipe"}, "a named pipe"},
		{[]string{"asm", "/dev/zero"}, "a device, not a regular file"},
		{[]string{"asm", "pipe"}, "a named pipe, not a regular file"},
		{[]string{"asm", "incbin.asm"}, "a named pipe, not a regular file"},
		{[]string{"asm", "rept.asm"}, "lines or repetitions expanded"},
		{[]string{"sysgen", "--ccp-bdos", "/dev/zero", "d.img"}, "a device, not a regular file"},
		{[]string{"run", "--fd0", "big.bin"}, "big.bin: 3221225472 bytes, larger than any floppy image"},
		{[]string{"run", "--fd0", "pipe"}, "not a regular file"},
		{[]string{"run", "--hd0", "sub"}, "sub: is a directory, not an image file"},
		{[]string{"run", "--tape", "/dev/zero"}, "a device, not a regular file"},
		{[]string{"run", "--rom", "big.bin"}, "larger than"},
		{[]string{"run", "--rom", "sub"}, "is a directory"},
		{[]string{"run", "--load-state", "pipe"}, "--load-state pipe: a named pipe, not a regular file"},
		{[]string{"run", "--load-state", "/dev/zero"}, "--load-state /dev/zero: a device, not a regular file"},
		{[]string{"debug", "--text", "--sym", "pipe"}, "--sym pipe: a named pipe, not a regular file"},
		{[]string{"debug", "--text", "--sym", "/dev/zero"}, "--sym /dev/zero: a device, not a regular file"},
		{[]string{"debug", "--text", "--sym", "big.bin"}, "--sym big.bin: 3221225472 bytes"},
		{[]string{"debug", "--text", "--script", "/dev/zero"}, "a device, not a regular file"},
		{[]string{"debug", "--text", "--script", "big.bin"}, "--script big.bin: 3221225472 bytes, more than 16777216: not a debugger script"},
		{[]string{"bench", "backup", "--debug-script", "big.bin"}, "not a debugger script"},
		{[]string{"bench", "backup", "--debug-script", "pipe"}, "--debug-script pipe: a named pipe, not a regular file"},
		{[]string{"bench", "backup", "--debug-script", "nothere"}, "--debug-script nothere: no such file or directory"},
		{[]string{"asm", "incdir.asm"}, "INCBIN file 'sub' is a folder, not a file"},
		{[]string{"asm", "sub"}, "a directory, not a regular file"},
		{[]string{"cpm", "put", "d.img", "pipe"}, "pipe: a named pipe, not a regular file"},
		{[]string{"cpm", "put", "d.img", "/dev/zero"}, "a device, not a regular file"},
		{[]string{"cpm", "put", "d.img", "big.bin"}, "a CP/M 2.2 file holds at most 8388608"},
		{[]string{"cpm", "put", "d.img", "hello.txt", "sub"}, "sub: is a directory"},
		{[]string{"floppy", "create", "--format", "amp2", "--system", "--ccp-bdos", "/dev/zero", "n.img"}, "a device, not a regular file"},
		{[]string{"disk", "create", "--system", "--ccp-bdos", "pipe", "n.img"}, "--ccp-bdos pipe: a named pipe"},
		{[]string{"disk", "create", "--system", "--ccp-bdos", "big.bin", "n.img"}, "--ccp-bdos big.bin: 3221225472 bytes"},
		// Item 8: say what is really wrong.
		{[]string{"disk", "info", "."}, ".: is a directory, not an image file"},
		{[]string{"disk", "info", "t.tape"}, "says this is a mcd403-tape image, not an acb4000-disk image"},
		{[]string{"tape", "info", "d.img"}, "says this is an acb4000-disk image, not a mcd403-tape image"},
		{[]string{"run", "--hd0", "d.img", "--hd0-lun1", "d.img"}, "d.img: given twice"},
		{[]string{"run", "--hd0", "locked.img"}, "in use"},
		{[]string{"disk", "info", "locked.img"}, "in use"},
		{[]string{"disk", "create", "d.img"}, "already exists"},
		{[]string{"disk", "create", "nodir/x.img"}, "nodir/x.img: folder nodir does not exist"},
		{[]string{"tape", "create", "nodir/x.tape"}, "folder nodir does not exist"},
		{[]string{"debug", "--text", "--script", "pipe"}, "--script pipe: a named pipe, not a regular file"},
		{[]string{"cpm", "ls", "pipe"}, "not a regular file"},
		{[]string{"cpm", "ls", "t.tape"}, "not an acb4000-disk image"},
		{[]string{"sysgen", "pipe"}, "not a regular file"},
		{[]string{"bench", "floppy", "--interleave", "99"}, "--interleave 99"},
		{[]string{"floppy", "create", "--format", "amp2", "d.img"}, "already exists"},
		// The README's examples with one argument corrupted.
		{[]string{"run", "--speed", "warp"}, `--speed "warp"`},
		{[]string{"run", "--scsi", "9=acb4000:d.img"}, "the ID is a number 0-7"},
		{[]string{"run", "--scsi", "0=acb9000:d.img"}, "acb9000"},
		{[]string{"run", "--hd0", "nothere.img"}, "nothere.img: no such image file"},
		{[]string{"run", "--tape", "d.img"}, "not a mcd403-tape image"},
		{[]string{"run", "--hd0", "d.img,rw"}, `d.img,rw: no such image file; d.img is one, but "rw" is not an option of it`},
		{[]string{"run", "--tape", "t.tape,rw"}, `"rw" is not an option of it (ro)`},
		{[]string{"disk", "create", "--geometry", "st999", "n.img"}, `unknown geometry "st999"`},
		{[]string{"disk", "create", "--interleave", "17", "n.img"}, "interleave 17 out of range 1-16"},
		{[]string{"tape", "create", "--interleave", "99", "n.tape"}, "interleave 99 out of range 1-16"},
		{[]string{"floppy", "create", "--format", "amp9", "n.img"}, `unknown format "amp9"`},
		{[]string{"asm", "missing.asm"}, "missing.asm"},
		{[]string{"asm", "incbin.asm", "-o", "incbin.asm"}, "-o incbin.asm: is also an input"},
		{[]string{"asm", "incbin.asm", "-o", "x.bin", "--list", "x.bin"}, "-o and --list: both write x.bin"},
		{[]string{"asm", "incbin.asm", "--sym", "d.img"}, "is a disk or tape image"},
		{[]string{"bench", "seed", "--row", "fastest"}, `no row "fastest"`},
		{[]string{"bench", "backup", "--hd-interleave", "0"}, "interleave 0"},
		{[]string{"bench", "backup", "--read-size", "3K"}, "--read-size 3K"},
		{[]string{"bench", "interleave", "--interleave", "2-20"}, `"2-20" outside 1-16`},
		{[]string{"bench", "interleave", "--interleave", "9-2"}, `"9-2" is reversed (write 2-9)`},
		{[]string{"debug", "--text", "--record-edges", "20000000000"}, "--record-edges 20000000000: 298.0 GB of edges (16 bytes each) will not fit in half of this machine's"},
		{[]string{"debug", "--record-edges", "20000000000"}, "will not fit"},
		{[]string{"bench", "interleave", "--transfer", "4Kx"}, `"4Kx" is not NKxM`},
		{[]string{"bench", "tape", "--burst", "512"}, "burst 512"},
		{[]string{"bench", "sweep", "--kb", "1"}, "--kb 1"},
		{[]string{"bench", "seed", "--scratch", "missing"}, "scratch folder missing does not exist"},
		{[]string{"bench", "tape", "--scratch", "d.img"}, "scratch folder d.img: not a folder"},
		{[]string{"bench", "backup", "--tape-interleave", "0"}, "--tape-interleave 0: give 1 to 16"},
		{[]string{"bench", "backup", "--hd-interleave", "17"}, "--hd-interleave 17: give 1 to 16"},
		// Options checked before an image is made.
		{[]string{"disk", "create", "--system", "--transfer", "warp", "n.img"}, `--transfer "warp": want byte or burst`},
		{[]string{"disk", "create", "--ccp-bdos", "hello.txt", "n.img"}, "--ccp-bdos: only with --system"},
		// A floppy's BIOS takes the transfer mode from the hard disk.
		{[]string{"floppy", "create", "--format", "amp2", "--system", "--transfer", "burst", "n.img"}, "unknown flag: --transfer"},
		{[]string{"floppy", "create", "--format", "amp2", "--ccp-bdos", "hello.txt", "n.img"}, "--ccp-bdos: only with --system"},
		{[]string{"sysgen", "--transfer", "burst", "boot.imd"}, "boot.imd: --transfer is for a hard disk"},
		// CP/M files, sysgen and bench params.
		{[]string{"cpm", "put", "--part", "7", "sys.img", "hello.txt"}, "sys.img: partition 7: the disk has 5 (0-4)"},
		{[]string{"cpm", "put", "--user", "16", "sys.img", "hello.txt"}, "user 16: CP/M has users 0-15"},
		{[]string{"cpm", "get", "sys.img", "99:HELLO.TXT"}, `"99:HELLO.TXT": the user before ':' is a number 0-15`},
		{[]string{"cpm", "get", "sys.img", "NOFILE.TXT"}, "0:NOFILE.TXT: no such file"},
		{[]string{"cpm", "rm", "sys.img", "NOFILE.TXT"}, "0:NOFILE.TXT: no such file"},
		{[]string{"cpm", "ls", "--part", "9", "sys.img"}, "partition 9"},
		{[]string{"sysgen", "--transfer", "burst", "t.tape"}, "not an acb4000-disk image"},
		{[]string{"sysgen", "--transfer", "warp", "sys.img"}, `--transfer "warp": want byte or burst`},
		{[]string{"bench", "params", "--param", "nope"}, "--param nope: no such fitted parameter"},
		{[]string{"bench", "params", "--workers", "0"}, "--workers 0: give at least 1"},
		// A command group with a missing or mistyped subcommand.
		{[]string{"disk"}, "disk: give a subcommand: create, info"},
		{[]string{"bench", "seeds"}, `bench: unknown subcommand "seeds"`},
		{[]string{"cpm", "list", "d.img"}, `cpm: unknown subcommand "list"`},
		{[]string{"tape", "inf", "t.tape"}, `tape: unknown subcommand "inf"`},
		{[]string{"floppy"}, "floppy: give a subcommand"},
	}
	before := snapshot(t, dir, filepath.Join(root, "scratch"), filepath.Join(root, "home"))
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runCLI(t, dir, "", 60*time.Second, c.args...)
			require.False(t, r.timedOut, "hangs")
			assert.NotZero(t, r.code, "exit code")
			assert.NotContains(t, r.stderr, "panic")
			assert.NotContains(t, r.stderr, "goroutine ")
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			assert.Len(t, lines, 1, "one line on stderr: %q", r.stderr)
			assert.Contains(t, r.stderr, c.want)
			assert.Empty(t, r.stdout)
			assert.Equal(t, before, snapshot(t, dir, filepath.Join(root, "scratch"), filepath.Join(root, "home")), "no file made, changed or removed")
		})
	}
}

// TestCLIInterruptCleansScratch: Ctrl-C or SIGTERM during any bench that
// makes scratch images (about 21 MB each) removes them and exits as the
// signal would.
func TestCLIInterruptCleansScratch(t *testing.T) {
	bin := lbplusBinary(t)
	benches := [][]string{
		{"seed", "--mb", "5"},
		{"backup", "--mb", "5"},
		{"interleave", "--samples", "50"},
		{"tape", "--blocks", "200"},
		{"sweep", "--kb", "4096"},
	}
	for i, args := range benches {
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		t.Run(args[0]+" "+sig.String(), func(t *testing.T) {
			scratch := t.TempDir()
			cmd := exec.Command(bin, append(append([]string{"bench"}, args...), "--quiet", "--scratch", scratch)...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			require.NoError(t, cmd.Start())
			made := func() bool {
				n := 0
				filepath.Walk(scratch, func(_ string, info os.FileInfo, err error) error {
					if err == nil && info.Mode().IsRegular() {
						n++
					}
					return nil
				})
				return n > 0
			}
			require.Eventually(t, made, 60*time.Second, 20*time.Millisecond, "the bench made its images")
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "stopped by the signal, not finished: %s", errb.String())
			assert.Equal(t, 128+int(sig), ee.ExitCode())
			assert.Contains(t, errb.String(), "scratch files removed")
			left, err := os.ReadDir(scratch)
			require.NoError(t, err)
			assert.Empty(t, left, "%v left scratch files", sig)
		})
	}
}

// TestCLIVersion: lbplus --version names the build.
func TestCLIVersion(t *testing.T) {
	r := runCLI(t, t.TempDir(), "", 30*time.Second, "--version")
	assert.Zero(t, r.code)
	assert.Regexp(t, `^lbplus \S+.*go1\.\d+`, r.stdout)
}

// TestCLIPipedInput: with piped input the board answers it before run ends,
// as a script feeding the console expects: the space enters the monitor, H
// prints its help.
func TestCLIPipedInput(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, dir, " H\r", 120*time.Second, "run", "--speed", "max", "--rom", "", "--hd0", "")
	require.False(t, r.timedOut)
	assert.Zero(t, r.code, r.stderr)
	assert.Contains(t, r.stdout, "dump memory", "the monitor's help, typed through the pipe")
	// Typed ahead while the monitor prints its help: every command still
	// reaches it, at the pace the DART takes them.
	r = runCLI(t, dir, " H\rH\rH\rH\r", 120*time.Second, "run", "--speed", "max", "--rom", "", "--hd0", "")
	require.False(t, r.timedOut)
	assert.Zero(t, r.code, r.stderr)
	assert.Equal(t, 4, strings.Count(r.stdout, "dump memory"), "four helps for four H typed ahead: %q", r.stdout)
}

// TestCLIPipedInputWaitsForPrompt: piped lines typed at once reach the
// boot ROM, which takes a key during the boot for the monitor; with
// --wait-for each line waits for CP/M's prompt, as a person would, so DIR
// lists the whole directory (a key typed during it would stop it) and
// STAT runs after it. A prompt that never comes is an error, not a hang.
func TestCLIPipedInputWaitsForPrompt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	require.NoError(t, os.Mkdir(dir, 0o755))
	r := runCLI(t, dir, "DIR\rSTAT\r", 120*time.Second, "run", "--speed", "max")
	require.False(t, r.timedOut)
	assert.Contains(t, r.stdout, "monitor - H for help", "typed at once, the first key enters the monitor")

	r = runCLI(t, dir, "DIR\rSTAT\r", 120*time.Second, "run", "--speed", "max", "--wait-for", "A>")
	require.False(t, r.timedOut)
	assert.Zero(t, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "monitor - H for help")
	dirAt, lastAt, statAt := strings.Index(r.stdout, "A>DIR"), strings.Index(r.stdout, "RESTORE  COM"), strings.Index(r.stdout, "A>STAT")
	require.True(t, dirAt >= 0 && lastAt > dirAt && statAt > lastAt, "DIR lists the whole directory, then STAT runs: %q", r.stdout)
	assert.Regexp(t, `A: R/W, \d+K free`, r.stdout[statAt:], "STAT's answer")

	r = runCLI(t, dir, "DIR\r", 120*time.Second, "run", "--speed", "max", "--wait-for", "B>")
	require.False(t, r.timedOut)
	assert.NotZero(t, r.code)
	assert.Contains(t, r.stderr, `--wait-for "B>": the console did not print it`)
}

// TestCLIInterruptedCreate: Ctrl-C while `disk create` fills its image
// leaves neither the image nor its temporary.
func TestCLIInterruptedCreate(t *testing.T) {
	bin := lbplusBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "disk", "create", "d.img")
	cmd.Dir = dir
	require.NoError(t, cmd.Start())
	require.Eventually(t, func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, ".d.img.*.tmp"))
		return len(m) > 0
	}, 30*time.Second, time.Millisecond, "the temporary image appears")
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	cmd.Wait()
	if cmd.ProcessState.ExitCode() == 0 {
		t.Skip("create finished before the interrupt arrived")
	}
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left)
}

// TestCLIBenchProgressAndQuiet: on a terminal the long benches show a
// progress bar on stderr and print a header above their rows; --quiet
// leaves only the table. `script` gives the bench a terminal.
func TestCLIBenchProgressAndQuiet(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) to give the bench a terminal")
	}
	bin := lbplusBinary(t)
	for _, c := range []struct {
		args   string
		header string
	}{
		{"bench interleave --interleave 3,4 --transfer 4Kx2 --samples 2", "il xfer  method"},
		{"bench tape --interleave 3,4 --blocks 3", "interleave"},
	} {
		for _, quiet := range []bool{false, true} {
			args := c.args + " --scratch " + t.TempDir()
			if quiet {
				args += " --quiet"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			out, err := exec.CommandContext(ctx, "script", "-qec", bin+" "+args, "/dev/null").CombinedOutput()
			cancel()
			require.NoError(t, err, "%s: %s", args, out)
			assert.Contains(t, string(out), c.header, args)
			bar := regexp.MustCompile(`\[[#.]{30}\] +\d+%`)
			if quiet {
				assert.False(t, bar.Match(out), "%s: no progress with --quiet: %q", args, out)
			} else {
				assert.True(t, bar.Match(out), "%s: a progress bar: %q", args, out)
			}
		}
	}
}

// TestCLITCPConsole: tcp:PORT listens on the loopback address only and
// quietly; tcp:0.0.0.0:PORT listens everywhere with a warning on stderr.
// A second client is told the console is busy while the first keeps it.
func TestCLITCPConsole(t *testing.T) {
	bin := lbplusBinary(t)
	root := t.TempDir()
	for _, c := range []struct {
		spec    string
		host    string
		warning bool
	}{
		{"tcp:0", "127.0.0.1", false},
		{"tcp:0.0.0.0:0", "0.0.0.0", true},
	} {
		t.Run(c.spec, func(t *testing.T) {
			cmd := exec.Command(bin, "run", "--console", c.spec, "--speed", "max", "--rom", "", "--hd0", "")
			cmd.Env = append(os.Environ(), "HOME="+root, "XDG_DATA_HOME="+filepath.Join(root, "data"))
			stderr, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			defer func() {
				cmd.Process.Signal(syscall.SIGTERM)
				cmd.Wait()
			}()
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var port, text string
			timeout := time.After(60 * time.Second)
			for port == "" {
				select {
				case l, ok := <-lines:
					require.True(t, ok, "run ended: %s", text)
					text += l + "\n"
					if m := regexp.MustCompile(`console on telnet (\S+):(\d+) `).FindStringSubmatch(l); m != nil {
						assert.Equal(t, c.host, m[1])
						port = m[2]
					}
				case <-timeout:
					t.Fatalf("no console address: %s", text)
				}
			}
			// The warning follows the address at once.
			select {
			case l := <-lines:
				text += l + "\n"
			case <-time.After(2 * time.Second):
			}
			if c.warning {
				assert.Contains(t, text, "warning: the console listens on 0.0.0.0:"+port+" without a password")
			} else {
				assert.NotContains(t, text, "warning")
			}
			first, err := net.Dial("tcp", "127.0.0.1:"+port)
			require.NoError(t, err)
			defer first.Close()
			nego := make([]byte, 3)
			_, err = io.ReadFull(first, nego)
			require.NoError(t, err)
			second, err := net.Dial("tcp", "127.0.0.1:"+port)
			require.NoError(t, err)
			defer second.Close()
			second.SetReadDeadline(time.Now().Add(10 * time.Second))
			msg, _ := io.ReadAll(second)
			assert.Equal(t, hostport.BusyMessage, string(msg))
		})
	}
}

// Every command's --help fits in helpWidth columns: flag descriptions are
// wrapped, the long texts written within it.
func TestHelpWithinWidth(t *testing.T) {
	root := newRootCmd(newApp())
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.IsAvailableCommand() && c != root {
			return
		}
		var out bytes.Buffer
		c.SetOut(&out)
		require.NoError(t, c.Help())
		for i, line := range strings.Split(out.String(), "\n") {
			assert.LessOrEqual(t, len([]rune(line)), helpWidth, "%s --help line %d: %q", c.CommandPath(), i+1, line)
		}
	}
	walk(root)
}
