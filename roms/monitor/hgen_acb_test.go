package monitor_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// An HGEN-style loader on an emulated ACB-4000 (not a scripted target),
// and on a scsihd disk, as a dd copy of an Ampro owner's drive would be:
// READTRK twice, block 31's configuration copied, then 801Bh with the
// controller's own parameter command, MODE SELECT (15h) and its 12-byte
// list (header, one block descriptor: 512-byte blocks), whose result it
// keeps at B200h. It boots through our ROM with no floppy in the drive,
// after the floppy attempt.
func TestHGENLoaderOnDisks(t *testing.T) {
	loader := strings.NewReplacer(
		"inicmd: db 0Ch,0,0,0,0,0", "inicmd: db 15h,0,0,0,12,0",
		"inidat: db 1,2,3,4,5,6,7,8", "inidat: db 0,0,0,8, 0,0,0,0, 0,0,2,0",
		"        call 801Bh          ; send the controller its parameters", "        call 801Bh          ; send the controller its parameters\n        ld (0B200h),a\n        push af\n        pop hl\n        ld (0B202h),hl",
	).Replace(hgenLoader)
	require.NotEqual(t, hgenLoader, loader)
	disk := hgenDisk(t)
	copy(disk, assembleAt(t, loader))

	for _, typ := range []string{"acb4000", "scsihd"} {
		t.Run(typ, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hd.img")
			var f *image.File
			switch typ {
			case "acb4000":
				g := acb4000.Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}
				require.NoError(t, acb4000.Create(path, g, true, 3))
				var m acb4000.Meta
				var err error
				f, err = image.Open(path, &m, false)
				require.NoError(t, err)
			case "scsihd":
				require.NoError(t, scsihd.Create(path, 4*2*17*512))
				d, err := scsihd.Open(path, false)
				require.NoError(t, err)
				f = d.File()
			}
			for k := 0; k < 32; k++ {
				require.NoError(t, f.WriteBlock(int64(k), disk[k*512:(k+1)*512]))
			}
			require.NoError(t, f.Close())

			rom, err := monitor.Image()
			require.NoError(t, err)
			tr := &console.Transcript{}
			cfg := emu.DefaultConfig(rom)
			cfg.ConsoleOut = tr.Out
			cfg.Floppies = []emu.Floppy{{Drive: 0}}
			cfg.SCSI = []scsidev.Spec{{ID: 0, Type: typ, Images: []string{path}}}
			b, err := emu.New(cfg)
			require.NoError(t, err)
			defer b.Close()
			ty := &console.Typist{B: b, T: tr, Limit: 30 * sched.Second}
			require.NoError(t, ty.WaitFor("COLD\r\n"))
			assert.Greater(t, tr.Times[len(tr.Times)-1], 11*sched.Second, "after the floppy attempt")
			assert.Equal(t, uint8(0), b.RAM(0xB200), "801Bh: A = 0, the controller said GOOD")
			assert.NotZero(t, b.RAM(0xB202)&0x40, "801Bh: Z set")
			for k := 2; k < 32; k++ {
				assert.Equal(t, byte(k), b.RAM(uint16(0xC000+k*512+7)), "block %d", k)
			}
			assert.Equal(t, byte(31), b.RAM(0xB1FF), "block 31 copied")
			assert.Equal(t, uint64(0), b.SCSIDevice(0).Counts().Checks, "no command refused")
		})
	}
}
