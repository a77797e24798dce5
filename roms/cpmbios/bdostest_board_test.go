package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
	"github.com/lbplus/lbplus/sched"
)

// Our BDOS on this BIOS on the emulated board: BDOSTEST's portable part
// (sequential and random access across extents with 16-bit block numbers,
// function 40's zero fill, attributes, user areas, the FCB drive byte)
// passes on hard disk partitions A: and B:.
func TestBDOSTestOnTheBoard(t *testing.T) {
	needCpmtools(t)
	img := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
	com, err := cpmutil.Program("BDOSTEST")
	require.NoError(t, err)
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bdostest.com"), com, 0o644))
	cmd := exec.Command("cpmcp", "-f", "lbplus-hd0", img, "bdostest.com", "0:BDOSTEST.COM")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	r := bootDisk(t, img)
	r.ty.Limit = 600 * sched.Second
	require.NoError(t, r.ty.WaitFor("A>"))
	require.NoError(t, r.ty.Type("BDOSTEST P\r"))
	require.NoError(t, r.ty.WaitFor("errors\r\n"))
	require.NoError(t, r.ty.WaitFor("A>"))
	tr := r.tr.String()
	t.Log(tr)
	assert.Contains(t, tr, "BDOSTEST: 0 errors")
	assert.NotContains(t, tr, "FAIL")
}
