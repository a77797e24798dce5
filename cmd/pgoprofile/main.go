// Command pgoprofile writes the CPU profile that builds of lbplus are
// optimised with (profile-guided optimisation, cmd/lbplus/default.pgo):
// what lbplus spends its time on when it is busy and when it is idle. It
// runs BACKUP on every row of `bench seed` (--passes tape blocks each),
// the board reading floppy tracks as `bench speed`'s floppy line does, and
// the idle board on roms/cpuload W1 and W2 from RAM and from the ROM
// overlay (--idle simulated seconds each). Nothing else runs in the
// profile: not koron's bare loop, which `bench speed` measures lbplus
// against. docs/PERFORMANCE.md says when to refresh it.
//
// Usage: go run ./cmd/pgoprofile [--passes N] [--idle S] FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/lbplus/lbplus/bench"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpuload"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

func main() {
	passes := flag.Int("passes", 80, "tape blocks each backup row copies")
	idle := flag.Float64("idle", 150, "simulated seconds each idle run lasts")
	flag.Parse()
	if flag.NArg() != 1 || *passes < 1 || *idle <= 0 {
		fmt.Fprintln(os.Stderr, "usage: pgoprofile [--passes N >= 1] [--idle S > 0] FILE")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *passes, sched.Time(*idle*float64(sched.Second))); err != nil {
		fmt.Fprintln(os.Stderr, "pgoprofile:", err)
		os.Exit(1)
	}
}

func run(out string, passes int, idle sched.Time) error {
	dir, err := bench.ScratchDir("")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	err = workload(dir, passes, idle)
	pprof.StopCPUProfile()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func workload(dir string, passes int, idle sched.Time) error {
	for _, r := range bench.Rows(passes) {
		res, err := bench.Run(r.Setup, bench.Options{Dir: dir})
		if err != nil {
			return err
		}
		if res.Failed != "" {
			return fmt.Errorf("%s: %s", r.Setup.Name, res.Failed)
		}
	}
	for range 4 {
		if _, err := bench.Floppy(2, fdbench.BaseLoop); err != nil {
			return err
		}
	}
	for w := 1; w <= 2; w++ {
		for _, inRAM := range []bool{true, false} {
			if err := idleBoard(w, inRAM, idle); err != nil {
				return err
			}
		}
	}
	return nil
}

func idleBoard(w int, inRAM bool, d sched.Time) error {
	rom, err := cpuload.ROM(w)
	if err != nil {
		return err
	}
	b, err := emu.New(emu.DefaultConfig(rom))
	if err != nil {
		return err
	}
	defer b.Close()
	if inRAM {
		b.LoadRAM(0, rom)
		b.Out(0x00, emu.LatchRAM, b.CPU().T())
	}
	return b.RunFor(d)
}
