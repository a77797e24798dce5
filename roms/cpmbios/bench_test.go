package cpmbios_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// BenchmarkResetToPrompt is the goal "from reset to A> at maximum speed in
// under 1 s of host time": one op is a new board with the ROM and the
// default system disk (an ST-125 with our CP/M), run until the CCP
// prompts. It also reports the emulated time that takes ("sim-s": the
// ROM's 1 s wait, its floppy attempt in drive A, the 5 s pause before
// SCSI, the load) and the host CPU time per op ("cpu-s/op"): what a quiet
// host would take, as the build machine is shared and ns/op counts the
// other processes' load too.
func BenchmarkResetToPrompt(b *testing.B) {
	sys, err := cpm.System()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "hd0.img")
	if err := acb4000.Create(path, acb4000.ST125, true, 3); err != nil {
		b.Fatal(err)
	}
	var m acb4000.Meta
	f, err := image.Open(path, &m, false)
	if err != nil {
		b.Fatal(err)
	}
	if err := cpmbios.InstallHD(f, sys, cpmbios.HDConfig{Partitions: 5}, true); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	rom, err := monitor.Image()
	if err != nil {
		b.Fatal(err)
	}
	var sim sched.Time
	b.ResetTimer()
	cpu0 := hostcpu.Process()
	for i := 0; i < b.N; i++ {
		tr := &console.Transcript{}
		cfg := emu.DefaultConfig(rom)
		cfg.ConsoleOut = tr.Out
		cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
		board, err := emu.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		ok, err := board.RunUntil(func() bool { return bytes.Contains(tr.Bytes(), []byte("A>")) }, 30*sched.Second)
		if err != nil || !ok {
			b.Fatalf("no A> (%v): %q", err, tr.String())
		}
		sim = board.Now()
		board.Close()
	}
	b.ReportMetric(float64(sim)/float64(sched.Second), "sim-s")
	if cpu := hostcpu.Process() - cpu0; cpu > 0 {
		b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	}
}
