// Package cpuload holds CPULOAD, the CPU-bound Z80 workload of `lbplus
// bench speed` (bench.Speed): a boot ROM that loops for ever over a
// "simple" body (W1: loads and ALU operations) or a "mixed" one (W2:
// IY-indexed accesses, CB and ED instructions, EX (SP),HL, EXX, calls,
// LDIR), with no I/O, so the board's devices stay idle. No branch depends
// on data, so its T-state count is exact (Pass, First); the pass count is
// a 16-bit word at Count.
//
// Known inaccuracies / assumptions: none; it models nothing.
package cpuload

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/lbplus/lbplus/asm"
)

//go:embed cpuload.asm
var source string

// Count is the address of the 16-bit pass count.
const Count = 0xF000

// Pass is the T-states of one pass of the loop for W1 and W2 (the body,
// its CALL and the count's update); First is the T-state at which the
// first pass writes its count's low byte (1).
var (
	Pass  = [3]uint64{1: 10074, 2: 7998}
	First = [3]uint64{1: 10098, 2: 8022}
)

var build = [3]func() (*asm.Result, error){}

func init() {
	for w := 1; w <= 2; w++ {
		build[w] = sync.OnceValues(func() (*asm.Result, error) {
			return asm.AssembleString(source, asm.Options{Defines: map[string]int64{"W": int64(w)}})
		})
	}
}

// ROM assembles the workload (w = 1 simple, 2 mixed) as a boot ROM at 0,
// once per process; callers must not modify the bytes.
func ROM(w int) ([]byte, error) {
	if w != 1 && w != 2 {
		return nil, fmt.Errorf("cpuload: no workload W%d (1 simple, 2 mixed)", w)
	}
	r, err := build[w]()
	if err != nil {
		return nil, fmt.Errorf("cpuload: %w", err)
	}
	return r.Bytes, nil
}
