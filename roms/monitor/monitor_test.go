package monitor

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImageAssembles(t *testing.T) {
	img, err := Image()
	require.NoError(t, err)
	assert.Len(t, img, Size)
	assert.Equal(t, []byte{0x18, 0x2A, 0x00}, img[:3], "JR reset0: relative, so it works at 0000h and at 8000h")
	assert.Equal(t, []byte{0xF3, 0xAF, 0xD3, 0x00}, img[0x2C:0x30], "reset0: DI; XOR A; OUT (0),A")
}

// The jump table and variables sit where original boot sectors call them
// (docs/BOOT.md): every entry is a JP to the routine of that name.
func TestJumpTable(t *testing.T) {
	img, err := Image()
	require.NoError(t, err)
	syms, err := Symbols()
	require.NoError(t, err)
	entries := []struct {
		addr int
		name string
	}{
		{Setup, "fdsetup"}, {StepIn, "fdstepin"}, {Side1, "fdside1"}, {FDClear, "fdclear"},
		{SetDMA, "setdma"}, {ReadTrk, "readtrk"}, {ReadSec, "readsec"}, {ReadID, "readid"},
		{InitHDC, "inithdc"},
	}
	for _, e := range entries {
		o := e.addr - Org
		assert.Equal(t, byte(0xC3), img[o], "%04X is a JP", e.addr)
		assert.Equal(t, syms[e.name], int64(img[o+1])|int64(img[o+2])<<8, "%04X jumps to %s", e.addr, e.name)
	}
	vars := map[int]string{DMAAddr: "dmaadr", IDSave: "idsv", SelByte: "selbyt", Track: "track",
		Sector: "sector", Status: "status", TwoSided: "twosid", SecBias: "sbias"}
	for addr, name := range vars {
		assert.Equal(t, int64(addr), syms[name], name)
	}
	assert.Equal(t, int64(0x802C), syms["reset0"], "the variables end at 802Bh")
}

// The ROM is byte-identical with pasmo's assembly of the same source.
func TestMatchesPasmo(t *testing.T) {
	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		t.Skip("pasmo not installed (make debs)")
	}
	out := filepath.Join(t.TempDir(), "mon.bin")
	cmd := exec.Command(pasmo, "--bin", "monitor.asm", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	img, err := Image()
	require.NoError(t, err)
	assert.Equal(t, want, img)
}
