package emu_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/internal/golden"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
)

func assemble(t testing.TB, file string, defines map[string]int64) []byte {
	t.Helper()
	r, err := asm.Assemble(os.DirFS("testdata"), file, asm.Options{Defines: defines})
	require.NoError(t, err)
	return r.Bytes
}

func newMonitorBoard(t testing.TB) (*emu.Board, *console.Transcript) {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = tr.Out
	b, err := emu.New(cfg)
	require.NoError(t, err)
	return b, tr
}

// A session at the monitor, typed at 9615 baud one command after each
// prompt, with an Intel HEX file pasted in one go.
var session = []string{
	"H",
	"D 8000 30",
	"S 9000 DB 84 E6 04 28 FA 3E 41 D3 80 C9", // wait for TBE, send 'A', RET
	"DX\b 9000 8",
	"G 9000",
	":08A00000010203040506070834\r:08A0080041424344454647482C\r:00000001FF",
	"D A000 10",
	"I 29",
	"O 1 55",
	"S A000 zz",
	":08A00000010203040506070835",
	"X",
}

func runSession(t testing.TB, b *emu.Board, tr *console.Transcript) {
	t.Helper()
	ty := &console.Typist{B: b, T: tr}
	// A key typed while the ROM boots enters the monitor.
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" "))
	for _, cmd := range session {
		require.NoError(t, ty.Command("> ", cmd))
	}
	require.NoError(t, ty.WaitFor("> "))
}

func TestMonitorSessionGolden(t *testing.T) {
	b, tr := newMonitorBoard(t)
	runSession(t, b, tr)
	got := tr.String()
	golden.Equal(t, "monitor_session.golden", []byte(got))
	assert.Equal(t, uint8(0x55), b.PrinterData(), "O 1 55 reached the printer latch")
	assert.Contains(t, got, "0010 bytes loaded")

	// Characters leave back to back at the baud rate the ROM programmed:
	// 10 bits x 16 clocks x 13 x 500 ns = 1.04 ms, never closer.
	minGap := sched.MaxTime
	for i := 1; i < len(tr.Times); i++ {
		minGap = min(minGap, tr.Times[i]-tr.Times[i-1])
	}
	assert.Equal(t, 1040*sched.Microsecond, minGap)
}

func TestDeterministicTraceHash(t *testing.T) {
	run := func(extra string) (uint64, string, uint64) {
		b, tr := newMonitorBoard(t)
		runSession(t, b, tr)
		if extra != "" {
			ty := &console.Typist{B: b, T: tr}
			require.NoError(t, ty.Type(extra))
			require.NoError(t, ty.WaitFor("> "))
		}
		return b.TraceHash(), tr.String(), b.CPU().T()
	}
	h1, s1, t1 := run("")
	h2, s2, t2 := run("")
	assert.Equal(t, h1, h2)
	assert.Equal(t, s1, s2)
	assert.Equal(t, t1, t2)
	h3, _, _ := run("D 0 1\r")
	assert.NotEqual(t, h1, h3)
}

func TestDaisyChainPriorityAndRETI(t *testing.T) {
	tests := []struct {
		mode int64
		log  string
		why  string
	}{
		{1, "CcDd", "CTC outranks DART; CTC in service blocks DART until RETI"},
		{2, "Cc", "EI; RET leaves the CTC in service: the DART is never served"},
		{3, "DCcd", "the CTC nests inside the DART's handler"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			rom := assemble(t, "daisy.asm", map[string]int64{"MODE": tt.mode})
			b, err := emu.New(emu.DefaultConfig(rom))
			require.NoError(t, err)
			b.ConsoleInput([]byte("x"))
			require.NoError(t, b.RunFor(30*sched.Millisecond))
			var log []byte
			for a := uint16(0x9000); b.RAM(a) != 0 && a < 0x9010; a++ {
				log = append(log, b.RAM(a))
			}
			assert.Equal(t, tt.log, string(log))
		})
	}
}

func TestBadROMSize(t *testing.T) {
	for _, n := range []int{0, 100, 4095, 6144, 65536} {
		cfg := emu.DefaultConfig(make([]byte, n))
		cfg.ROMName = "odd.bin"
		_, err := emu.New(cfg)
		require.Error(t, err, "size %d", n)
		assert.Contains(t, err.Error(), "odd.bin")
		assert.Contains(t, err.Error(), "4, 8, 16 or 32 KB")
	}
	for _, n := range []int{4096, 8192, 16384, 32768} {
		_, err := emu.New(emu.DefaultConfig(make([]byte, n)))
		assert.NoError(t, err, "size %d", n)
	}
	path := filepath.Join(t.TempDir(), "short.rom")
	require.NoError(t, os.WriteFile(path, make([]byte, 3000), 0o644))
	_, err := emu.ReadROMFile(path)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), path+": ROM image is 3000 bytes"), err.Error())
	_, err = emu.ReadROMFile(filepath.Join(t.TempDir(), "missing.rom"))
	assert.ErrorContains(t, err, "missing.rom")
}

// A ROM of each size reads through the whole window 0000-7FFF, repeated
// every image size; above it is RAM.
func TestROMMirror(t *testing.T) {
	for _, n := range []int{4096, 8192, 16384, 32768} {
		rom := make([]byte, n)
		for i := range rom {
			rom[i] = byte(i>>8) ^ byte(i)
		}
		b, err := emu.New(emu.DefaultConfig(rom))
		require.NoError(t, err)
		b.LoadRAM(0x8000, []byte{0x5A})
		for a := 0; a < 0x8000; a += 0x1F3 {
			require.Equal(t, rom[a%n], b.Read(uint16(a), 0), "%d-byte ROM at %04Xh", n, a)
		}
		assert.Equal(t, uint8(0x5A), b.Read(0x8000, 0), "%d-byte ROM: RAM at 8000h", n)
	}
}

func TestROMOverlayWritesReachRAM(t *testing.T) {
	rom := make([]byte, 8192)
	for i := range rom {
		rom[i] = 0xA5
	}
	b, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	b.Write(0x0010, 0x42, 0)
	b.Write(0x2000, 0x43, 0)
	assert.Equal(t, uint8(0xA5), b.Read(0x0010, 0), "ROM read while mapped")
	assert.Equal(t, uint8(0xA5), b.Read(0x1FFF, 0))
	assert.Equal(t, uint8(0xA5), b.Read(0x2000, 0), "an 8 KB ROM repeats above itself")
	b.Write(0x8000, 0x44, 0)
	assert.Equal(t, uint8(0x44), b.Read(0x8000, 0), "above the 32 KB window: RAM")
	b.Out(0x00, 0x40, 10)
	assert.Equal(t, uint8(0x43), b.Read(0x2000, 0), "RAM beneath the mirror")
	assert.False(t, b.ROMMapped())
	assert.Equal(t, uint8(0x42), b.Read(0x0010, 0), "the write went to RAM beneath")
	b.Out(0x00, 0x00, 20)
	assert.Equal(t, uint8(0xA5), b.Fetch(0x0010, 0))
	b.Out(0x00, 0x40, 30)
	b.CPU().SetPC(0x1234)
	b.Reset()
	assert.True(t, b.ROMMapped(), "reset clears port 00")
	assert.Equal(t, uint16(0), b.CPU().PC())
	assert.Equal(t, uint8(0x42), b.RAM(0x0010), "RAM survives reset")
}

// fakeSCSI records accesses; DRQ is set by a scheduled event.
type fakeSCSI struct {
	regs    [8]uint8
	dma     []uint8
	drq     bool
	dmaRead uint8
}

func (f *fakeSCSI) Read(r int) uint8     { return f.regs[r] }
func (f *fakeSCSI) Write(r int, v uint8) { f.regs[r] = v }
func (f *fakeSCSI) DMARead() uint8       { return f.dmaRead }
func (f *fakeSCSI) DMAWrite(v uint8)     { f.dma = append(f.dma, v) }
func (f *fakeSCSI) DRQ() bool            { return f.drq }

func TestIODecode(t *testing.T) {
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.SCSIID = 3
	b, err := emu.New(cfg)
	require.NoError(t, err)
	f := &fakeSCSI{dmaRead: 0x77}
	b.SwapSCSIChip(f)

	v, _ := b.In(0x1229, 0)
	assert.Equal(t, uint8(0xFB), v, "J9: spare jumpers open, ID 3")
	b.Out(0xFF23, 0x12, 0)
	assert.Equal(t, uint8(0x12), f.regs[3], "A8-A15 ignored")
	v, _ = b.In(0x0023, 0)
	assert.Equal(t, uint8(0x12), v)
	v, w := b.In(0x28, 0)
	assert.Equal(t, uint8(0x77), v)
	assert.Zero(t, w, "hypothesis A: no wait")
	b.Out(0x28, 0x99, 0)
	assert.Equal(t, []uint8{0x99}, f.dma)
	for _, p := range []uint16{0x10, 0x2A, 0x30, 0x90, 0xC0, 0xFF} {
		v, _ := b.In(p, 0)
		assert.Equal(t, uint8(0xFF), v, "port %02x floats", p)
	}
	// CTC channel = (port >> 4) & 3: 0x5F is channel 1.
	b.Out(0x5F, 0x05, 0) // control, TC follows (stopped: counter shows TC)
	b.Out(0x5F, 0x21, 0)
	v, _ = b.In(0x50, 0)
	assert.Equal(t, uint8(0x21), v)
	// Port 00 latch.
	b.Out(0x00, 0x51, 0)
	assert.Equal(t, uint8(0x51), b.Latch())
	assert.False(t, b.ROMMapped())
}

func TestWaitOnDRQ(t *testing.T) {
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.WaitOnDRQ = true
	b, err := emu.New(cfg)
	require.NoError(t, err)
	f := &fakeSCSI{}
	b.SwapSCSIChip(f)
	// DRQ rises 10 us (40 T) in; the access starts at T 100 (25 us).
	b.Sched().At(35*sched.Microsecond, "drq", func(sched.Time) { f.drq = true })
	_, w := b.In(0x28, 100)
	assert.Equal(t, 40-emu.WaitSample, w, "WAIT until the first TW sample after DRQ")
	// With DRQ already high there is no wait.
	assert.Zero(t, b.Out(0x28, 1, 200))
}

func TestWaitOnDRQForeverHangs(t *testing.T) {
	rom := make([]byte, 4096)
	copy(rom, []byte{0xDB, 0x28, 0x18, 0xFC}) // IN A,(28h); JR -4
	cfg := emu.DefaultConfig(rom)
	cfg.WaitOnDRQ = true
	cfg.MaxWait = sched.Millisecond
	b, err := emu.New(cfg)
	require.NoError(t, err)
	err = b.RunFor(10 * sched.Millisecond)
	assert.ErrorIs(t, err, emu.ErrHung)
	assert.ErrorIs(t, b.RunFor(sched.Millisecond), emu.ErrHung, "stays hung")
	b.Reset()
	b.SwapSCSIChip(&fakeSCSI{drq: true})
	assert.NoError(t, b.RunFor(sched.Millisecond), "the reset button frees it")
}

func TestCTCTimerInterruptsWakeHALT(t *testing.T) {
	rom := assemble(t, "irq.asm", map[string]int64{"MODE": 1})
	b, err := emu.New(emu.DefaultConfig(rom))
	require.NoError(t, err)
	var tcWrite uint64
	b.ObserveIO(func(tt uint64, port uint16, v uint8, out bool) {
		if out && port&0xFF == 0x60 && v == 250 {
			tcWrite = tt
		}
	})
	require.NoError(t, b.RunFor(sched.Millisecond/2))
	require.NotZero(t, tcWrite)
	// Zero counts every 16 x 250 T = 1 ms after the time constant is
	// written; run to half-way between the 50th and the 51st.
	end := sched.Time(tcWrite+emu.IOAccessOffset)*sched.TState + 50*sched.Millisecond + sched.Millisecond/2
	require.NoError(t, b.RunFor(end-b.Now()))
	count := int(b.RAM(0x9000)) | int(b.RAM(0x9001))<<8
	assert.Equal(t, 50, count)
	assert.True(t, b.CPU().Halted(), "back in HALT between ticks")
}

func TestDARTTransmitInterrupts(t *testing.T) {
	rom := assemble(t, "irq.asm", map[string]int64{"MODE": 2})
	tr := &console.Transcript{}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = tr.Out
	b, err := emu.New(cfg)
	require.NoError(t, err)
	require.NoError(t, b.RunFor(20*sched.Millisecond))
	assert.Equal(t, "HELLO\r\n", tr.String())
	assert.Equal(t, uint8(1), b.RAM(0x9000), "the handler saw the end once")
	for i := 1; i < len(tr.Times); i++ {
		assert.Equal(t, 1040*sched.Microsecond, tr.Times[i]-tr.Times[i-1], "back to back at 9615 baud")
	}
}

// The board always has its 5380 and SCSI bus, behind ports 20-28.
func TestBoardHasNCR5380(t *testing.T) {
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.Jumpers.DRQToDCDA = true
	b, err := emu.New(cfg)
	require.NoError(t, err)
	require.NotNil(t, b.NCR5380())
	require.NotNil(t, b.SCSIBus())
	b.Out(0x21, 0x08, 0) // ICR: assert BSY
	v, _ := b.In(0x24, 10)
	assert.Equal(t, uint8(0x40), v&0x40, "CSB shows BSY through ports 21 and 24")
	b.Out(0x21, 0x00, 20)
	v, _ = b.In(0x24, 30)
	assert.Zero(t, v&0x40)
}

// A 1 KB Intel HEX file pasted in one go at 9615 baud with CR LF line ends:
// the monitor keeps pace (it never sends more than it receives) and the
// DART's FIFO never overruns.
func TestMonitorHexPasteKeepsPace(t *testing.T) {
	b, tr := newMonitorBoard(t)
	var paste strings.Builder
	want := make([]byte, 1024)
	for i := range want {
		want[i] = uint8(i*7 + i>>8)
	}
	for a := 0; a < len(want); a += 16 {
		addr := 0xB000 + a
		rec := []byte{16, uint8(addr >> 8), uint8(addr), 0}
		rec = append(rec, want[a:a+16]...)
		sum := 0
		for _, x := range rec {
			sum += int(x)
		}
		rec = append(rec, uint8(-sum))
		paste.WriteString(":")
		for _, x := range rec {
			paste.WriteString(strings.ToUpper(hex2(x)))
		}
		paste.WriteString("\r\n")
	}
	paste.WriteString(":00000001FF\r\n")
	ty := &console.Typist{B: b, T: tr}
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" "))
	require.NoError(t, ty.WaitFor("> "))
	require.NoError(t, ty.Type(paste.String()))
	require.NoError(t, ty.WaitFor("0400 bytes loaded\r\n> "))
	got := make([]byte, len(want))
	for i := range got {
		got[i] = b.RAM(uint16(0xB000 + i))
	}
	assert.Equal(t, want, got)
	assert.NotContains(t, tr.String(), "error")
}

func hex2(x uint8) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[x>>4], digits[x&15]})
}

// ZC/TO0 clocks DART channel A: the time constant sets the baud rate.
func TestCTCTimeConstantSetsConsoleBaud(t *testing.T) {
	for _, tc := range []uint8{13, 26, 52} {
		rom := make([]byte, 4096)
		rom[0] = 0x76 // HALT
		tr := &console.Transcript{}
		cfg := emu.DefaultConfig(rom)
		cfg.ConsoleOut = tr.Out
		b, err := emu.New(cfg)
		require.NoError(t, err)
		for _, w := range [][2]uint8{{0x40, 0x57}, {0x40, tc}, {0x84, 0x18}, {0x84, 4}, {0x84, 0x44}, {0x84, 5}, {0x84, 0xEA}} {
			b.Out(uint16(w[0]), w[1], 0)
		}
		b.Out(0x80, 'x', 0)
		require.NoError(t, b.RunFor(20*sched.Millisecond))
		require.Equal(t, "x", tr.String())
		// The first ZC/TO pulse after the character starts is the 1st of
		// 160 (x16, 10 bits); pulses every tc x 500 ns from the first edge.
		want := sched.Time(160*int(tc)) * sched.CTCTrigPeriod
		assert.Equal(t, want, tr.Times[0], "TC %d", tc)
	}
}

func TestStepAgreesWithRun(t *testing.T) {
	a, ta := newMonitorBoard(t)
	require.NoError(t, a.RunFor(30*sched.Millisecond))
	b, tb := newMonitorBoard(t)
	for b.Now() < a.Now() {
		_, err := b.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, a.CPU().T(), b.CPU().T())
	assert.Equal(t, a.TraceHash(), b.TraceHash())
	assert.Equal(t, ta.String(), tb.String())
	assert.NotEmpty(t, ta.String())
}

// The jumpers route the floppy controller's lines and the 5380's IRQ where
// the configuration says, and nowhere without them.
func TestJumperWires(t *testing.T) {
	count3 := func(b *emu.Board, t0 uint64) uint8 { v, _ := b.In(0x70, t0); return v }
	for _, fitted := range []bool{false, true} {
		cfg := emu.DefaultConfig(make([]byte, 4096))
		cfg.Jumpers.FDCIntrqToTRG3 = fitted
		cfg.Jumpers.FDCDrqToRIA = fitted
		cfg.Jumpers.IRQToTRG2 = fitted
		b, err := emu.New(cfg)
		require.NoError(t, err)
		b.Out(0x70, 0x57, 0) // CTC 3: counter, rising edge, TC follows, reset
		b.Out(0x70, 10, 10)
		b.Out(0x60, 0x57, 20) // CTC 2 likewise
		b.Out(0x60, 10, 30)
		for range 3 {
			b.FDCINTRQ(true)
			b.FDCINTRQ(false)
		}
		want := uint8(10)
		if fitted {
			want = 7
		}
		assert.Equal(t, want, count3(b, 40), "fitted %v: INTRQ edges counted on CTC 3", fitted)

		b.FDCDRQ(true)
		rr0, _ := b.In(0x84, 50)
		assert.Equal(t, fitted, rr0&0x10 != 0, "fitted %v: DRQ on DART RIA", fitted)

		// The 5380's IRQ output line (what the chip calls on each edge).
		if fitted {
			require.NotNil(t, b.NCR5380().OnIRQ)
			b.NCR5380().OnIRQ(true)
			b.NCR5380().OnIRQ(false)
			v, _ := b.In(0x60, 60)
			assert.Equal(t, uint8(9), v, "IRQ edge counted on CTC 2")
		} else {
			assert.Nil(t, b.NCR5380().OnIRQ)
		}
	}
}

// ZC/TO2 -> TRG3 on the board: CTC 3 counts CTC 2's zero counts.
func TestJumperTO2ToTRG3(t *testing.T) {
	cfg := emu.DefaultConfig(make([]byte, 4096))
	cfg.Jumpers.TO2ToTRG3 = true
	b, err := emu.New(cfg)
	require.NoError(t, err)
	b.Out(0x60, 0x07, 0) // CTC 2: timer, prescaler 16, TC follows, reset
	b.Out(0x60, 10, 10)  // ZC/TO2 every 160 T from T 11
	b.Out(0x70, 0x57, 20)
	b.Out(0x70, 100, 30)
	v, _ := b.In(0x70, 11+160*7+100)
	assert.Equal(t, uint8(93), v, "seven zero counts of CTC 2")
}

// TestTypeAheadWhileMonitorPrints: a command typed while the monitor is
// still printing the previous one's output reaches it whole: the console
// terminal keeps pace with the program instead of overrunning the DART.
func TestTypeAheadWhileMonitorPrints(t *testing.T) {
	b, tr := newMonitorBoard(t)
	ty := &console.Typist{B: b, T: tr, Limit: 60 * sched.Second}
	require.NoError(t, ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, ty.Type(" "))
	require.NoError(t, ty.WaitFor("> "))
	b.ConsoleInput([]byte("D 0 200\rD 8000 10\r"))
	require.NoError(t, ty.WaitFor("D 8000 10"), "the second command arrived intact")
	require.NoError(t, ty.WaitFor("8000"))
}
