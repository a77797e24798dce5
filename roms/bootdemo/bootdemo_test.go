package bootdemo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/bootdemo"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// small keeps the test images tiny; the monitor only ever reads block 0.
var small = acb4000.Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}

func TestBlockAssembles(t *testing.T) {
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	assert.Len(t, blk, bootdemo.BlockSize)
	assert.Contains(t, string(blk), bootdemo.Message)
}

// The block is byte-identical with pasmo's assembly of the same source.
func TestMatchesPasmo(t *testing.T) {
	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		t.Skip("pasmo not installed (make debs)")
	}
	out := filepath.Join(t.TempDir(), "boot.bin")
	msg, err := exec.Command(pasmo, "--bin", "bootdemo.asm", out).CombinedOutput()
	require.NoError(t, err, "%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	assert.Equal(t, want, blk)
}

// disk makes an image; boot, if set, goes to logical block 0 through the
// image package, as a user's tool (or dd) would put it there.
func disk(t *testing.T, formatted bool, boot []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hd0.img")
	require.NoError(t, acb4000.Create(path, small, formatted, 3))
	if boot != nil {
		var m acb4000.Meta
		f, err := image.Open(path, &m, false)
		require.NoError(t, err)
		require.NoError(t, f.WriteBlock(0, boot))
		require.NoError(t, f.Close())
	}
	return path
}

type setup struct {
	id    int    // the ACB-4000's SCSI ID
	image string // "" = no disk attached
}

// boot builds the machine with the boot ROM and the setup's SCSI devices,
// enters the monitor, types cmd at the prompt and returns what the console
// shows from the command line up to the next prompt, and the board.
func boot(t *testing.T, su setup, cmd string) (string, *emu.Board) {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = tr.Out
	if su.image != "" {
		cfg.SCSI = []scsidev.Spec{{ID: su.id, Type: "acb4000", Images: []string{su.image}}}
	}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	// B with no ID first tries floppy drive A: no drive is cabled, so the
	// ROM waits out its timeouts (about 9 s) before it goes to SCSI.
	ty := &console.Typist{B: b, T: tr, Limit: 20 * sched.Second}
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" ")) // the monitor, not the automatic boot
	require.NoError(t, ty.Command("> ", cmd))
	start := tr.Len()
	require.NoError(t, ty.WaitFor("> "), "the monitor prompts again")
	return string(tr.Bytes()[start:]), b
}

func TestMonitorBootsFromSCSI(t *testing.T) {
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	good := disk(t, true, blk)
	tests := []struct {
		name string
		su   setup
		cmd  string
		want string
		skip string
	}{
		{"power-on sequence", setup{id: 0, image: good}, "B", bootdemo.Message + "0\r\n> ", ""},
		{"target 0", setup{id: 0, image: good}, "B0", "Boot SCSI target 0\r\n" + bootdemo.Message + "0\r\n> ", ""},
		{"target 3", setup{id: 3, image: good}, "b 3", "Boot SCSI target 3\r\n" + bootdemo.Message + "3\r\n> ", ""},
		{"nobody at the ID", setup{id: 0, image: good}, "B5", "Boot SCSI target 5\r\nSCSI 5: no answer to selection\r\n> ", ""},
		{"own ID", setup{id: 0, image: good}, "B7", "Boot SCSI target 7\r\nSCSI 7: that is the initiator's own ID (port 29h)\r\n> ", ""},
		{"blank disk", setup{id: 0, image: disk(t, true, nil)}, "B0", "Boot SCSI target 0\r\nSCSI 0: block 0 is not a boot block\r\n> ", ""},
		// An unformatted drive fails the READ with CHECK CONDITION; the
		// monitor asks REQUEST SENSE and shows the controller's four bytes:
		// code 12h (no ID address mark), address valid, LBA 0.
		{"unformatted disk", setup{id: 0, image: disk(t, false, nil)}, "B0", "Boot SCSI target 0\r\nSCSI 0: CHECK CONDITION, sense 92 00 00 00\r\n> ", ""},
		{"ID out of range", setup{id: 0, image: good}, "B 8", "syntax?\r\n> ", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			got, b := boot(t, tc.su, tc.cmd)
			assert.Contains(t, got, tc.want)
			assert.False(t, b.ROMMapped(), "the ROM runs from its RAM copy")
		})
	}
}
