package asm

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/golden"
)

// TestCorpus assembles real-world-style programs and compares them with the
// pasmo output kept beside each source (and with a fresh pasmo run when
// pasmo is installed).
func TestCorpus(t *testing.T) {
	srcs, err := filepath.Glob("testdata/corpus/*.asm")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(srcs), 10)
	_, perr := exec.LookPath("pasmo")
	for _, src := range srcs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			r, err := Assemble(os.DirFS("testdata/corpus"), filepath.Base(src), Options{})
			require.NoError(t, err)
			golden, err := os.ReadFile(strings.TrimSuffix(src, ".asm") + ".bin")
			require.NoError(t, err)
			if !assert.Equal(t, golden, r.Bytes, "differs from stored pasmo output") {
				t.Log(firstDiff(r, golden))
			}
			if perr == nil {
				data, err := os.ReadFile(src)
				require.NoError(t, err)
				want, err := runPasmo(t.TempDir(), string(data))
				require.NoError(t, err)
				assert.Equal(t, want, r.Bytes, "differs from pasmo")
			}
		})
	}
}

// TestPeerWorkload assembles the peer benchmark ROM (kept beside the
// repository, not in it) with the defines the benchmark uses and compares
// it with pasmo.
func TestPeerWorkload(t *testing.T) {
	const p = "../../shared/bench/peer-workload.asm"
	data, err := os.ReadFile(p)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s absent under CI: %v", p, err)
		}
		t.Skipf("%s absent (kept beside the repository, not in it): %v", p, err)
	}
	needTool(t, "pasmo")
	for _, d := range []map[string]int64{
		{"W": 1, "REP": 1, "N": 21000},
		{"W": 2, "REP": 3, "N": 100},
	} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			r, err := AssembleString(string(data), Options{Defines: d})
			require.NoError(t, err)
			var args []string
			for k, v := range d {
				args = append(args, "-E", fmt.Sprintf("%s=%d", k, v))
			}
			want, err := runPasmo(t.TempDir(), string(data), args...)
			require.NoError(t, err)
			assert.Equal(t, want, r.Bytes)
			assert.Equal(t, uint16(0), r.Org)
		})
	}
}

// genBenchSource builds an n-line program: labels, forward and backward
// jumps, indexed forms, data and expressions.
func genBenchSource(n int) string {
	var b strings.Builder
	b.WriteString("\torg 100h\nBASE\tequ 4000h\n")
	lines := 2
	for i := 0; lines < n; i++ {
		fmt.Fprintf(&b, "l%d:\tld a,(ix+%d)\n\tadd a,%d\n\tld (BASE+%d),a\n\tjr nz,l%d\n\tcall f%d\n\tdb %d, 'x', l%d AND 0FFh\n\tbit %d,(iy-%d)\n\tjp z,l%d\nf%d:\tret\n",
			i, i%128, i%256, i%1000, i, i, i%256, i, i%8, i%128, i, i)
		lines += 9
	}
	return b.String()
}

func BenchmarkAssemble10k(b *testing.B) {
	src := genBenchSource(10000)
	fsys := memFS{"bench.asm": []byte(src)}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Assemble(fsys, "bench.asm", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchSourceAssembles(t *testing.T) {
	src := genBenchSource(10000)
	assert.GreaterOrEqual(t, strings.Count(src, "\n"), 10000)
	_, err := AssembleString(src, Options{})
	require.NoError(t, err)
}

// TestProjectROMs assembles the project's own Z80 programs (roms/*/*.asm,
// INCLUDEs searched in every roms/ directory) with lbplus and pasmo and
// requires identical bytes: they are part of the pasmo corpus.
func TestProjectROMs(t *testing.T) {
	needTool(t, "pasmo")
	mains, _ := filepath.Glob("../roms/*/*.asm")
	if len(mains) == 0 {
		t.Skip("no ../roms/*/*.asm sources")
	}
	dirs, _ := filepath.Glob("../roms/*")
	var incs, pargs []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			incs = append(incs, filepath.Base(d))
			pargs = append(pargs, "-I", d)
		}
	}
	for _, m := range mains {
		rel, _ := filepath.Rel("../roms", m)
		t.Run(rel, func(t *testing.T) {
			r, err := Assemble(os.DirFS("../roms"), filepath.ToSlash(rel), Options{IncludeDirs: incs})
			require.NoError(t, err)
			out := filepath.Join(t.TempDir(), "out.bin")
			msg, err := exec.Command("pasmo", append(append(pargs, "--bin"), m, out)...).CombinedOutput()
			require.NoError(t, err, "pasmo: %s", msg)
			want, err := os.ReadFile(out)
			require.NoError(t, err)
			if !assert.Equal(t, want, r.Bytes) {
				t.Log(firstDiff(r, want))
			}
		})
	}
}

// TestListingGolden pins the listing format (address, bytes, T-states,
// source) on a corpus program; go test -update rewrites it.
func TestListingGolden(t *testing.T) {
	r, err := Assemble(os.DirFS("testdata/corpus"), "monitor.asm", Options{})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, r.WriteListing(&b))
	golden.Equal(t, "monitor.lst", b.Bytes())
}
