package cpmbios_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// floppyWith makes an amp2 image in dir with the system on it, changed by
// edit before it is written (path ends .imd: an ImageDisk file, which can
// record a bad sector).
func floppyWith(t *testing.T, name string, edit func(d *fdimage.Disk)) string {
	t.Helper()
	f, err := fdimage.ParseFormat("amp2")
	require.NoError(t, err)
	d := f.NewDisk(0xE5)
	require.NoError(t, cpmbios.InstallFloppy(d, f, ourSystem(t)))
	if edit != nil {
		edit(d)
	}
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, fdimage.Create(path, f, d, "IMD 1.18: 01/12/2026 00:00:00"))
	return path
}

// unchanged reads path now and returns the check that it still holds the
// same bytes (once the board is closed: a refused write changed nothing).
func unchanged(t *testing.T, path string) func() {
	t.Helper()
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	return func() {
		t.Helper()
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, before, after, "%s is untouched", filepath.Base(path))
	}
}

// What a user sees when the disk is wrong: CP/M's messages, and no image
// is changed by a refused write.
func TestBadInputs(t *testing.T) {
	t.Run("write-protected floppy", func(t *testing.T) {
		path := floppyWith(t, "wp.imd", nil)
		untouched := unchanged(t, path)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: path, ReadOnly: true}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "SAVE 1 X.COM", "Disk write protected")
		require.NoError(t, r.ty.WaitFor("BDOS ERR ON A: BAD SECTOR"))
		require.NoError(t, r.ty.Type("\x03"))
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR", "NO FILE\r\nA>")
		untouched()
	})
	t.Run("write-protected hard disk", func(t *testing.T) {
		// The target refuses the write with CHECK CONDITION: the BIOS asks
		// for the sense and tries twice more, then the BDOS reports it.
		path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
		untouched := unchanged(t, path)
		r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}, ReadOnly: true}})
		require.NoError(t, r.ty.WaitFor("A>"))
		dev := r.b.SCSIDevice(0)
		checks := dev.Counts().Checks
		r.cmd(t, "SAVE 1 X.COM", "BDOS ERR ON A: BAD SECTOR")
		assert.Equal(t, uint64(3), dev.Counts().Checks-checks, "three tries")
		require.NoError(t, r.ty.Type("\x03"))
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR", "NO FILE\r\nA>")
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("bad sector in an IMD", func(t *testing.T) {
		// The first directory sector: CP/M track 2 = cylinder 1, side 0, ID 17.
		path := floppyWith(t, "bad.imd", func(d *fdimage.Disk) {
			tr := d.Track(1, 0)
			tr.Sectors[tr.Find(17)].BadCRC = true
		})
		untouched := unchanged(t, path)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: path}}, nil)
		require.NoError(t, r.ty.WaitFor("lbplus CP/M 2.2 BIOS"))
		// The WD1772 commands from here on (the BIOS's), each with the
		// sector register it ran with: a Restore to find the head (the
		// BIOS does not know its cylinder yet), then three tries at the
		// sector with a Restore before the last.
		var sec uint8
		var cmds []string
		stop := r.b.ObservePorts(0xC0, 0xC2, func(_ uint64, port uint16, v uint8, out bool) {
			switch {
			case out && port&0xFF == 0xC2:
				sec = v
			case out && port&0xFF == 0xC0 && v&0xF0 == 0x80:
				cmds = append(cmds, fmt.Sprintf("read %d", sec))
			case out && port&0xFF == 0xC0 && v&0xF0 == 0x00:
				cmds = append(cmds, "restore")
			}
		})
		require.NoError(t, r.ty.WaitFor("BDOS ERR ON A: BAD SECTOR"))
		stop()
		assert.Equal(t, []string{"restore", "read 17", "read 17", "restore", "read 17"}, cmds)
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("no disk in A:", func(t *testing.T) {
		// Booted from drive 0, then the disk is taken out: the BIOS says so
		// and waits, the emulator runs on; a key after the disk is back
		// carries on, ^C gives up with the BDOS's message.
		path := floppyWith(t, "a.imd", nil)
		untouched := unchanged(t, path)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: path}, {Drive: 1}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		require.NoError(t, r.b.EjectFloppy(0))
		r.cmd(t, "DIR", "Floppy drive 0: no disk. Insert one and press a key, or ^C")
		at := r.tr.Len()
		require.NoError(t, r.b.RunFor(30*sched.Second), "the emulator runs on while the BIOS waits")
		assert.Equal(t, at, r.tr.Len(), "nothing more until a key")
		require.NoError(t, r.b.InsertFloppy(0, path, fdimage.Options{}))
		require.NoError(t, r.ty.Type(" "))
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR", "NO FILE\r\nA>")

		require.NoError(t, r.b.EjectFloppy(0))
		r.cmd(t, "DIR", "Floppy drive 0: no disk. Insert one and press a key, or ^C")
		require.NoError(t, r.ty.Type("\x03"))
		require.NoError(t, r.ty.WaitFor("BDOS ERR ON A: BAD SECTOR"))
		require.NoError(t, r.b.InsertFloppy(0, path, fdimage.Options{}))
		require.NoError(t, r.ty.Type("\x03"))
		require.NoError(t, r.ty.WaitFor("A>"), "^C warm boots from the disk put back")
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("unformatted floppy in B:", func(t *testing.T) {
		boot := floppyWith(t, "boot.imd", nil)
		blank := filepath.Join(t.TempDir(), "blank.imd")
		f, err := fdimage.ParseFormat("amp2")
		require.NoError(t, err)
		nd := fdimage.NewDisk(40, 2) // only the last track formatted: an IMD needs one
		*nd.Track(39, 1) = f.NewTrack(39, 1, 0xE5)
		require.NoError(t, fdimage.Create(blank, f, nd, "IMD 1.18: 01/12/2026 00:00:00"))
		untouched := unchanged(t, blank)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: boot}, {Drive: 1, Image: blank}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR B:", "BDOS ERR ON B: SELECT")
		require.NoError(t, r.ty.Type("x"))
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "SAVE 1 B:X.COM", "BDOS ERR ON B: SELECT")
		require.NoError(t, r.ty.Type("x"))
		require.NoError(t, r.ty.WaitFor("A>"))
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("unformatted hard disk", func(t *testing.T) {
		// Booted from a floppy, with a hard disk that was never formatted:
		// the BIOS finds no partitions on it (its configuration block
		// cannot be read) and C: does not exist.
		hd := filepath.Join(t.TempDir(), "raw.img")
		g := acb4000.Geometry{Name: "small", Cylinders: 20, Heads: 2, Sectors: 17, SectorSize: 512}
		require.NoError(t, acb4000.Create(hd, g, false, 0))
		untouched := unchanged(t, hd)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: floppyWith(t, "a.imd", nil)}},
			[]scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}})
		require.NoError(t, r.ty.WaitFor("0 hard disk partition(s), 2 floppy drive(s)"))
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR C:", "BDOS ERR ON C: SELECT")
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("missing drive", func(t *testing.T) {
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: floppyWith(t, "a.imd", nil)}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "DIR C:", "BDOS ERR ON C: SELECT")
	})
	t.Run("full disk", func(t *testing.T) {
		// amp1 has 93 data blocks of 2 KB after its directory: eleven
		// 16 KB files fit, the twelfth does not.
		f, err := fdimage.ParseFormat("amp1")
		require.NoError(t, err)
		d := f.NewDisk(0xE5)
		require.NoError(t, cpmbios.InstallFloppy(d, f, ourSystem(t)))
		path := filepath.Join(t.TempDir(), "full.img")
		require.NoError(t, fdimage.Create(path, f, d, ""))
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: path, Format: "amp1"}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		for i := 0; i < 11; i++ {
			r.cmd(t, "SAVE 64 F"+string(rune('A'+i))+".COM", "A>")
		}
		assert.NotContains(t, r.tr.String(), "NO SPACE")
		r.cmd(t, "SAVE 64 FULL.COM", "NO SPACE")
	})
}
