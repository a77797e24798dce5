package z80host

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/koron-go/z80"

	"github.com/lbplus/lbplus/internal/hostcpu"
)

// Emulated T-states per host second, z80host next to koron's bare Step on
// the same instruction stream. koron keeps no time, so its T-states are
// counted with the T-states per instruction z80host measured on the same
// program (deterministic: no I/O input, no interrupts).

// loopW1 is the peer workload's simple loop as a standalone program:
// LD HL,8000h; LD B,0; l: LD A,(HL); ADD A,B; LD (HL),A; INC HL; DJNZ l;
// JP 0 (37 T per inner iteration).
var loopW1 = []byte{
	0x21, 0x00, 0x80, 0x06, 0x00, 0x7e, 0x80, 0x77, 0x23, 0x10, 0xfa, 0xc3, 0x00, 0x00,
}

const benchChunk = 1_000_000 // T-states per benchmark op

// plainBus is ramBus without the page table: every access is a Bus call.
type plainBus struct{ ramBus }

func (b *plainBus) MemoryPages() (r, w *[256]*[256]byte) { return nil, nil }

// tPerStep measures z80host's T-states per instruction on prog.
func tPerStep(prog []byte) float64 {
	b := newRAMBus()
	b.load(0, prog)
	c := New(b)
	const steps = 200_000
	for i := 0; i < steps; i++ {
		c.Step()
	}
	return float64(c.T()) / steps
}

// rate reports emulated T-states per host second (wall clock, "MT/s") and
// per second of CPU time of the benchmark's thread ("MT/cpu-s"), which is
// the fairer comparison on a shared machine.
func rate(b *testing.B, run func() float64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	c0 := hostcpu.Thread()
	tstates := run()
	cpu := hostcpu.Thread() - c0
	b.ReportMetric(tstates/b.Elapsed().Seconds()/1e6, "MT/s")
	if cpu > 0 {
		b.ReportMetric(tstates/cpu.Seconds()/1e6, "MT/cpu-s")
	}
}

func benchZ80host(b *testing.B, bus Bus) {
	c := New(bus)
	rate(b, func() float64 {
		for i := 0; i < b.N; i++ {
			c.Run(c.T() + benchChunk)
		}
		return float64(c.T())
	})
}

func benchProgram(b *testing.B, prog []byte) {
	b.Run("z80host", func(b *testing.B) {
		bus := newRAMBus()
		bus.load(0, prog)
		benchZ80host(b, bus)
	})
	b.Run("z80host-nopages", func(b *testing.B) {
		bus := &plainBus{*newRAMBus()}
		bus.load(0, prog)
		benchZ80host(b, bus)
	})
	b.Run("koron", func(b *testing.B) {
		tps := tPerStep(prog)
		mem := make(z80.DumbMemory, 65536)
		copy(mem, prog)
		k := &z80.CPU{Memory: mem}
		steps := int(benchChunk / tps)
		rate(b, func() float64 {
			for i := 0; i < b.N; i++ {
				for j := 0; j < steps; j++ {
					k.Step()
				}
			}
			return float64(b.N*steps) * tps
		})
	})
}

func BenchmarkLoop(b *testing.B) { benchProgram(b, loopW1) }

// peerWorkload assembles the peer workload, a benchmark program kept beside
// the repository, not in it, with pasmo. Under
// CI (CI=true) a missing file fails the benchmark; elsewhere it skips.
func peerWorkload(b *testing.B, w string) []byte {
	src := "../../shared/bench/peer-workload.asm"
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") == "true" {
			b.Fatalf("peer workload absent under CI: %v", err)
		}
		b.Skipf("peer workload absent: %v", err)
	}
	pasmo, err := exec.LookPath("pasmo")
	if err != nil {
		b.Skip("pasmo not installed")
	}
	out := filepath.Join(b.TempDir(), "w.bin")
	cmd := exec.Command(pasmo, "-E", "W="+w, "-E", "REP=1", "-E", "N=21000", src, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("pasmo: %v\n%s", err, msg)
	}
	prog, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	return prog
}

func BenchmarkPeerW1(b *testing.B) { benchProgram(b, peerWorkload(b, "1")) }
func BenchmarkPeerW2(b *testing.B) { benchProgram(b, peerWorkload(b, "2")) }

// BenchmarkPeerSideBySide is the speed acceptance of z80host: the peer
// workload on z80host (page fast path, as the board uses it) and on
// koron-go/z80's bare Step loop, alternating in 1 M T-state slices inside
// one benchmark run so that host load hits both alike. Each side's rate is
// its emulated T-states per second of this thread's CPU time; "z80host/koron"
// is their ratio (the goal: at least 0.7).
func BenchmarkPeerSideBySide(b *testing.B) {
	for _, w := range []string{"1", "2"} {
		prog := peerWorkload(b, w)
		b.Run("W"+w, func(b *testing.B) {
			bus := newRAMBus()
			bus.load(0, prog)
			c := New(bus)
			tps := tPerStep(prog)
			mem := make(z80.DumbMemory, 65536)
			copy(mem, prog)
			k := &z80.CPU{Memory: mem}
			steps := int(benchChunk / tps)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var host, bare time.Duration
			t0 := c.T()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c0 := hostcpu.Thread()
				c.Run(c.T() + benchChunk)
				c1 := hostcpu.Thread()
				for j := 0; j < steps; j++ {
					k.Step()
				}
				host += c1 - c0
				bare += hostcpu.Thread() - c1
			}
			hostRate := float64(c.T()-t0) / host.Seconds() / 1e6
			bareRate := float64(b.N*steps) * tps / bare.Seconds() / 1e6
			b.ReportMetric(hostRate, "z80host-MT/cpu-s")
			b.ReportMetric(bareRate, "koron-MT/cpu-s")
			b.ReportMetric(hostRate/bareRate, "z80host/koron")
		})
	}
}
