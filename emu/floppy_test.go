package emu_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/internal/hostcpu"
	"github.com/lbplus/lbplus/sched"
)

// floppyBoard is a board with the WD1772 and drive 0 holding an amp2 disk.
func floppyBoard(tb testing.TB, rom []byte) *emu.Board {
	cfg := emu.DefaultConfig(rom)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi"}, {Drive: 1}}
	b, err := emu.New(cfg)
	require.NoError(tb, err)
	f, _ := fdimage.ParseFormat("amp2")
	require.NoError(tb, b.InsertFloppyDisk(0, "amp2", f.NewDisk(0xE5), false))
	return b
}

// Port 00 drives the floppy side of the board: one-hot select (READY on
// DART DCDB follows the selected drive), side to every drive, and the FDC
// registers answer at C0-C7 (the sector register reads back, as the boot
// ROM's presence test expects).
func TestFloppyLatchAndPorts(t *testing.T) {
	b := floppyBoard(t, emu.StubROM(0))
	defer b.Close()
	d0, d1 := b.FloppyDrive(0), b.FloppyDrive(1)
	require.NotNil(t, d0)
	require.NotNil(t, d1)
	assert.Nil(t, b.FloppyDrive(2))
	b.Out(0x00, 0x51, 0) // drive 0, side 1, ROM off
	assert.Equal(t, 1, d0.Side())
	assert.Equal(t, 1, d1.Side())
	b.Out(0xC2, 0xA5, 10)
	v, _ := b.In(0xC6, 50) // 10 us later: the chip takes it after 8 us
	assert.Equal(t, uint8(0xA5), v)
	// D0 turns the motor on: the disk in drive 0 turns, READY follows two
	// index pulses later and reaches DCDB (RR0 bit 3 of channel B).
	b.Out(0xC0, 0xD0, 30)
	require.NoError(t, b.RunFor(450*sched.Millisecond))
	assert.True(t, d0.Spinning())
	assert.True(t, d0.Ready())
	assert.False(t, d1.Spinning(), "no disk in drive 1")
	rr0, _ := b.In(0x8C, b.CPU().T())
	assert.NotZero(t, rr0&0x08, "DCDB = READY of drive 0")
	b.Out(0x00, 0x42, b.CPU().T()) // drive 1: empty, not ready
	rr0, _ = b.In(0x8C, b.CPU().T())
	assert.Zero(t, rr0&0x08)
}

// With no drive cabled the WD1772 is still on the board: its sector
// register reads back (the boot ROM finds the chip), and a command on the
// selected drive A, which is not there, sees no index pulse and no TR00:
// Read Address never ends by itself and Restore steps 255 times, so a ROM
// must time out, as on the real board.
func TestFloppyNoDriveCabled(t *testing.T) {
	b, err := emu.New(emu.DefaultConfig(emu.StubROM(0)))
	require.NoError(t, err)
	defer b.Close()
	require.NotNil(t, b.FDC())
	assert.Nil(t, b.FloppyDrive(0))
	b.Out(0xC2, 0xA5, 0)
	v, _ := b.In(0xC6, 40)
	assert.Equal(t, uint8(0xA5), v, "the sector register reads back")
	b.Out(0x00, 0x41, 60) // drive A selected, ROM off
	rr0, _ := b.In(0x8C, 80)
	assert.Zero(t, rr0&0x08, "no READY on DCDB")
	b.Out(0xC0, 0xC8, 100) // Read Address, h = 1
	require.NoError(t, b.RunFor(2*sched.Second))
	st, _ := b.In(0xC4, b.CPU().T())
	assert.Equal(t, uint8(0x01), st&0x1D, "still busy after 10 revolutions' time, no RNF: status %02X", st)
	b.Out(0xC0, 0xD0, b.CPU().T()+10) // Force Interrupt ends it
	require.NoError(t, b.RunFor(sched.Millisecond))
	st, _ = b.In(0xC4, b.CPU().T())
	assert.Zero(t, st&0x01, "not busy after D0: status %02X", st)
	// Restore: 255 step pulses of 6 ms and no TR00, then the end without
	// track 0 (status bit 2 clear).
	b.Out(0xC0, 0x08, b.CPU().T()+10)
	require.NoError(t, b.RunFor(sched.Second))
	st, _ = b.In(0xC4, b.CPU().T())
	assert.NotZero(t, st&0x01, "still stepping after 1 s: status %02X", st)
	require.NoError(t, b.RunFor(sched.Second))
	st, _ = b.In(0xC4, b.CPU().T())
	assert.Equal(t, uint8(0), st&0x05, "ended without TR00 after 255 x 6 ms: status %02X", st)
}

// BenchmarkPeerWorkloadIdleFloppy runs the peer workload on a board with no
// floppy drive cabled and on one with two drives attached and idle, in
// alternating slices so host load hits both alike. An idle drive queues no
// events, so the two rates must agree within noise ("floppy/none", by wall
// time; "floppy/none-cpu" by this thread's CPU time, which other processes
// on a shared host do not inflate).
func BenchmarkPeerWorkloadIdleFloppy(b *testing.B) {
	rom := peerROM(b, 1)
	plain, err := emu.New(emu.DefaultConfig(rom))
	if err != nil {
		b.Fatal(err)
	}
	fd := floppyBoard(b, rom)
	defer fd.Close()
	var tPlain, tFloppy, cPlain, cFloppy time.Duration
	p0, f0 := plain.CPU().T(), fd.CPU().T()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), hostcpu.Thread()
		if err := plain.RunFor(sliceT); err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), hostcpu.Thread()
		if err := fd.RunFor(sliceT); err != nil {
			b.Fatal(err)
		}
		t2, c2 := time.Now(), hostcpu.Thread()
		tPlain += t1.Sub(t0)
		tFloppy += t2.Sub(t1)
		cPlain += c1 - c0
		cFloppy += c2 - c1
	}
	np, nf := float64(plain.CPU().T()-p0), float64(fd.CPU().T()-f0)
	rp := np / tPlain.Seconds() / 1e6
	rf := nf / tFloppy.Seconds() / 1e6
	b.ReportMetric(rp, "none-MT/s")
	b.ReportMetric(rf, "floppy-MT/s")
	b.ReportMetric(rf/rp, "floppy/none")
	if cPlain > 0 && cFloppy > 0 {
		b.ReportMetric((nf/cFloppy.Seconds())/(np/cPlain.Seconds()), "floppy/none-cpu")
	}
	if fd.Sched().Pending() != plain.Sched().Pending() {
		b.Fatalf("the idle floppy board queues %d events, the plain one %d", fd.Sched().Pending(), plain.Sched().Pending())
	}
}

// dwait polls the WD1772's status as Ampro BIOS 4.3's DWAIT does, one IN
// every 43 T-states (IN, BIT 0, RET Z, DEC HL, LD A,H, OR L, JP NZ), for at
// most 6 x 65536 polls, and returns the T-state at which BUSY was seen
// clear, with the status, or ok false when the BIOS would have timed out
// (and sent Force Interrupt).
func dwait(b *emu.Board, t uint64) (uint64, uint8, bool) {
	for i := 0; i < 6*65536; i++ {
		st, _ := b.In(0xC4, t)
		if st&0x01 == 0 {
			return t, st, true
		}
		t += 43
	}
	return t, 0, false
}

// Ampro BIOS 4.3's RESTORE, port by port [F AMBIOS; docs/FLOPPY.md
// "Lost Data"]: Restore (0Bh, 3 ms steps, h = 1), 60 us, DWAIT, 50 ms, then
// Read Address (C8h) to see that a disk is there, 60 us, DWAIT, and nothing
// else: the data register is never read. BUSY must drop by itself once the
// ID has passed, with Lost Data; a chip that held BUSY for the unread
// bytes made the BIOS time out, beep "no disk" and try again for ever.
func TestAmproRestoreReadAddress(t *testing.T) {
	b := floppyBoard(t, emu.StubROM(0x0100))
	defer b.Close()
	b.Out(0x00, 0x41, 0) // ROM off, drive A
	t0 := uint64(100)
	b.Out(0xC0, 0x0B, t0)
	end, st, ok := dwait(b, t0+240)
	require.True(t, ok, "Restore ends")
	assert.NotZero(t, st&0x04, "TR00 after Restore")
	t1 := end + 50*4000 // WAIT 50 ms
	b.Out(0xC0, 0xC8, t1)
	end, st, ok = dwait(b, t1+240)
	require.True(t, ok, "Read Address must end with nobody reading the data register")
	assert.Less(t, end-t1, uint64(4_000_000/5+4_000), "within a revolution and the ID's bytes")
	assert.NotZero(t, st&0x04, "Lost Data: six bytes never read")
	assert.Zero(t, st&0x12, "no RNF, no DRQ left")
	assert.Equal(t, byte(0), b.FDC().Peek(2), "the ID's track byte went to the sector register")
}

// The jumpers: WD1772 DRQ -> DART RIA (RR0 bit 4 of channel A) and INTRQ ->
// CTC CLK/TRG3 (channel 3 counts the interrupts).
func TestFDCJumpers(t *testing.T) {
	f, _ := fdimage.ParseFormat("amp2")
	cfg := emu.DefaultConfig(emu.StubROM(0x0100))
	cfg.Floppies = []emu.Floppy{{Drive: 0}}
	cfg.Jumpers.FDCDrqToRIA = true
	cfg.Jumpers.FDCIntrqToTRG3 = true
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.InsertFloppyDisk(0, "x", f.NewDisk(0xE5), false))
	var intrq []bool
	b.FDC().Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
		if sig == floppy.INTRQ {
			intrq = append(intrq, v != 0)
		}
	})
	b.Out(0x70, 0x57, 0) // CTC 3: counter, rising edge, time constant follows
	b.Out(0x70, 0x10, 4)
	b.Out(0x00, 0x41, 8)
	b.Out(0xC0, 0xC8, 12) // Read Address
	for i := 0; i < 300 && !b.FDC().DRQ(); i++ {
		require.NoError(t, b.RunFor(100*sched.Microsecond))
	}
	require.True(t, b.FDC().DRQ(), "the ID's first byte")
	t0 := b.CPU().T()
	rr0, _ := b.In(0x84, t0)
	assert.NotZero(t, rr0&0x10, "RIA = DRQ")
	b.In(0xC7, t0+20) // the data read drops DRQ
	rr0, _ = b.In(0x84, t0+40)
	assert.Zero(t, rr0&0x10)
	assert.Empty(t, intrq)
	// The other five bytes are left unread: Lost Data ends the command
	// when the ID has passed, with INTRQ.
	require.NoError(t, b.RunFor(sched.Millisecond))
	assert.Equal(t, []bool{true}, intrq)
	n, _ := b.In(0x70, b.CPU().T())
	assert.Equal(t, uint8(0x0F), n, "CTC 3 counted the INTRQ edge")
}
