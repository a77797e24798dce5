package cpmbios_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// ZEXDOC, from the koron-go/z80 module, run as a CP/M program on the
// emulated board: loaded by our CCP from the hard disk, printing through
// our BDOS and BIOS, at the board's 4 MHz. It reports the emulated and the
// host time it took. Minutes of CPU: only with LBPLUS_ZEX=1 (make test-zex).
func TestZexdocUnderCPM(t *testing.T) {
	if os.Getenv("LBPLUS_ZEX") != "1" {
		t.Skip("full ZEXDOC run takes minutes; run by make test-zex (LBPLUS_ZEX=1)")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/koron-go/z80").Output()
	require.NoError(t, err)
	prog, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "cmd", "zexdoc", "zexdoc.cim"))
	require.NoError(t, err, "zexdoc.cim (a CP/M .COM image) in the koron module")

	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	var m acb4000.Meta
	f, err := image.Open(path, &m, false)
	require.NoError(t, err)
	fs, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	require.NoError(t, fs.Write(0, "ZEXDOC.COM", prog))
	require.NoError(t, f.Close())

	r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}})
	require.NoError(t, r.ty.WaitFor("A>"))
	start, host := r.b.Now(), time.Now()
	require.NoError(t, r.ty.Type("ZEXDOC\r"))
	r.ty.Limit = 6 * 3600 * sched.Second
	require.NoError(t, r.ty.WaitFor("Tests complete"))
	sim := r.b.Now() - start
	t.Logf("ZEXDOC under CP/M: %.0f s emulated at 4 MHz in %v host (%.1fx real time)",
		float64(sim)/float64(sched.Second), time.Since(host).Round(time.Second),
		float64(sim)/float64(sched.Second)/time.Since(host).Seconds())
	got := r.tr.String()
	assert.NotContains(t, got, "ERROR")
	assert.Equal(t, 67, strings.Count(got, "OK"), "every test passes: %s", got)
}
