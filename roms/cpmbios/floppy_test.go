package cpmbios_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
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

// The system tracks are Ampro's: the loader is CP/M record 0 and CCP+BDOS
// start at record 1, where Ampro's BIOS reloads them at warm boot (44
// records from track 0, sector 1); the BIOS follows the BDOS [F AMBIOS;
// docs/CPM.md "Floppies"].
func TestFloppySystemIsAmproLayout(t *testing.T) {
	sys := ourSystem(t)
	bios, err := cpmbios.BIOS()
	require.NoError(t, err)
	for _, name := range []string{"amp1", "amp2", "amp3", "amp4"} {
		f, err := fdimage.ParseFormat(name)
		require.NoError(t, err)
		d := f.NewDisk(0xE5)
		require.NoError(t, cpmbios.InstallFloppy(d, f, sys))
		// The system tracks as CP/M sees them: track 0 then track 1, each
		// in sector-number order.
		var tracks []byte
		for tr := 0; tr < cpmbios.FloppySysTracks; tr++ {
			c, h := tr, 0
			if f.Heads == 2 {
				c, h = 0, tr
			}
			t0 := d.Track(c, h)
			for k := 0; k < f.Sectors; k++ {
				tracks = append(tracks, t0.Sectors[t0.Find(byte(f.FirstID+k))].Data...)
			}
		}
		assert.Equal(t, byte(0x21), tracks[0], "%s: bootable: LD HL,nn", name)
		assert.Equal(t, sys, tracks[128:128+len(sys)], "%s: CCP+BDOS from record 1", name)
		assert.Equal(t, bios, tracks[128+len(sys):128+len(sys)+len(bios)], "%s: BIOS after the BDOS", name)
	}
}

// A floppy letter whose drive is not cabled is the BDOS's SELECT error,
// and a key then warm boots, as in DR's CP/M; an empty drive that is there
// asks for a disk instead.
func TestFloppyDriveNotThere(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	hd := []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}

	r := bootMachine(t, nil, hd) // no floppy drive cabled
	require.NoError(t, r.ty.WaitFor("A>"))
	r.cmd(t, "DIR B:", "BDOS ERR ON B: SELECT")
	assert.NotContains(t, r.tr.String(), "no disk")
	require.NoError(t, r.ty.Type("x"))
	require.NoError(t, r.ty.WaitFor("A>"), "a key warm boots, as CP/M does")

	path2 := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	hd = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path2}}}
	r = bootMachine(t, []emu.Floppy{{Drive: 0}, {Drive: 1}}, hd) // cabled, empty
	require.NoError(t, r.ty.WaitFor("A>"))
	r.cmd(t, "DIR B:", "Floppy drive 0: no disk. Insert one and press a key, or ^C")
	assert.NotContains(t, r.tr.String(), "SELECT")
}
