package cpmutil_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm/cpmtest"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// machine boots our CP/M with A: amp2, B: amp1, C: a 16-bit-block hard
// disk, D: amp4 (EXM 0), and the named programs saved on A:.
func machine(t *testing.T, progs ...string) *cpmtest.Machine {
	t.Helper()
	m, err := cpmtest.New()
	require.NoError(t, err)
	require.NoError(t, m.Attach(0, cpmtest.NewDisk(cpmtest.Amp2), true))
	require.NoError(t, m.Attach(1, cpmtest.NewDisk(cpmtest.Amp1), false))
	require.NoError(t, m.Attach(2, cpmtest.NewDisk(cpmtest.HD), false))
	require.NoError(t, m.Attach(3, cpmtest.NewDisk(cpmtest.Amp4), false))
	m.Boot()
	for _, p := range progs {
		b, err := cpmutil.Program(p)
		require.NoError(t, err)
		require.NoError(t, m.Save(p+".COM", b))
	}
	m.Out.Reset()
	return m
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") != "" {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// BDOSTEST exercises every BDOS function and reports no errors; the
// console, printer, punch and reader functions reach the BIOS.
func TestBDOSTest(t *testing.T) {
	m := machine(t, "BDOSTEST")
	m.Reader = []byte("R")
	m.Type("BDOSTEST\r", "ab", "hello\r")
	require.ErrorIs(t, m.Run(2_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	t.Log(out)
	assert.Contains(t, out, "BDOSTEST: 0 errors")
	assert.NotContains(t, out, "FAIL")
	assert.Equal(t, "L", m.List.String())
	assert.Equal(t, "P", m.Punch.String())
	assert.True(t, strings.HasSuffix(out, "\nA>"))
	golden(t, "bdostest.txt", out)
}

// The error paths print CP/M's messages and warm boot after a key; after
// BAD SECTOR a key other than ^C carries on.
func TestBDOSErrors(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		keys []string
		want string
	}{
		{"R", []string{"x"}, "BDOS ERR ON A: FILE R/O"},
		{"D", []string{"x"}, "BDOS ERR ON A: R/O"},
		{"S", []string{"x"}, "BDOS ERR ON P: SELECT"},
		{"B", []string{"x"}, "BDOS ERR ON A: BAD SECTOR\r\nCONTINUED"},
		{"B", []string{"\x03"}, "BDOS ERR ON A: BAD SECTOR\r\n\r\nA>"},
		{"C", []string{"k", "x"}, "BDOS ERR ON B: R/O"},
	} {
		t.Run(tc.arg+tc.keys[0], func(t *testing.T) {
			m := machine(t, "BDOSTEST")
			if tc.arg == "B" {
				require.NoError(t, m.Save("BAD.DAT", []byte("bad")))
				m.Disks[0].Bad = map[int]bool{firstRecord(t, m.Disks[0], "BAD     DAT"): true}
			}
			if tc.arg == "C" {
				m.Type("BDOSTEST C\r")
				require.ErrorIs(t, m.Run(200_000_000), cpmtest.ErrInput)
				require.Contains(t, m.Out.String(), "SWAP B:")
				// Another disk in B:, with a file on it.
				other := cpmtest.NewDisk(cpmtest.Amp1)
				copy(other.Data[2*40*128:], append([]byte{0}, "OTHER   DAT"...))
				copy(m.Disks[1].Data, other.Data)
			} else {
				m.Type("BDOSTEST " + tc.arg + "\r")
			}
			m.Type(tc.keys...)
			require.ErrorIs(t, m.Run(200_000_000), cpmtest.ErrInput)
			out := m.Out.String()
			t.Log(out)
			assert.Contains(t, out, tc.want)
			assert.NotContains(t, out, "NOT REACHED")
			assert.NotContains(t, out, "FAIL")
			assert.True(t, strings.HasSuffix(out, "\r\nA>"), "back at the prompt")
			assert.Equal(t, 1, m.WarmBoots)
		})
	}
}

// WBTEST overwrites the CCP with HALTs: the prompt returns only because
// warm boot reloads the CCP from the system tracks.
func TestWarmBootReloadsCCP(t *testing.T) {
	m := machine(t, "WBTEST")
	m.Type("WBTEST\r", "DIR\r")
	require.ErrorIs(t, m.Run(100_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "WBTEST: CCP at D400 overwritten\n\nA>DIR\nA: WBTEST   COM\nA>")
	assert.Equal(t, 1, m.WarmBoots)

	// Without the system on the boot tracks, the same program never
	// comes back to a prompt.
	m = machine(t, "WBTEST")
	for i := range 0x1600 {
		m.Disks[0].Data[i] = 0x76
	}
	m.Type("WBTEST\r")
	assert.ErrorIs(t, m.Run(10_000_000), cpmtest.ErrLimit)
}

// firstRecord finds the file's directory entry in the image and returns
// the record number (track*SPT + record) of its first block.
func firstRecord(t *testing.T, d *cpmtest.Disk, name string) int {
	spt := d.F.SPT()
	dir := d.F.BootTrk * spt * 128
	for e := dir; e < dir+d.F.MaxDir*32; e += 32 {
		if d.Data[e] == 0 && string(d.Data[e+1:e+12]) == name {
			return d.F.BootTrk*spt + int(d.Data[e+16])*d.F.BlockSize/128
		}
	}
	t.Fatalf("%s not in the directory", name)
	return 0
}

// BDOSTEST P, the part that runs on any CP/M system (roms/cpmbios runs it
// on the emulated board), passes on the Go BIOS too.
func TestBDOSTestPortable(t *testing.T) {
	m := machine(t, "BDOSTEST")
	m.Type("BDOSTEST P\r")
	require.ErrorIs(t, m.Run(2_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "files on A:\nattributes\nusers\ndrive byte\nBDOSTEST: 0 errors")
	assert.NotContains(t, out, "FAIL")
}
