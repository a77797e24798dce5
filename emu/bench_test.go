package emu_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/koron-go/z80"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/z80host"
)

// peerDir holds the peer workload, a benchmark program kept beside the
// repository, not in it.
var peerDir = filepath.Join("..", "..", "shared", "bench")

// needPeer fails the test under CI (CI=true) when the peer workload is
// missing, and skips it elsewhere.
func needPeer(tb testing.TB) {
	tb.Helper()
	src := filepath.Join(peerDir, "peer-workload.asm")
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("peer workload absent under CI: %v", err)
		}
		tb.Skipf("peer workload absent: %v", err)
	}
}

// peerROM assembles the peer workload (W = 1 simple, 2 mixed) with lbplus's
// assembler, or with pasmo if that fails.
func peerROM(tb testing.TB, w int) []byte {
	needPeer(tb)
	src := filepath.Join(peerDir, "peer-workload.asm")
	defs := map[string]int64{"W": int64(w), "REP": 1, "N": 21000}
	r, err := asm.Assemble(os.DirFS(peerDir), "peer-workload.asm", asm.Options{Defines: defs})
	if err == nil {
		return r.Bytes
	}
	pasmo, perr := exec.LookPath("pasmo")
	if perr != nil {
		tb.Skipf("github.com/lbplus/lbplus/asm failed (%v) and pasmo is absent", err)
	}
	out := filepath.Join(tb.TempDir(), "peer.bin")
	cmd := exec.Command(pasmo, "-E", fmt.Sprintf("W=%d", w), "-E", "REP=1", "-E", "N=21000", src, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("pasmo: %v\n%s", err, msg)
	}
	rom, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	return rom
}

type koronIO struct{}

func (koronIO) In(uint8) uint8   { return 0xFF }
func (koronIO) Out(uint8, uint8) {}

// tPerInstruction measures the workload's mean T-states per instruction on
// z80host, to express koron's instruction rate in T-states.
func tPerInstruction(rom []byte) float64 {
	bus := &bench.FlatBus{}
	copy(bus.M[:], rom)
	cpu := z80host.New(bus)
	const n = 2_000_000
	var t int
	for i := 0; i < n; i++ {
		t += cpu.Step()
	}
	return float64(t) / n
}

// sliceT is the simulated time one benchmark iteration runs: 10 ms = 40 000 T.
const sliceT = 10 * sched.Millisecond

// BenchmarkPeerWorkload runs the peer workload (peerDir) on the board and
// reports emulated T-states per host second in millions (a real 4 MHz Z80
// is 4): "board-MT/s" for the whole board, "z80host-MT/s" for the timed CPU
// on a bare bus with the same memory map, "koron-MT/s" for koron-go/z80's
// bare Step loop on the same code. In "ram" the workload runs from RAM with
// the ROM switched out (flat memory, as CP/M runs), in "rom" from the ROM
// overlay (as the boot ROM runs). Each iteration runs 10 ms of simulated
// time on all three, interleaved, so host load (the machine is shared)
// hits them alike; "board/koron" is the ratio of the rates. The "-cpu" ratios divide by each
// part's CPU time on this thread instead, which other processes do not
// inflate: "board/z80host-cpu" is the board's cost over the bare timed CPU
// (the goal: at most 5 %), "z80host/koron-cpu" the timed CPU's over koron.
func BenchmarkPeerWorkload(b *testing.B) {
	for _, w := range []int{1, 2} {
		for _, where := range []string{"ram", "rom"} {
			b.Run(fmt.Sprintf("W%d-%s", w, where), func(b *testing.B) {
				benchPeer(b, peerROM(b, w), where == "ram")
			})
		}
	}
}

func benchPeer(b *testing.B, rom []byte, inRAM bool) {
	board, err := emu.New(emu.DefaultConfig(rom))
	if err != nil {
		b.Fatal(err)
	}
	if inRAM {
		board.LoadRAM(0, rom)
		board.Out(0x00, emu.LatchRAM, board.CPU().T())
	}
	bare := &bench.FlatBus{Flat: inRAM}
	copy(bare.M[:], rom)
	host := z80host.New(bare)
	ratio := tPerInstruction(rom)
	steps := int(float64(sliceT/sched.TState) / ratio)
	kmem := &bench.FlatBus{}
	copy(kmem.M[:], rom)
	kcpu := &z80.CPU{Memory: kmem, IO: koronIO{}}
	limit := uint64(sliceT / sched.TState)
	var tBoard, tHost, tKoron, cBoard, cHost, cKoron time.Duration
	b0, h0 := board.CPU().T(), host.T()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), hostcpu.Thread()
		if err := board.RunFor(sliceT); err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), hostcpu.Thread()
		host.Run(host.T() + limit)
		t2, c2 := time.Now(), hostcpu.Thread()
		for j := 0; j < steps; j++ {
			kcpu.Step()
		}
		t3, c3 := time.Now(), hostcpu.Thread()
		tBoard += t1.Sub(t0)
		tHost += t2.Sub(t1)
		tKoron += t3.Sub(t2)
		cBoard += c1 - c0
		cHost += c2 - c1
		cKoron += c3 - c2
	}
	boardRate := float64(board.CPU().T()-b0) / tBoard.Seconds() / 1e6
	koronRate := float64(b.N) * float64(steps) * ratio / tKoron.Seconds() / 1e6
	b.ReportMetric(boardRate, "board-MT/s")
	b.ReportMetric(float64(host.T()-h0)/tHost.Seconds()/1e6, "z80host-MT/s")
	b.ReportMetric(koronRate, "koron-MT/s")
	b.ReportMetric(boardRate/koronRate, "board/koron")
	if cBoard > 0 && cHost > 0 && cKoron > 0 {
		perCPU := func(t uint64, d time.Duration) float64 { return float64(t) / d.Seconds() }
		boardC := perCPU(board.CPU().T()-b0, cBoard)
		hostC := perCPU(host.T()-h0, cHost)
		koronC := float64(b.N) * float64(steps) * ratio / cKoron.Seconds()
		b.ReportMetric(boardC/hostC, "board/z80host-cpu")
		b.ReportMetric(hostC/koronC, "z80host/koron-cpu")
	}
}

// The peer workload's T-state count is exact (no data-dependent branches),
// so the T-state of its 'D' output is known from the Z80 manual's counts:
// 44 T of set-up, N x 9556 T (W1 outer loop: PUSH 11, CALL 17, w1 9494, POP
// 10, DEC DE 6, LD 4, OR 4, JP 10), 38 T to LD A,'D', and the OUT's I/O
// cycle starts 7 T into the instruction.
func TestPeerWorkloadTiming(t *testing.T) {
	needPeer(t)
	const n = 100
	r, err := asm.Assemble(os.DirFS(peerDir), "peer-workload.asm",
		asm.Options{Defines: map[string]int64{"W": 1, "REP": 1, "N": n}})
	if err != nil {
		t.Fatal(err)
	}
	board, err := emu.New(emu.DefaultConfig(r.Bytes))
	if err != nil {
		t.Fatal(err)
	}
	var outs []uint64
	board.ObserveIO(func(tt uint64, port uint16, v uint8, out bool) {
		if out && uint8(port) == 0x80 && v == 'D' {
			outs = append(outs, tt)
		}
	})
	if err := board.RunFor(2 * n * 9556 * sched.TState); err != nil {
		t.Fatal(err)
	}
	if len(outs) < 1 {
		t.Fatal("no 'D' written")
	}
	if want := uint64(44 + n*9556 + 38 + 7); outs[0] != want {
		t.Errorf("first 'D' at T %d, want %d", outs[0], want)
	}
}

// BenchmarkMonitorIdle is the board at the monitor prompt: the ROM polls the
// DART's RR0 in a tight loop, so every few T-states is an I/O access that
// brings the scheduler and the DART up to date.
func BenchmarkMonitorIdle(b *testing.B) {
	board, _ := newMonitorBoard(b)
	if err := board.RunFor(100 * sched.Millisecond); err != nil {
		b.Fatal(err)
	}
	t0 := board.CPU().T()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := board.RunFor(sliceT); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(board.CPU().T()-t0)/b.Elapsed().Seconds()/1e6, "MT/s")
}

// BenchmarkBackupRow runs the story's best row (burst-hd3-8Kx1-tape3, 4 tape
// blocks) with every device active: the board with the 5380, the ACB-4000
// and the MCD-403 on SCSI, BACKUP in RAM. It reports emulated T-states per
// host second ("board-MT/s") and, interleaved with each run so host load
// hits both alike, koron-go/z80's bare Step loop on the peer workload for
// about as many T-states ("koron-MT/s"); "board/koron" is the ratio to
// compare across runs on a shared machine. The "-cpu" metrics divide by
// the process's CPU time instead of wall time, which other processes'
// load on a shared machine does not inflate.
func BenchmarkBackupRow(b *testing.B) {
	row, err := bench.FindRow("burst-hd3-8Kx1-tape3", 4)
	if err != nil {
		b.Fatal(err)
	}
	rom := peerROM(b, 1)
	ratio := tPerInstruction(rom)
	kmem := &bench.FlatBus{}
	copy(kmem.M[:], rom)
	kcpu := &z80.CPU{Memory: kmem, IO: koronIO{}}
	dir := b.TempDir()
	var tBoard, tKoron time.Duration
	var cBoard, cKoron float64
	var tstates uint64
	var ksteps int
	for b.Loop() {
		t0, c0 := time.Now(), hostcpu.Process()
		r, err := bench.Run(row.Setup, bench.Options{Dir: dir})
		if err != nil || r.Failed != "" {
			b.Fatal(err, r.Failed)
		}
		t1, c1 := time.Now(), hostcpu.Process()
		steps := int(float64(r.TStates) / ratio)
		for j := 0; j < steps; j++ {
			kcpu.Step()
		}
		t2, c2 := time.Now(), hostcpu.Process()
		tBoard += t1.Sub(t0)
		tKoron += t2.Sub(t1)
		cBoard += c1 - c0
		cKoron += c2 - c1
		tstates += r.TStates
		ksteps += steps
	}
	kT := float64(ksteps) * ratio
	boardRate := float64(tstates) / tBoard.Seconds() / 1e6
	koronRate := kT / tKoron.Seconds() / 1e6
	b.ReportMetric(boardRate, "board-MT/s")
	b.ReportMetric(koronRate, "koron-MT/s")
	b.ReportMetric(boardRate/koronRate, "board/koron")
	if cBoard > 0 && cKoron > 0 {
		bc, kc := float64(tstates)/cBoard/1e6, kT/cKoron/1e6
		b.ReportMetric(bc, "board-MT/cpu-s")
		b.ReportMetric(kc, "koron-MT/cpu-s")
		b.ReportMetric(bc/kc, "board/koron-cpu")
	}
}
