package z80host_test

import (
	"fmt"

	"github.com/lbplus/lbplus/z80host"
)

// board is the smallest Bus: 64 KB of RAM and one output port.
type board struct{ mem [65536]uint8 }

func (b *board) Fetch(a uint16, t uint64) uint8     { return b.mem[a] }
func (b *board) Read(a uint16, t uint64) uint8      { return b.mem[a] }
func (b *board) Write(a uint16, v uint8, t uint64)  { b.mem[a] = v }
func (b *board) In(p uint16, t uint64) (uint8, int) { return 0xff, 0 }
func (b *board) Out(p uint16, v uint8, t uint64) int {
	fmt.Printf("T=%d OUT port %04Xh value %02Xh\n", t, p, v)
	return 0
}

func Example() {
	b := &board{}
	// LD B,3; loop: LD A,B; OUT (80h),A; DJNZ loop; HALT
	copy(b.mem[:], []uint8{0x06, 0x03, 0x78, 0xd3, 0x80, 0x10, 0xfb, 0x76})
	cpu := z80host.New(b)
	cpu.Run(200)
	fmt.Println("halted:", cpu.Halted(), "PC:", cpu.PC())
	// Output:
	// T=18 OUT port 0380h value 03h
	// T=46 OUT port 0280h value 02h
	// T=74 OUT port 0180h value 01h
	// halted: true PC: 8
}
