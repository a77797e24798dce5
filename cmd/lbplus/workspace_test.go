package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/sched"
)

// defaultMachine is the machine `lbplus run` builds with no arguments (its
// data directory a temporary one), its console on a transcript.
func defaultMachine(t *testing.T) (*emu.Board, *console.Transcript, *console.Typist) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	cmd, s := runSessionFor(t, "--speed", "max")
	cfg, err := s.config(cmd)
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg.ConsoleOut = tr.Out
	b, err := s.newBoard(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b, tr, &console.Typist{B: b, T: tr, Limit: 60 * sched.Second}
}

// The everyday path on the default machine: its two floppy drives are
// there and empty, a new disk goes into drive 1 at the escape prompt, a
// file made with EDIT is copied to it (drive 1 is G: after the five
// partitions), the disk is ejected, and cpmtools reads the file from the
// image on the host.
func TestWorkspaceSession(t *testing.T) {
	needCpmtools(t)
	b, tr, ty := defaultMachine(t)
	drives := menuLine(b, "drives")
	assert.Contains(t, drives, "0:")
	assert.Contains(t, drives, "1:")
	img := filepath.Join(t.TempDir(), "new.imd")
	require.NoError(t, floppyCreate(io.Discard, img, "amp2", 0, systemFlags{}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, ty.WaitFor("A>"))
	assert.Contains(t, menuLine(b, "insert 1 "+img), img)
	for _, step := range []struct{ typed, want string }{
		{"EDIT NOTE.TXT\r", "*"},
		{"A\r", ""},
		{"written in the editor\r", ""},
		{"on the emulated board\r", ""},
		{".\r", "*"},
		{"E\r", "A>"},
		{"COPY G:=NOTE.TXT\r", "A>"},
		{"DIR G:\r", "G: NOTE     TXT\r\nA>"},
	} {
		require.NoError(t, ty.Type(step.typed))
		if step.want != "" {
			require.NoError(t, ty.WaitFor(step.want), "after %q: %s", step.typed, tr.String())
		}
	}
	assert.Contains(t, menuLine(b, "eject 1"), "1")
	out := filepath.Join(t.TempDir(), "note.txt")
	cmd := exec.Command("cpmcp", "-f", "amp2", img, "0:NOTE.TXT", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(got), "written in the editor\r\non the emulated board\r\n")
}

// A floppy given alone keeps the default system disk: --fd1 adds a disk
// to the default machine, where it once replaced the hard disk and left
// the ROM saying "No boot disk" for ever.
func TestFloppyKeepsTheDefaultDisk(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	img := filepath.Join(t.TempDir(), "b.imd")
	require.NoError(t, floppyCreate(io.Discard, img, "amp2", 0, systemFlags{}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)))
	cfg, err := runConfigFor(t, "--fd1", img)
	require.NoError(t, err)
	require.Len(t, cfg.SCSI, 1, "the default system disk")
	assert.Equal(t, emu.HD0ID, cfg.SCSI[0].ID)
	require.Len(t, cfg.Floppies, 2)
	for _, f := range cfg.Floppies {
		if f.Drive == 1 {
			assert.Equal(t, img, f.Image)
		} else {
			assert.Empty(t, f.Image, "drive 0 cabled, empty")
		}
	}
}
