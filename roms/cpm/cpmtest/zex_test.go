package cpmtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zexFile reads zexdoc.cim or zexall.cim from the koron-go/z80 module.
func zexFile(t *testing.T, name string) []byte {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/koron-go/z80").Output()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "cmd", "zexdoc", name))
	require.NoError(t, err)
	return b
}

// runZex puts the exerciser on A: with the CCP's SAVE, runs it by name at
// the A> prompt and checks what it printed through BDOS functions 2 and 9.
func runZex(t *testing.T, cim, com string) {
	if os.Getenv("LBPLUS_ZEX") != "1" {
		t.Skip("a full exerciser run takes minutes; run by make test-long (LBPLUS_ZEX=1)")
	}
	t.Parallel()
	prog := zexFile(t, cim)
	m := boot(t, NewDisk(Amp2))
	m.Poke(0x100, prog)
	pages := (len(prog) + 255) / 256
	m.Type(fmt.Sprintf("SAVE %d %s.COM\r", pages, com), com+"\r")
	err := m.Run(100_000_000_000)
	out := m.Transcript()
	t.Logf("%s: %d T-states\n%s", com, m.CPU.T(), out)
	require.ErrorIs(t, err, ErrInput, "back at the prompt")
	assert.Contains(t, out, "Tests complete")
	assert.NotContains(t, out, "ERROR")
	assert.Equal(t, 1, m.WarmBoots, "the exerciser ends with a warm boot")
	assert.True(t, strings.HasSuffix(out, "\nA>"), "the CCP prompts again")
}

// On this Go BIOS they cost CPU time only (make test-long); make test-zex
// runs ZEXDOC under CP/M on the emulated board instead (roms/cpmbios).
func TestZexdocOnGoBIOS(t *testing.T) { runZex(t, "zexdoc.cim", "ZEXDOC") }
func TestZexallOnGoBIOS(t *testing.T) { runZex(t, "zexall.cim", "ZEXALL") }
