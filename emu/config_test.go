package emu_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The example machine file in docs/ reads as the machine it describes, with
// its paths taken relative to the file.
func TestReadMachineFileExample(t *testing.T) {
	path := filepath.Join("..", "docs", "machine.toml")
	cfg, err := emu.ReadMachineFile(path)
	require.NoError(t, err)
	assert.Equal(t, 7, cfg.SCSIID)
	assert.Equal(t, uint8(0xF8), cfg.SpareJumpers, "absent keys keep the defaults")
	assert.Equal(t, "stdio", cfg.Console)
	assert.Equal(t, emu.Jumpers{}, cfg.Jumpers)
	assert.Nil(t, cfg.ROM, "no rom key: the caller supplies one")
	require.Len(t, cfg.SCSI, 2)
	assert.Equal(t, scsidev.Spec{ID: 0, Type: "acb4000", Images: []string{filepath.Join("..", "docs", "hd0.img")}}, cfg.SCSI[0])
	assert.Equal(t, scsidev.Spec{ID: 1, Type: "mcd403", Images: []string{filepath.Join("..", "docs", "tape.img")}}, cfg.SCSI[1])
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// A machine file with every key builds the machine it names: ROM, jumpers,
// a disk and a tape, found relative to the file.
func TestMachineFileBuildsMachine(t *testing.T) {
	dir := t.TempDir()
	rom := make([]byte, 4096)
	rom[0] = 0x76 // HALT
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.rom"), rom, 0o644))
	g := acb4000.Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}
	require.NoError(t, acb4000.Create(filepath.Join(dir, "hd.img"), g, true, 3))
	require.NoError(t, mcd403.Create(filepath.Join(dir, "t.tape"), 3))
	path := writeFile(t, dir, "m.toml", `
rom = "b.rom"
scsi_id = 6
spare_jumpers = 0x08
wait_on_drq = true
console = "tcp:2323"
[jumpers]
ncr_irq_to_ctc_trg2 = true
ncr_drq_to_dart_dcda = true
fdc_drq_to_dart_ria = true
ctc_to2_to_trg3 = true
[[scsi]]
id = 2
type = "acb4000"
images = ["hd.img"]
[[scsi]]
id = 5
type = "mcd403"
images = ["t.tape"]
read_only = true
`)
	cfg, err := emu.ReadMachineFile(path)
	require.NoError(t, err)
	assert.Equal(t, rom, cfg.ROM)
	assert.Equal(t, filepath.Join(dir, "b.rom"), cfg.ROMName)
	assert.Equal(t, emu.Jumpers{IRQToTRG2: true, DRQToDCDA: true, FDCDrqToRIA: true, TO2ToTRG3: true}, cfg.Jumpers)
	assert.True(t, cfg.WaitOnDRQ)
	assert.Equal(t, "tcp:2323", cfg.Console)
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	v, _ := b.In(0x29, 0)
	assert.Equal(t, uint8(0x08|6), v, "port 29: spare jumpers and the SCSI ID")
	require.IsType(t, &acb4000.Controller{}, b.SCSIDevice(2))
	require.IsType(t, &mcd403.Drive{}, b.SCSIDevice(5))
	assert.True(t, b.SCSIDevice(5).(*mcd403.Drive).Tape().WriteProtected(), "read_only reaches the device")
	assert.Nil(t, b.SCSIDevice(0))
	assert.Nil(t, b.SCSIDevice(9))
	// The images are the machine's until Close.
	_, err = acb4000.Open(filepath.Join(dir, "hd.img"), false)
	assert.ErrorContains(t, err, "in use")
	require.NoError(t, b.Close())
	d, err := acb4000.Open(filepath.Join(dir, "hd.img"), false)
	require.NoError(t, err)
	d.Close()
}

// Bad machine files and configurations get one clear error naming the
// file or the device.
func TestMachineFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, text, want string }{
		{"unknown key", "scsi_idd = 3\n", "unknown key scsi_idd"},
		{"unknown jumper", "[jumpers]\nirq = true\n", "unknown key jumpers.irq"},
		{"syntax", "scsi_id = \n", "m.toml"},
		{"own id", "[[scsi]]\nid = 7\ntype = \"acb4000\"\nimages = [\"x\"]\n", "SCSI ID 7 (acb4000) is the board's own ID"},
		{"twice", "[[scsi]]\nid = 1\ntype = \"acb4000\"\nimages = [\"x\"]\n[[scsi]]\nid = 1\ntype = \"mcd403\"\nimages = [\"y\"]\n", "SCSI ID 1 is given twice"},
		{"type", "[[scsi]]\nid = 1\ntype = \"st506\"\nimages = [\"x\"]\n", `unknown device type "st506" (known: ` + strings.Join(emu.SCSITypes(), ", ") + ")"},
		{"id range", "[[scsi]]\nid = 8\ntype = \"acb4000\"\n", "ID 8 outside 0-7"},
		{"board id", "scsi_id = 9\n", "SCSI ID 9: the J9 jumpers select 0-7"},
		{"trg3 twice", "[jumpers]\nfdc_intrq_to_ctc_trg3 = true\nctc_to2_to_trg3 = true\n", "both drive CTC CLK/TRG3"},
		{"floppy drive", "[[floppy]]\ndrive = 4\n", "floppy drive 4: the board selects drives 0-3"},
		{"interleave", "[[scsi]]\nid = 0\ntype = \"acb4000\"\nimages = [\"x\"]\ninterleave = -3\n", "SCSI ID 0 (acb4000): interleave -3: want 1 (1:1) or more"},
		{"rom", "rom = \"none.rom\"\n", "none.rom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := emu.ReadMachineFile(writeFile(t, dir, "m.toml", tt.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := emu.ReadMachineFile(filepath.Join(dir, "absent.toml"))
	assert.ErrorContains(t, err, "absent.toml")
}

// A raw disk image's interleave and geometry come from the machine file
// and reach the controller's open (acb4000 TestRawImageInterleave shows
// the layout that follows); one the track cannot have is refused by
// emu.New with the image named.
func TestMachineFileRawInterleave(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "d.hda")
	require.NoError(t, os.WriteFile(img, make([]byte, 4*2*17*512), 0o644))
	for _, tt := range []struct {
		il   int
		want string
	}{{9, ""}, {17, img + ": interleave 17: want 1 to 16 for 17 sectors per track"}} {
		path := writeFile(t, dir, "m.toml", fmt.Sprintf("[[scsi]]\nid = 0\ntype = \"acb4000\"\nimages = [\"d.hda\"]\ngeometry = \"4x2x17\"\ninterleave = %d\n", tt.il))
		cfg, err := emu.ReadMachineFile(path)
		require.NoError(t, err)
		assert.Equal(t, tt.il, cfg.SCSI[0].Interleave)
		cfg.ROM = emu.StubROM(0x100)
		b, err := emu.New(cfg)
		if tt.want != "" {
			assert.EqualError(t, err, tt.want)
			continue
		}
		require.NoError(t, err)
		require.IsType(t, &acb4000.Controller{}, b.SCSIDevice(0))
		require.NoError(t, b.Close())
	}
}

// Devices that cannot be attached leave nothing open: the first disk's lock
// is released when the second fails.
func TestNewReleasesOnError(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.img")
	require.NoError(t, acb4000.Create(a, acb4000.ST125, true, 3))
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.SCSI = []scsidev.Spec{
		{ID: 0, Type: "acb4000", Images: []string{a}},
		{ID: 1, Type: "mcd403", Images: []string{filepath.Join(dir, "missing.tape")}},
	}
	_, err := emu.New(cfg)
	require.ErrorContains(t, err, "missing.tape")
	d, err := acb4000.Open(a, false)
	require.NoError(t, err, "a.img is free again")
	d.Close()

	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{a}, Params: "fast"}}
	_, err = emu.New(cfg)
	assert.ErrorContains(t, err, "parameters of type string")
	cfg.SCSI = nil
	cfg.Floppies = []emu.Floppy{{Drive: 0, Image: "a.dsk"}}
	_, err = emu.New(cfg)
	assert.ErrorContains(t, err, "floppy drive 0: a.dsk: no such floppy image")
	cfg.Floppies = []emu.Floppy{{Drive: 1, Type: "8inch"}}
	_, err = emu.New(cfg)
	assert.ErrorContains(t, err, `floppy drive 1: unknown type "8inch"`)
}

// serial and printer in a machine file: a file is relative to the
// machine file's folder; pty and tcp: are kept as they are.
func TestMachineFileSerialAndPrinter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.toml")
	require.NoError(t, os.WriteFile(path, []byte("serial = \"s.out\"\nprinter = \"p.txt\"\n"), 0o644))
	cfg, err := emu.ReadMachineFile(path)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "s.out"), cfg.Serial)
	assert.Equal(t, filepath.Join(dir, "p.txt"), cfg.Printer)
	for _, spec := range []string{"pty", "tcp:2324", "tcp:0.0.0.0:2324"} {
		require.NoError(t, os.WriteFile(path, []byte("serial = \""+spec+"\"\n"), 0o644))
		cfg, err = emu.ReadMachineFile(path)
		require.NoError(t, err)
		assert.Equal(t, spec, cfg.Serial)
		assert.Empty(t, cfg.Printer)
	}
}
