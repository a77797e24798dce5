package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpmbios"
)

// cpmtools reads every partition of a new system disk as an empty CP/M
// file system with docs/diskdefs, and a file put into one partition stays
// out of the others and out of the system blocks.
func TestCpmtoolsSeePartitions(t *testing.T) {
	if _, err := exec.LookPath("cpmcp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cpmtools missing (make debs)")
		}
		t.Skip("cpmtools not installed (make debs)")
	}
	dir := t.TempDir()
	defs, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), defs, 0o644))
	sys := standInSystem(t)
	img := systemDisk(t, sys, cpmbios.HDConfig{Partitions: 5})
	before, err := os.ReadFile(img)
	require.NoError(t, err)

	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir // cpmtools reads ./diskdefs first
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", name, args, out)
		return string(out)
	}
	for k := 0; k < 5; k++ {
		f := "lbplus-hd" + string(rune('0'+k))
		assert.Empty(t, run("cpmls", "-f", f, img), f)
	}
	data := filepath.Join(dir, "hello.txt")
	require.NoError(t, os.WriteFile(data, []byte("hello from cpmtools\r\n\x1a"), 0o644))
	run("cpmcp", "-f", "lbplus-hd2", img, data, "0:HELLO.TXT")
	assert.Contains(t, run("cpmls", "-f", "lbplus-hd2", img), "hello.txt")
	for _, f := range []string{"lbplus-hd0", "lbplus-hd1", "lbplus-hd3", "lbplus-hd4"} {
		assert.Empty(t, run("cpmls", "-f", f, img), f)
	}
	after, err := os.ReadFile(img)
	require.NoError(t, err)
	assert.Equal(t, before[:cpmbios.SysBlocks*512], after[:cpmbios.SysBlocks*512], "system blocks untouched")
}
