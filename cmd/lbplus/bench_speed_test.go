package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A workload written for this test stands in for the peer benchmark's
// file: --peer assembles it with W, REP and N defined and runs it on the
// CPU-bound lines; every line is in the JSON.
func TestBenchSpeedPeerJSON(t *testing.T) {
	dir := t.TempDir()
	src := "        org 0\n        ld sp,0\n        ld de,N*REP\nloop:   ld hl,8000h\n" +
		"        ld b,W*16\nbody:   inc (hl)\n        inc hl\n        djnz body\n        dec de\n" +
		"        jp loop\n        ds 1000h-$,0FFh\n"
	path := filepath.Join(dir, "peer.asm")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	out, _, err := execute("bench", "speed", "--json", "-q", "--idle", "0.1", "--mb", "0.02", "--peer", path)
	require.NoError(t, err)
	var lines []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &lines), out)
	require.Len(t, lines, 8+5+1, "8 CPU-bound lines, the 5 seed rows, the floppy read")
	assert.Equal(t, "idle board, peer.asm W1 from ram", lines[0]["what"])
	assert.Equal(t, "bios-baseline", lines[8]["name"])
	assert.Equal(t, "floppy-read", lines[13]["name"])
	for _, l := range lines {
		for _, k := range []string{"mt_per_cpu_s", "koron_mt_per_cpu_s", "ratio", "t_states"} {
			assert.Positive(t, l[k], "%s %s", l["name"], k)
		}
	}
}

func TestBenchSpeedBadFlags(t *testing.T) {
	_, _, err := execute("bench", "speed", "--peer", filepath.Join(t.TempDir(), "none.asm"))
	assert.ErrorContains(t, err, "--peer")
	_, _, err = execute("bench", "speed", "--peer", "", "--idle", "0")
	assert.ErrorContains(t, err, "--idle 0")
	_, _, err = execute("bench", "speed", "--idle", "20", "--mb", "0")
	assert.ErrorContains(t, err, "--mb 0")
}
