package cpmutil_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm/cpmtest"
)

// needCpmtools skips outside CI when cpmtools (a Debian package in the
// Makefile's DEBS) is missing, and fails in CI.
func needCpmtools(t *testing.T) {
	if _, err := exec.LookPath("cpmcp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cpmtools missing (make debs)")
		}
		t.Skip("cpmtools not installed")
	}
}

// tool runs a cpmtools command in dir, where a diskdefs file names every
// format of cpmtest (cpmtools reads ./diskdefs instead of its own).
func tool(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v: %s", args, out)
	return out
}

func workdir(t *testing.T) string {
	dir := t.TempDir()
	var defs strings.Builder
	for _, f := range []cpmtest.Format{cpmtest.Amp1, cpmtest.Amp2, cpmtest.Amp3, cpmtest.Amp4, cpmtest.HD} {
		defs.WriteString(f.Diskdef())
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), []byte(defs.String()), 0o644))
	return dir
}

var dumpLine = regexp.MustCompile(`(?m)^([0-9A-F]{4}):((?: [0-9A-F]{2}){16})  `)

// undump turns DUMP's output back into bytes.
func undump(t *testing.T, out string) []byte {
	var b []byte
	for _, m := range dumpLine.FindAllStringSubmatch(out, -1) {
		h, err := hex.DecodeString(strings.ReplaceAll(m[2], " ", ""))
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("%04X", len(b)&0xffff), m[1], "offsets in order")
		b = append(b, h...)
	}
	return b
}

// Files put on a disk by cpmtools are read byte for byte by DUMP under our
// BDOS, and files written under our BDOS (SAVE, in user 0 and user 5) are
// read byte for byte by cpmtools, whose fsck.cpm finds the directory
// consistent, on a floppy format and on one with 16-bit block numbers.
func TestCpmtoolsBothWays(t *testing.T) {
	needCpmtools(t)
	for _, f := range []cpmtest.Format{cpmtest.Amp1, cpmtest.Amp2, cpmtest.Amp3, cpmtest.Amp4, cpmtest.HD} {
		t.Run(f.Name, func(t *testing.T) {
			dir := workdir(t)
			img := filepath.Join(dir, "disk.img")
			tool(t, dir, "mkfs.cpm", "-f", f.Name, img)
			rng := rand.New(rand.NewPCG(1, uint64(f.Size())))
			sizes := []int{1, 127, 128, 129, 16383, 16384, 16385, 40000}
			files := map[string][]byte{}
			for i, n := range sizes {
				data := make([]byte, n)
				for j := range data {
					data[j] = byte(rng.Uint32())
				}
				name := fmt.Sprintf("F%d.DAT", i)
				files[name] = data
				host := filepath.Join(dir, strings.ToLower(name))
				require.NoError(t, os.WriteFile(host, data, 0o644))
				tool(t, dir, "cpmcp", "-f", f.Name, img, host, "0:"+name)
			}
			d, err := cpmtest.LoadDisk(f, img)
			require.NoError(t, err)

			m := machine(t, "DUMP")
			require.NoError(t, m.Attach(1, d, false))
			for _, n := range sortedKeys(files) {
				m.Out.Reset()
				m.Type("DUMP B:" + n + "\r")
				require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
				got := undump(t, m.Out.String())
				want := files[n]
				require.Len(t, got, (len(want)+127)/128*128, n)
				assert.True(t, bytes.Equal(want, got[:len(want)]), "%s differs", n)
			}

			// The other way: files SAVEd under our BDOS.
			big := make([]byte, 40*256)
			for j := range big {
				big[j] = byte(rng.Uint32())
			}
			m.Poke(0x100, big)
			m.Type("SAVE 40 B:BIG.DAT\r", "ERA B:F3.DAT\r", "USER 5\r", "SAVE 2 B:U5.DAT\r", "USER 0\r")
			require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
			require.NoError(t, os.WriteFile(img, d.Data, 0o644))
			tool(t, dir, "fsck.cpm", "-f", f.Name, "-n", img)
			for _, c := range []struct {
				name string
				want []byte
			}{{"0:BIG.DAT", big}, {"5:U5.DAT", big[:512]}, {"0:F7.DAT", files["F7.DAT"]}} {
				out := filepath.Join(dir, "out")
				os.Remove(out)
				tool(t, dir, "cpmcp", "-f", f.Name, img, c.name, out)
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				require.GreaterOrEqual(t, len(got), len(c.want), c.name)
				assert.True(t, bytes.Equal(c.want, got[:len(c.want)]), "%s differs", c.name)
			}
			ls := string(tool(t, dir, "cpmls", "-f", f.Name, img))
			assert.NotContains(t, ls, "f3.dat", "ERA under our BDOS")
		})
	}
}

func sortedKeys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}
