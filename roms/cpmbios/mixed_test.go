package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// Booted from a floppy, the floppies are A: and B: and the hard disk's
// partitions follow; booted from the hard disk (no floppy in drive 0),
// the partitions come first.
func TestDriveLettersFollowTheBootDevice(t *testing.T) {
	hd := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
	fd := systemFloppy(t, "amp2", ourSystem(t))
	r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: fd, Format: "amp2"}, {Drive: 1}},
		[]scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}})
	require.NoError(t, r.ty.WaitFor("2 hard disk partition(s), 2 floppy drive(s)\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	r.cmd(t, "SAVE 1 ONFLOPPY.COM", "A>")
	r.cmd(t, "C:", "C>")
	r.cmd(t, "SAVE 1 ONHD.COM", "C>")
	r.cmd(t, "DIR", "C: ONHD     COM\r\nC>")
	r.cmd(t, "D:", "D>")
	r.cmd(t, "E:", "BDOS ERR ON E: SELECT")
	require.NoError(t, r.b.Close())

	r = bootMachine(t, []emu.Floppy{{Drive: 0}, {Drive: 1}},
		[]scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}})
	require.NoError(t, r.ty.WaitFor("A>"))
	r.cmd(t, "DIR", "A: ONHD     COM\r\nA>")
	r.cmd(t, "C:", "Floppy drive 0: no disk")
}
