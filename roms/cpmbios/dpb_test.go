package cpmbios_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

// floppyIMD makes an ImageDisk system floppy of format name: the file
// records each sector's ID and size, not the CP/M format.
func floppyIMD(t *testing.T, name string) string {
	t.Helper()
	f, err := fdimage.ParseFormat(name)
	require.NoError(t, err)
	d := f.NewDisk(0xE5)
	require.NoError(t, cpmbios.InstallFloppy(d, f, ourSystem(t)))
	path := filepath.Join(t.TempDir(), name+".imd")
	require.NoError(t, fdimage.Create(path, f, d, "IMD 1.18: 01/12/2026 00:00:00"))
	return path
}

// dpbProg copies the DPB of the current drive (BDOS function 31) to 0180h.
const dpbProg = `
        org 100h
        ld c,31
        call 5
        ld de,180h
        ld bc,15
        ldir
        ret
`

// The BIOS senses each Ampro format when the drive is logged in and hands
// the BDOS Ampro's DPB for it (docs/CPM.md, floppies): SPT, BSH, BLM,
// EXM, DSM, DRM, AL0, AL1, CKS, OFF.
func TestFloppyDPBs(t *testing.T) {
	dpbs := map[string][]byte{
		"amp1": {40, 0, 4, 15, 1, 94, 0, 63, 0, 0x80, 0, 16, 0, 2, 0},
		"amp2": {40, 0, 4, 15, 1, 194, 0, 127, 0, 0xC0, 0, 32, 0, 2, 0},
		"amp3": {40, 0, 4, 15, 1, 194, 0, 127, 0, 0xC0, 0, 32, 0, 2, 0},
		"amp4": {40, 0, 4, 15, 0, 394 & 0xFF, 394 >> 8, 255, 0, 0xF0, 0, 64, 0, 2, 0},
	}
	// A: boots from one format, B: holds another.
	for _, tc := range []struct{ a, b string }{{"amp1", "amp4"}, {"amp2", "amp3"}, {"amp3", "amp1"}, {"amp4", "amp2"}} {
		t.Run(tc.a+" and "+tc.b, func(t *testing.T) {
			// The images name no format: the BIOS must find it on the disk.
			r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: floppyIMD(t, tc.a)}, {Drive: 1, Image: floppyIMD(t, tc.b)}}, nil)
			require.NoError(t, r.ty.WaitFor("A>"))
			r.b.LoadRAM(0x100, assembleSrc(t, dpbProg).Bytes)
			r.cmd(t, "SAVE 1 DPB.COM", "A>")
			dpb := func() []byte {
				got := make([]byte, 15)
				for i := range got {
					got[i] = r.b.RAM(uint16(0x180 + i))
				}
				return got
			}
			r.cmd(t, "DPB", "A>")
			assert.Equal(t, dpbs[tc.a], dpb(), "A: %s", tc.a)
			r.cmd(t, "B:", "B>")
			r.cmd(t, "A:DPB", "B>")
			assert.Equal(t, dpbs[tc.b], dpb(), "B: %s", tc.b)
		})
	}
}
