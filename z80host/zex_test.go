package z80host

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
)

// ramBus is 64 KB of RAM exposed as pages of one array (the fast path,
// flat) with a port space that returns 0xFF.
type ramBus struct {
	mem          [65536]byte
	rpage, wpage [256]*[256]byte
}

func newRAMBus() *ramBus {
	b := &ramBus{}
	for i := range b.rpage {
		p := (*[256]byte)(b.mem[i*256 : i*256+256])
		b.rpage[i], b.wpage[i] = p, p
	}
	return b
}

func (b *ramBus) MemoryPages() (r, w *[256]*[256]byte) { return &b.rpage, &b.wpage }
func (b *ramBus) FlatMemory() *[65536]byte             { return &b.mem }
func (b *ramBus) Fetch(a uint16, t uint64) uint8       { return b.mem[a] }
func (b *ramBus) Read(a uint16, t uint64) uint8        { return b.mem[a] }
func (b *ramBus) Write(a uint16, v uint8, t uint64)    { b.mem[a] = v }
func (b *ramBus) In(p uint16, t uint64) (uint8, int)   { return 0xff, 0 }
func (b *ramBus) Out(p uint16, v uint8, t uint64) int  { return 0 }
func (b *ramBus) load(a uint16, data []byte) {
	for i, v := range data {
		b.Write(a+uint16(i), v, 0)
	}
}

// cpmShim is a CP/M environment just big enough for ZEXDOC/ZEXALL: BDOS
// functions 2 (console output) and 9 (print string) at 0005h, and warm boot
// (jump to 0000h) ends the run.
type cpmShim struct {
	c   *CPU
	b   *ramBus
	out strings.Builder
}

func (s *cpmShim) BeforeInstruction(pc uint16, t uint64) bool {
	switch pc {
	case 0x0000:
		return true
	case 0x0005:
		bdosPrint(s.c.Regs(), s.b.mem[:], &s.out)
	}
	return false
}

// bdosPrint carries out the two BDOS functions ZEX calls: 2 (print E) and
// 9 (print the string at DE up to '$').
func bdosPrint(r Regs, mem []byte, out *strings.Builder) {
	switch uint8(r.BC) {
	case 2:
		out.WriteByte(uint8(r.DE))
	case 9:
		for a := r.DE; mem[a] != '$'; a++ {
			out.WriteByte(mem[a])
		}
	}
}

func zexPath(t *testing.T, name string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/koron-go/z80").Output()
	require.NoError(t, err)
	return filepath.Join(strings.TrimSpace(string(out)), "cmd", "zexdoc", name)
}

// zexMode is how a ZEX run reaches its BDOS shim and which memory path
// it takes.
type zexMode int

const (
	// zexHook: the shim is a Hook (cpmShim), so every instruction goes
	// through Run's general path.
	zexHook zexMode = iota
	// zexFlat and zexPaged: no Hook; the BDOS call and the warm boot are
	// OUT instructions (zexBus), so Run takes its no-Bus loop, on one
	// flat array or on pages that are not one array (as the ROM overlay).
	zexFlat
	zexPaged
)

// zexBus is ramBus whose BDOS (FE00h: OUT (FEh),A; RET) prints through
// port FEh and whose warm boot (0000h: OUT (FFh),A; HALT) stops Run. With
// paged set it does not say its pages are one array.
type zexBus struct {
	ramBus
	c     *CPU
	paged bool
	out   strings.Builder
	done  bool
}

func (b *zexBus) FlatMemory() *[65536]byte {
	if b.paged {
		return nil
	}
	return &b.mem
}

func (b *zexBus) Out(p uint16, v uint8, t uint64) int {
	switch uint8(p) {
	case 0xfe:
		bdosPrint(b.c.Regs(), b.mem[:], &b.out)
	case 0xff:
		b.done = true
		b.c.SetLimit(0)
	}
	return 0
}

func runZex(t *testing.T, name string, mode zexMode) {
	// A full run takes one to two minutes of CPU, so it runs only in its
	// own go test invocation (make test-zex, which make test and CI call)
	// and never counts against the per-package timeout of go test ./....
	// The two run in parallel so they cost one run's wall time on 2 cores.
	if os.Getenv("LBPLUS_ZEX") != "1" {
		t.Skip("full ZEXDOC/ZEXALL run takes minutes; run by make test-zex (LBPLUS_ZEX=1)")
	}
	t.Parallel()
	prog, err := os.ReadFile(zexPath(t, name))
	if err != nil {
		t.Skipf("%s not found in the koron module: %v", name, err)
	}
	zb := &zexBus{ramBus: *newRAMBus(), paged: mode == zexPaged}
	b := &zb.ramBus
	for i := range b.rpage { // the copy's pages must point into the copy
		p := (*[256]byte)(b.mem[i*256 : i*256+256])
		b.rpage[i], b.wpage[i] = p, p
	}
	b.load(0x0100, prog)
	// 0005h: JP FE00h (its operand doubles as the top of the TPA that
	// ZEX reads from 0006h), FE00h: RET.
	b.load(0x0005, []byte{0xc3, 0x00, 0xfe})
	b.load(0xfe00, []byte{0xc9})
	var c *CPU
	var s *cpmShim
	if mode == zexHook {
		c = New(b)
		s = &cpmShim{c: c, b: b}
		c.Hook = s
	} else {
		b.load(0x0000, []byte{0xd3, 0xff, 0x76})
		b.load(0xfe00, []byte{0xd3, 0xfe, 0xc9})
		c = New(zb)
		zb.c = c
		require.Equal(t, mode == zexPaged, c.flat == nil, "the memory path under test")
		require.True(t, c.noBus, "the no-Bus loop")
	}
	c.SetRegs(Regs{PC: 0x0100, SP: 0xfe00})
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, cpu0 := time.Now(), hostcpu.Thread()
	// ZEXDOC and ZEXALL end after 46.7 G T-states; a run that has not warm
	// booted long after that is a failure, not a hang.
	c.Run(zexLimit)
	el, cpu := time.Since(start), hostcpu.Thread()-cpu0
	var out string
	if s != nil {
		out = s.out.String()
	} else {
		out = zb.out.String()
		assert.True(t, zb.done, "warm boot")
	}
	t.Logf("%s\n%s", name, out)
	t.Logf("%s: %d T-states (%.0f emulated s at 4 MHz) in %v wall, %v CPU; %.0f M T-states per wall s, %.0f per CPU s",
		name, c.T(), float64(c.T())/4e6, el.Round(time.Millisecond), cpu.Round(time.Millisecond),
		float64(c.T())/el.Seconds()/1e6, float64(c.T())/cpu.Seconds()/1e6)
	assert.Zero(t, c.Mismatches)
	assert.Less(t, c.T(), uint64(zexLimit), "did not warm boot")
	assert.Contains(t, out, "Tests complete")
	assert.NotContains(t, out, "ERROR")
}

// zexLimit bounds a ZEX run in T-states (ZEXDOC and ZEXALL each need
// 46.7 G).
const zexLimit = 100_000_000_000

func TestZexdoc(t *testing.T) { runZex(t, "zexdoc.cim", zexHook) }
func TestZexall(t *testing.T) { runZex(t, "zexall.cim", zexHook) }

// The same without a Hook: Run's no-Bus loop on flat memory and on pages.
func TestZexallFlat(t *testing.T)  { runZex(t, "zexall.cim", zexFlat) }
func TestZexdocPaged(t *testing.T) { runZex(t, "zexdoc.cim", zexPaged) }

// The page-table fast path and the Bus path must execute identically.
func TestPagesMatchBus(t *testing.T) {
	prog, err := os.ReadFile(zexPath(t, "zexall.cim"))
	if err != nil {
		t.Skipf("zexall.cim not found in the koron module: %v", err)
	}
	run := func(b *ramBus, bus Bus) (*CPU, string) {
		b.load(0x0100, prog)
		b.load(0x0005, []byte{0xc3, 0x00, 0xfe})
		b.load(0xfe00, []byte{0xc9})
		c := New(bus)
		c.SetRegs(Regs{PC: 0x0100, SP: 0xfe00})
		s := &cpmShim{c: c, b: b}
		c.Hook = s
		c.Run(30_000_000)
		return c, s.out.String()
	}
	fast := newRAMBus()
	cf, outf := run(fast, fast)
	slow := &plainBus{*newRAMBus()}
	cs, outs := run(&slow.ramBus, slow)
	assert.Equal(t, cf.Regs(), cs.Regs())
	assert.Equal(t, cf.T(), cs.T())
	assert.Equal(t, outf, outs)
	assert.True(t, fast.mem == slow.mem, "memory differs")
	assert.Zero(t, cf.Mismatches+cs.Mismatches)
	assert.Contains(t, outf, "instruction exerciser", "ZEXALL started")
}
