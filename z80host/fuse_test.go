package z80host

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The Z80 core test vectors of the Fuse emulator (tests.in and
// tests.expected from its z80/tests directory; GPL data, so they are read
// from beside the repository at run time and never copied into it).
const fuseDir = "../../shared/testdata/fuse-z80"

// fuseSkip lists vectors not compared, with the reason. Empty: every vector
// in the set is checked.
var fuseSkip = map[string]string{}

type fuseRegs struct {
	r     Regs
	tstat uint64
}

type fuseMem struct {
	addr uint16
	data []uint8
}

type fuseIn struct {
	name string
	regs fuseRegs
	mem  []fuseMem
}

type fuseOut struct {
	events []string
	regs   fuseRegs
	mem    []fuseMem
}

func hex16(t *testing.T, s string) uint16 {
	v, err := strconv.ParseUint(s, 16, 16)
	require.NoError(t, err, s)
	return uint16(v)
}

func parseRegs(t *testing.T, l1, l2 string) fuseRegs {
	f := strings.Fields(l1)
	g := strings.Fields(l2)
	require.Len(t, f, 13, l1)
	require.Len(t, g, 7, l2)
	var r Regs
	p := []*uint16{&r.AF, &r.BC, &r.DE, &r.HL, &r.AltAF, &r.AltBC, &r.AltDE, &r.AltHL, &r.IX, &r.IY, &r.SP, &r.PC, &r.MEMPTR}
	for i, s := range f {
		*p[i] = hex16(t, s)
	}
	r.I = uint8(hex16(t, g[0]))
	r.R = uint8(hex16(t, g[1]))
	r.IFF1 = g[2] != "0"
	r.IFF2 = g[3] != "0"
	im, _ := strconv.Atoi(g[4])
	r.IM = im
	r.Halted = g[5] != "0"
	ts, err := strconv.ParseUint(g[6], 10, 64)
	require.NoError(t, err)
	return fuseRegs{r, ts}
}

func parseMemLine(t *testing.T, l string) fuseMem {
	f := strings.Fields(l)
	m := fuseMem{addr: hex16(t, f[0])}
	for _, s := range f[1:] {
		if s == "-1" {
			break
		}
		m.data = append(m.data, uint8(hex16(t, s)))
	}
	return m
}

func readLines(t *testing.T, name string) []string {
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	var ls []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ls = append(ls, sc.Text())
	}
	require.NoError(t, sc.Err())
	return ls
}

func parseFuseIn(t *testing.T, name string) []fuseIn {
	ls := readLines(t, name)
	var out []fuseIn
	for i := 0; i < len(ls); {
		if strings.TrimSpace(ls[i]) == "" {
			i++
			continue
		}
		if ls[i] == "-1" {
			break
		}
		tc := fuseIn{name: ls[i]}
		tc.regs = parseRegs(t, ls[i+1], ls[i+2])
		i += 3
		for ls[i] != "-1" {
			tc.mem = append(tc.mem, parseMemLine(t, ls[i]))
			i++
		}
		i++
		out = append(out, tc)
	}
	return out
}

func parseFuseExpected(t *testing.T, name string) map[string]fuseOut {
	ls := readLines(t, name)
	out := map[string]fuseOut{}
	for i := 0; i < len(ls); {
		if strings.TrimSpace(ls[i]) == "" {
			i++
			continue
		}
		n := ls[i]
		i++
		var e fuseOut
		for strings.HasPrefix(ls[i], " ") {
			f := strings.Fields(ls[i])
			i++
			if f[1] == "MC" || f[1] == "PC" {
				continue
			}
			e.events = append(e.events, strings.Join(f, " "))
		}
		e.regs = parseRegs(t, ls[i], ls[i+1])
		i += 2
		for i < len(ls) && strings.TrimSpace(ls[i]) != "" {
			e.mem = append(e.mem, parseMemLine(t, ls[i]))
			i++
		}
		out[n] = e
	}
	return out
}

// fuseBus is flat RAM that logs accesses in the FUSE format: memory events
// are stamped at the end of their 3 T (4 T for M1) cycle, port events one
// T-state after the start of the I/O cycle, as the FUSE harness does. Port
// reads return the high byte of the address.
type fuseBus struct {
	mem    [65536]uint8
	events []string
}

func (b *fuseBus) Fetch(a uint16, t uint64) uint8 {
	b.events = append(b.events, fmt.Sprintf("%d MR %04x %02x", t+4, a, b.mem[a]))
	return b.mem[a]
}
func (b *fuseBus) Read(a uint16, t uint64) uint8 {
	b.events = append(b.events, fmt.Sprintf("%d MR %04x %02x", t+3, a, b.mem[a]))
	return b.mem[a]
}
func (b *fuseBus) Write(a uint16, v uint8, t uint64) {
	b.events = append(b.events, fmt.Sprintf("%d MW %04x %02x", t+3, a, v))
	b.mem[a] = v
}
func (b *fuseBus) In(p uint16, t uint64) (uint8, int) {
	b.events = append(b.events, fmt.Sprintf("%d PR %04x %02x", t+1, p, p>>8))
	return uint8(p >> 8), 0
}
func (b *fuseBus) Out(p uint16, v uint8, t uint64) int {
	b.events = append(b.events, fmt.Sprintf("%d PW %04x %02x", t+1, p, v))
	return 0
}

func fuseRun(tc fuseIn) (*CPU, *fuseBus) {
	b := &fuseBus{}
	for _, m := range tc.mem {
		copy(b.mem[m.addr:], m.data)
	}
	c := New(b)
	c.SetRegs(tc.regs.r)
	for c.T() < tc.regs.tstat {
		c.Step()
	}
	return c, b
}

// pagedFuseBus serves all of memory from pages, so that Run takes its fast
// paths; only port accesses reach the Bus and are logged.
type pagedFuseBus struct {
	fuseBus
	rp [256]*[256]byte
}

func (b *pagedFuseBus) MemoryPages() (r, w *[256]*[256]byte) { return &b.rp, &b.rp }

// flatFuseBus also says that its pages are one array (FlatMemory).
type flatFuseBus struct{ pagedFuseBus }

func (b *flatFuseBus) FlatMemory() *[65536]byte { return &b.mem }

func fuseRunPaged(tc fuseIn, flat bool) (*CPU, *fuseBus) {
	b := &flatFuseBus{}
	for _, m := range tc.mem {
		copy(b.mem[m.addr:], m.data)
	}
	for p := range b.rp {
		b.rp[p] = (*[256]byte)(b.mem[p*256 : p*256+256])
	}
	var c *CPU
	if flat {
		c = New(b)
	} else {
		c = New(&b.pagedFuseBus)
	}
	c.SetRegs(tc.regs.r)
	c.Run(tc.regs.tstat)
	if (c.flat != nil) != flat {
		panic("fuseRunPaged: flat memory not as asked")
	}
	return c, &b.fuseBus
}

// portEvents keeps the PR and PW events of a FUSE event list.
func portEvents(events []string) []string {
	var out []string
	for _, e := range events {
		if f := strings.Fields(e); len(f) > 1 && (f[1] == "PR" || f[1] == "PW") {
			out = append(out, e)
		}
	}
	return out
}

func fuseCompare(tc fuseIn, want fuseOut, c *CPU, b *fuseBus) []string {
	var diffs []string
	got := c.Regs()
	w := want.regs.r
	// The vectors do not carry the internal latches.
	got.Q, got.EIShadow, got.LDAIR = 0, false, false
	if m := fuseRepeatMask(tc.name); m != 0 && got.PC == tc.regs.r.PC {
		// The vectors predate the 2018 analysis of interrupted block
		// instructions (docs/HARDWARE.md 2.4) and keep the per-byte flags
		// on a repeating iteration; TestRepeatingBlockFlags checks what
		// z80host does there. Everything else is compared.
		got.AF &^= m
		w.AF &^= m
		if m != 0x28 {
			got.MEMPTR, w.MEMPTR = 0, 0
		}
	}
	if got.Halted {
		// FUSE leaves PC on the HALT opcode, z80host after it.
		got.PC--
	}
	if got != w {
		diffs = append(diffs, fmt.Sprintf("regs got  %+v\n          want %+v", got, w))
	}
	if c.T() != want.regs.tstat {
		diffs = append(diffs, fmt.Sprintf("T got %d want %d", c.T(), want.regs.tstat))
	}
	// The FUSE harness charges the displacement of a JR cc/DJNZ that is not
	// taken as contention only and logs no MR event; the Z80 does read it
	// (M2, 3 T) and z80host presents that read to the bus. Such an extra
	// read is accepted; every other event must match exactly.
	inWant := map[string]bool{}
	for _, e := range want.events {
		inWant[e] = true
	}
	var events []string
	for _, e := range b.events {
		var tt int
		var kind string
		var a uint16
		fmt.Sscanf(e, "%d %s %x", &tt, &kind, &a)
		if !inWant[e] && kind == "MR" {
			switch b.mem[a-1] {
			case 0x10, 0x20, 0x28, 0x30, 0x38:
				continue
			}
		}
		events = append(events, e)
	}
	if strings.Join(events, "\n") != strings.Join(want.events, "\n") {
		diffs = append(diffs, fmt.Sprintf("events got\n%s\nwant\n%s", strings.Join(b.events, "\n"), strings.Join(want.events, "\n")))
	}
	for _, m := range want.mem {
		for i, v := range m.data {
			a := m.addr + uint16(i)
			if b.mem[a] != v {
				diffs = append(diffs, fmt.Sprintf("mem %04x got %02x want %02x", a, b.mem[a], v))
			}
		}
	}
	if c.Mismatches != 0 {
		diffs = append(diffs, fmt.Sprintf("%d accesses did not fit the cycle table", c.Mismatches))
	}
	return diffs
}

// TestFUSE runs every vector instruction by instruction with Step on a
// Bus that sees every access; TestFUSEThroughRun runs them with Run, all
// memory on pages, which is how the board runs them, and
// TestFUSEThroughRunFlat with the pages one flat array.
func TestFUSE(t *testing.T) { testFUSE(t, fuseStep) }

func TestFUSEThroughRun(t *testing.T) { testFUSE(t, fusePaged) }

func TestFUSEThroughRunFlat(t *testing.T) { testFUSE(t, fuseFlat) }

const (
	fuseStep = iota
	fusePaged
	fuseFlat
)

func testFUSE(t *testing.T, how int) {
	in := filepath.Join(fuseDir, "tests.in")
	if _, err := os.Stat(in); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("FUSE vectors absent under CI: %v", err)
		}
		t.Skipf("FUSE vectors absent (%v); they live in ../shared beside the repository", err)
	}
	tests := parseFuseIn(t, in)
	want := parseFuseExpected(t, filepath.Join(fuseDir, "tests.expected"))
	pass, fail, skip := 0, 0, 0
	for _, tc := range tests {
		if why, ok := fuseSkip[tc.name]; ok {
			t.Logf("skip %s: %s", tc.name, why)
			skip++
			continue
		}
		w, ok := want[tc.name]
		require.True(t, ok, "no expected result for %s", tc.name)
		var c *CPU
		var b *fuseBus
		if how == fuseStep {
			c, b = fuseRun(tc)
		} else {
			c, b = fuseRunPaged(tc, how == fuseFlat)
			w.events = portEvents(w.events)
		}
		if d := fuseCompare(tc, w, c, b); len(d) > 0 {
			fail++
			if fail <= 40 {
				t.Errorf("%s:\n%s", tc.name, strings.Join(d, "\n"))
			}
			continue
		}
		pass++
	}
	t.Logf("FUSE vectors: %d pass, %d fail, %d skipped of %d", pass, fail, skip, len(tests))
}

// fuseRepeatMask returns the F bits a repeating iteration of the block
// instruction the vector tests changes beyond the per-byte flags: 5 and 3
// for LDxR/CPxR, also H and P/V (and MEMPTR) for the I/O forms.
func fuseRepeatMask(name string) uint16 {
	if len(name) < 4 || name[:3] != "edb" {
		return 0
	}
	switch name[3] {
	case '0', '1', '8', '9':
		return 0x28
	case '2', '3', 'a', 'b':
		return 0x3c
	}
	return 0
}
