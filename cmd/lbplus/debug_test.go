package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/monitor"
)

// debugFiles makes a formatted ST-125 image and a debugger script file
// holding script, in a temporary folder.
func debugFiles(t *testing.T, script string) (img, scriptFile string) {
	t.Helper()
	dir := t.TempDir()
	img, scriptFile = filepath.Join(dir, "hd0.img"), filepath.Join(dir, "s.dbg")
	require.NoError(t, acb4000.Create(img, acb4000.Geometries["st125"], true, 3))
	require.NoError(t, os.WriteFile(scriptFile, []byte(script), 0o644))
	return img, scriptFile
}

// lbplus debug --hd0 FILE --script FILE: the scripted session through the
// command line, with the built-in ROM's symbols loaded.
func TestDebugScript(t *testing.T) {
	img, script := debugFiles(t, "break phase COMMAND\ncontinue\nphase\nbreak swreq\ncontinue\nbreaks\nprint wboot\n")
	got, _, err := execute("debug", "--hd0", img, "--script", script, "--sym", "cpm")
	require.NoError(t, err)
	assert.Contains(t, got, "READ(6) LUN 0 LBA 0 blocks 1")
	syms, err := monitor.Symbols()
	require.NoError(t, err)
	assert.Contains(t, got, fmt.Sprintf("execute swreq (%04Xh)", syms["swreq"]), "symbols of the built-in ROM")
	assert.Contains(t, got, "breakpoint 2: execute swreq")
	assert.Regexp(t, `> print wboot\nEA[0-9A-F]{2}h`, got, "--sym cpm names the BIOS")
}

// lbplus run --debug is lbplus debug: the window (here, without a
// display, the clear error) or with --script the script's commands on the
// machine run's flags build, and devices shows the disk's panel.
func TestRunDebug(t *testing.T) {
	img, script := debugFiles(t, "break phase DATAIN\ncontinue\ndevices\n")
	got, _, err := execute("run", "--debug", "--hd0", img, "--script", script)
	require.NoError(t, err)
	assert.Contains(t, got, "READ(6) LUN 0 LBA 0 blocks 1")
	assert.Contains(t, got, "> devices\nACB-4000 at SCSI ID 0\n")

	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	_, _, err = execute("run", "--debug", "--hd0", img)
	assert.ErrorContains(t, err, "no display")
}

func TestDebugRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.sym")
	require.NoError(t, os.WriteFile(bad, []byte("x EQU\n"), 0o644))
	script := filepath.Join(dir, "s.dbg")
	require.NoError(t, os.WriteFile(script, []byte("regs\nfly away\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--script", filepath.Join(dir, "none.dbg")}, "none.dbg"},
		{[]string{"--script", script}, "s.dbg: line 2: unknown command \"fly\""},
		{[]string{"--text", "--sym", bad}, "bad.sym:1:"},
		{[]string{"--text", "--record-edges", "5"}, "--record-edges 5"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--window"}, "debug: --window goes with --script"},
		{[]string{"--text", "--script", script, "--window"}, "debug: --window goes with --script"},
	} {
		_, _, err := execute(append([]string{"debug"}, tt.args...)...)
		assert.ErrorContains(t, err, tt.want, tt.args)
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	_, _, err := execute("debug")
	assert.ErrorContains(t, err, "no display")
	// A script in the window needs the window.
	_, _, err = execute("debug", "--script", script, "--window")
	assert.ErrorContains(t, err, "no display")
}

// With nothing attached, lbplus debug boots our CP/M from the default
// system disk, with its symbols: typing DIR on the console reaches CP/M,
// and a CDB breakpoint stops at the BIOS's READ of the directory.
func TestDebugCPM(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	script := filepath.Join(t.TempDir(), "cpm.dbg")
	require.NoError(t, os.WriteFile(script, []byte("continue 25s\nconsole\nbreak cdb any\ntype DIR\\r\ncontinue 3s\nconsole\n"), 0o644))
	got, stderr, err := execute("debug", "--script", script)
	require.NoError(t, err)
	assert.Contains(t, stderr, "made the default system disk")
	assert.Contains(t, got, "A>")
	assert.Regexp(t, `breakpoint 1: target 0 READ\(6\) LUN 0 LBA [0-9]+ blocks 1, CDB sent by the instruction at [a-z_]+`, got, "BIOS symbols name the instruction")
	assert.Contains(t, got, "> console\nDIR\n")
}

// The console escape's "debug CMD" runs one debugger command on the
// running board and answers in CR LF lines.
func TestDebugMenuCommand(t *testing.T) {
	rom, err := monitor.Image()
	require.NoError(t, err)
	b, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	defer b.Close()
	menu := newRunSession(&runOptions{}).menuCommand
	got := menu(b, "debug regs")
	assert.Contains(t, got, "PC=0000")
	assert.Contains(t, got, "\r\nAF'=")
	assert.Contains(t, menu(b, "g step 3"), ">002E", "three instructions run")
	syms, err := monitor.Symbols()
	require.NoError(t, err)
	assert.Contains(t, menu(b, "debug print swreq"), fmt.Sprintf("%04Xh", syms["swreq"]), "symbols of the built-in ROM")
	assert.Contains(t, menu(b, "debug bogus"), "error: unknown command")
	assert.Contains(t, menu(b, "help"), "debug COMMAND")
}

// bench backup --debug-script: the debugger on a backup run's board, with
// BACKUP's symbols; the run then goes on to its result.
func TestBenchBackupDebugScript(t *testing.T) {
	script := filepath.Join(t.TempDir(), "b.dbg")
	require.NoError(t, os.WriteFile(script, []byte("break cdb 0A\ncontinue\nphases 2\n"), 0o644))
	got, errb, err := execute("bench", "backup", "--mb", "0.02", "--debug-script", script)
	require.NoError(t, err, errb)
	assert.Regexp(t, `breakpoint 1: target 1 WRITE\(6\) LUN 0 LBA 0 blocks 1, CDB sent by the instruction at sl_pout`, got)
	assert.Contains(t, got, "burst-hd3-8Kx1-tape3", "the run's result follows")
}

// Any of our CP/M system disks at SCSI ID 0 (not only the default one)
// has CP/M's CCP, BDOS and BIOS named by themselves; a disk without our
// system has none of them.
func TestDebugNamesOurCPMOnAnyDisk(t *testing.T) {
	for _, system := range []bool{true, false} {
		img, script := debugFiles(t, "dis 0DC06h 1\n")
		if system {
			require.NoError(t, os.Remove(img))
			require.NoError(t, os.Remove(img+".toml"))
			_, err := installSystemDisk(img)
			require.NoError(t, err)
		}
		out, _, err := execute("debug", "--hd0", img, "--script", script)
		require.NoError(t, err)
		if system {
			assert.Contains(t, out, "BDOSENT:")
		} else {
			assert.NotContains(t, out, "BDOSENT")
		}
	}
}

// installSystemDisk makes an ST-125 image with our CP/M, as disk create
// --system does.
func installSystemDisk(path string) (cpmbios.HDConfig, error) {
	if err := acb4000.Create(path, acb4000.Geometries["st125"], true, 3); err != nil {
		return cpmbios.HDConfig{}, err
	}
	return installSystem(path, "", "byte")
}
