package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// ZEXDOC and ZEXALL, from the koron-go/z80 module, run as CP/M programs
// on the emulated board: loaded by our CCP from the hard disk, printing
// through our BDOS and BIOS, at the board's 4 MHz. Each reports the
// emulated and the host time it took. Minutes of CPU each: only with
// LBPLUS_ZEX=1; make test-zex runs ZEXDOC, make test-long both.
func TestZexdocUnderCPM(t *testing.T) { runZexUnderCPM(t, "zexdoc.cim", "ZEXDOC") }
func TestZexallUnderCPM(t *testing.T) { runZexUnderCPM(t, "zexall.cim", "ZEXALL") }

// zexTests is how many tests ZEXDOC and ZEXALL run, each ending in OK or
// ERROR.
const zexTests = 67

// zexEmulatedLimit bounds a run in emulated time: each exerciser needs
// 46.7 G T-states, 3 h 15 min at 4 MHz.
const zexEmulatedLimit = 6 * 3600 * sched.Second

func runZexUnderCPM(t *testing.T, cim, com string) {
	if os.Getenv("LBPLUS_ZEX") != "1" {
		t.Skip("a full exerciser run on the board takes minutes; run by make test-zex or test-long (LBPLUS_ZEX=1)")
	}
	t.Parallel()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/koron-go/z80").Output()
	require.NoError(t, err)
	prog, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "cmd", "zexdoc", cim))
	require.NoError(t, err, "%s (a CP/M .COM image) in the koron module", cim)

	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	putFile(t, path, com+".COM", prog)

	r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}})
	require.NoError(t, r.ty.WaitFor("A>"))
	// The board runs on this goroutine: its OS thread's CPU time is the
	// run's, whatever else the host is doing.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, host, cpu := r.b.Now(), time.Now(), hostcpu.Thread()
	require.NoError(t, r.ty.Type(com+"\r"))
	r.ty.Limit = zexEmulatedLimit
	require.NoError(t, r.ty.WaitFor("Tests complete"))
	require.NoError(t, r.ty.WaitFor("A>"), "the exerciser ends with a warm boot to the prompt")
	sim := r.b.Now() - start
	cpu = hostcpu.Thread() - cpu
	t.Logf("%s under CP/M: %.0f s emulated at 4 MHz in %v host, %v of CPU (%.0fx real time per CPU second)", com,
		float64(sim)/float64(sched.Second), time.Since(host).Round(time.Second), cpu.Round(time.Second),
		float64(sim)/float64(sched.Second)/cpu.Seconds())
	got := r.tr.String()
	assert.NotContains(t, got, "ERROR")
	assert.Equal(t, zexTests, strings.Count(got, "OK"), "every test passes: %s", got)
}
