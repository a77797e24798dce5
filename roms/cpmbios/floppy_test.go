package cpmbios_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// systemFloppy makes a raw image of format name with the system on it.
func systemFloppy(t *testing.T, name string, sys []byte) string {
	t.Helper()
	f, err := fdimage.ParseFormat(name)
	require.NoError(t, err)
	d := f.NewDisk(0xE5)
	require.NoError(t, cpmbios.InstallFloppy(d, f, sys))
	path := filepath.Join(t.TempDir(), name+".img")
	require.NoError(t, fdimage.Create(path, f, d, ""))
	return path
}

// bootMachine boots the ROM on a board with the given floppy drives and
// SCSI devices.
func bootMachine(t *testing.T, floppies []emu.Floppy, scsi []scsidev.Spec) *rig {
	t.Helper()
	return newRig(t, 30*sched.Second, func(cfg *emu.Config) {
		cfg.Floppies = floppies
		cfg.SCSI = scsi
	})
}

func (r *rig) cmd(t *testing.T, line, want string) {
	t.Helper()
	require.NoError(t, r.ty.Type(line+"\r"))
	require.NoError(t, r.ty.WaitFor(want))
}

// Each Ampro format boots to A> from drive 0, is sensed, reads and writes;
// B: (drive 1, empty) says it has no disk and ^C gives up to A>.
func TestFloppyBootsEachFormat(t *testing.T) {
	for _, name := range []string{"amp1", "amp2", "amp3", "amp4"} {
		t.Run(name, func(t *testing.T) {
			path := systemFloppy(t, name, ourSystem(t))
			r := bootMachine(t, []emu.Floppy{
				{Drive: 0, Image: path, Format: name},
				{Drive: 1},
			}, nil)
			require.NoError(t, r.ty.WaitFor("0 hard disk partition(s), 2 floppy drive(s)\r\n"))
			require.NoError(t, r.ty.WaitFor("A>"))
			r.cmd(t, "DIR", "NO FILE\r\nA>")
			r.cmd(t, "SAVE 20 BIG.COM", "A>")
			r.cmd(t, "DIR", "A: BIG      COM\r\nA>")
			r.cmd(t, "B:", "Floppy drive 1: no disk. Insert one and press a key, or ^C")
			require.NoError(t, r.ty.Type("\x03"))
			require.NoError(t, r.ty.WaitFor("BDOS ERR ON B: SELECT"))
			require.NoError(t, r.ty.Type("x"))
			require.NoError(t, r.ty.WaitFor("A>"))
			r.cmd(t, "DIR", "A: BIG      COM\r\nA>")
		})
	}
}
