package wd1772

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

// formatStream is what a formatting program writes with Write Track for
// one MFM track: the WD1772 datasheet's layout with F5/F6/F7 codes.
func formatStream(c, h byte, ids []byte, size int, fill byte) []byte {
	var b []byte
	rep := func(v byte, n int) {
		for i := 0; i < n; i++ {
			b = append(b, v)
		}
	}
	rep(0x4E, 80)
	rep(0x00, 12)
	rep(0xF6, 3)
	b = append(b, 0xFC)
	rep(0x4E, 50)
	n := byte(fdimage.SizeCode(size))
	for _, r := range ids {
		rep(0x00, 12)
		rep(0xF5, 3)
		b = append(b, 0xFE, c, h, r, n, 0xF7)
		rep(0x4E, 22)
		rep(0x00, 12)
		rep(0xF5, 3)
		b = append(b, 0xFB)
		rep(fill, size)
		b = append(b, 0xF7)
		rep(0x4E, 24)
	}
	rep(0x4E, 1200) // gap 4b: more than the track takes
	return b
}

// Write Track formats an unformatted track; every sector is then written
// and read back, and Read Address sees the IDs in the written order at the
// written positions.
func TestFormatWriteReadBack(t *testing.T) {
	disk := fdimage.NewDisk(40, 2) // unformatted
	r := newRig(t, disk, false)
	r.lag = 2 * us
	ids := []byte{1, 6, 2, 7, 3, 8, 4, 9, 5, 10}
	r.out = formatStream(0, 0, ids, 512, 0xE5)
	r.cmd(0, 0xD0)    // motor on; writing starts at the next index
	r.cmd(1*ms, 0xF8) // Write Track, h = 1
	end, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	assert.Zero(t, r.f.Peek(RegStatus)&(StLostData|StProtect))
	tr := disk.Track(0, 0)
	require.Len(t, tr.Sectors, 10)
	for i, s := range tr.Sectors {
		assert.Equal(t, ids[i], s.R)
		assert.EqualValues(t, 2, s.N)
		assert.False(t, s.BadCRC || s.BadIDCRC, "sector %d", s.R)
		assert.Equal(t, bytes.Repeat([]byte{0xE5}, 512), s.Data)
	}
	// Write then read every sector.
	now := end
	for r8 := byte(1); r8 <= 10; r8++ {
		data := make([]byte, 512)
		for k := range data {
			data[k] = byte(k) + r8*3
		}
		r.out = append([]byte(nil), data...)
		r.f.Write(RegSector, r8)
		r.cmd(now, 0xA8)
		now, ok = r.waitIdle(now + sched.Second)
		require.True(t, ok)
		require.Zero(t, r.f.Peek(RegStatus)&(StLostData|StRNF|StProtect), "write %d", r8)
		r.got = nil
		r.cmd(now, 0x88)
		now, ok = r.waitIdle(now + sched.Second)
		require.True(t, ok)
		require.Zero(t, r.f.Peek(RegStatus)&(StLostData|StRNF|StCRC), "read %d", r8)
		assert.Equal(t, data, r.got, "sector %d", r8)
	}
	// Read Address: written order, written positions.
	_, p := r.d.Head()
	for i := 0; i < 10; i++ {
		r.got = nil
		r.cmd(now, 0xC8)
		end, ok := r.waitIdle(now + sched.Second)
		require.True(t, ok)
		require.Len(t, r.got, 6)
		k := tr.Find(r.got[2])
		require.GreaterOrEqual(t, k, 0)
		assert.Equal(t, sched.Time(p.IDAt[k]+7)*floppy.MFMCell, (end - r.lag - r.d.RevStart(end-r.lag)), "ID %d", r.got[2])
		now = end
	}
}

// Write Track on a write-protected disk ends at once with bit 6.
func TestWriteProtect(t *testing.T) {
	for _, c := range []byte{0xA8, 0xF8} {
		r := newRig(t, amp2(), true)
		r.f.Write(RegSector, 17)
		r.cmd(0, c)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		assert.NotZero(t, r.f.Peek(RegStatus)&StProtect, "%02X", c)
		assert.Equal(t, amp2(), r.media.Store().Disk(), "%02X", c)
	}
}

// Status bits by command type.
func TestStatusBits(t *testing.T) {
	disk := amp2()
	tr := disk.Track(0, 0)
	tr.Sectors[tr.Find(18)].Deleted = true
	tr.Sectors[tr.Find(19)].BadCRC = true
	tr.Sectors[tr.Find(20)].BadIDCRC = true
	r := newRig(t, disk, true)
	r.lag = 1 * us

	// Type I: motor, write protect, spun up, track 0, and the index bit
	// while the hole passes.
	r.cmd(0, 0x08)
	end, _ := r.waitIdle(sched.Second)
	st := r.f.Peek(RegStatus)
	assert.Equal(t, byte(StMotor|StProtect|StTrack0), st&^StIndex, "h = 1: no spin-up sequence, bit 5 clear")
	idx, _ := r.d.NextIndex(end + 1)
	r.s.Advance(idx + us)
	assert.NotZero(t, r.f.Peek(RegStatus)&StIndex)
	r.s.Advance(idx + 4*ms)
	assert.Zero(t, r.f.Peek(RegStatus)&StIndex)

	for _, tc := range []struct {
		sector byte
		want   byte
	}{
		{17, 0},
		{18, StDeleted},
		{19, StCRC},
		{20, StRNF | StCRC}, // only a bad ID: never matched
	} {
		r.f.Write(RegSector, tc.sector)
		r.cmd(r.s.Now(), 0x88)
		_, ok := r.waitIdle(r.s.Now() + 2*sched.Second)
		require.True(t, ok)
		assert.Equal(t, tc.want|StMotor, r.f.Peek(RegStatus), "sector %d", tc.sector)
		assert.True(t, r.f.INTRQ())
		r.f.Read(RegStatus)
		assert.False(t, r.f.INTRQ(), "a status read clears INTRQ")
	}
}

// Force Interrupt: D8 interrupts at once (and a status read does not clear
// it), D4 on every index pulse, D0 stops a command.
func TestForceInterrupt(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.cmd(0, 0xD8)
	assert.True(t, r.f.INTRQ())
	r.f.Read(RegStatus)
	assert.True(t, r.f.INTRQ())
	r.cmd(1*ms, 0xD0)
	assert.False(t, r.f.INTRQ())
	assert.True(t, r.f.Motor(), "D0 spins the motor up on the 1772")

	r.cmd(2*ms, 0xD4)
	var rises []sched.Time
	r.f.OnINTRQ = func(now sched.Time, v bool) {
		if v {
			rises = append(rises, now)
			r.f.Read(RegStatus)
		}
	}
	r.s.Advance(700 * ms)
	idx := r.times("fd0", floppy.Index, 1)
	assert.Equal(t, after(idx, 2*ms), rises)
	assert.Len(t, rises, 3)
}

// Step, Step In and Step Out move one cylinder; u updates the track
// register; Step keeps the last direction; Step Out at TR00 sets the
// track register to 0 without a pulse.
func TestStepCommands(t *testing.T) {
	r := newRig(t, amp2(), false)
	now := sched.Time(0)
	run := func(c byte) {
		r.cmd(now, c)
		var ok bool
		now, ok = r.waitIdle(now + sched.Second)
		require.True(t, ok)
	}
	r.f.Write(RegTrack, 0)
	run(0x58) // Step In, u, h
	assert.Equal(t, 1, r.d.Cylinder())
	assert.EqualValues(t, 1, r.f.Peek(RegTrack))
	run(0x48) // Step In, no u
	assert.Equal(t, 2, r.d.Cylinder())
	assert.EqualValues(t, 1, r.f.Peek(RegTrack))
	run(0x38) // Step (in, as last), u
	assert.Equal(t, 3, r.d.Cylinder())
	assert.EqualValues(t, 2, r.f.Peek(RegTrack))
	run(0x78) // Step Out, u
	assert.Equal(t, 2, r.d.Cylinder())
	assert.EqualValues(t, 1, r.f.Peek(RegTrack))
	run(0x38) // Step: out now
	assert.Equal(t, 1, r.d.Cylinder())
	assert.EqualValues(t, 0, r.f.Peek(RegTrack))
	run(0x68) // Step Out, no u
	assert.Equal(t, 0, r.d.Cylinder())
	r.f.Write(RegTrack, 9)
	steps := len(r.times("fd0", floppy.Step, -1))
	run(0x78) // Step Out at TR00: no pulse, track register 0
	assert.Equal(t, steps, len(r.times("fd0", floppy.Step, -1)))
	assert.EqualValues(t, 0, r.f.Peek(RegTrack))
	assert.NotZero(t, r.f.Peek(RegStatus)&StTrack0)
	// Restore from cylinder 7: steps out until TR00.
	r.f.Write(RegData, 7)
	run(0x18)
	assert.Equal(t, 7, r.d.Cylinder())
	run(0x0B) // Restore, h, 3 ms
	assert.Equal(t, 0, r.d.Cylinder())
	assert.EqualValues(t, 0, r.f.Peek(RegTrack))
	// Verify on the wrong cylinder: the IDs say 7, the register 3.
	r.f.Write(RegData, 7)
	run(0x18)
	r.f.Write(RegTrack, 3)
	run(0x0C | 0x10 | 0x08) // Seek to 7 from "3" with V: four steps to 11
	assert.Equal(t, 11, r.d.Cylinder())
	assert.NotZero(t, r.f.Peek(RegStatus)&StSeekError)
}

// Restore without TR00 (no drive selected): 255 steps, then the end, with
// Seek Error only when V is set.
func TestRestoreGivesUp(t *testing.T) {
	for _, c := range []byte{0x0B, 0x0F} {
		r := newRig(t, amp2(), false)
		r.f.Select(0, nil)
		r.cmd(0, c) // 3 ms
		end, ok := r.waitIdle(2 * sched.Second)
		require.True(t, ok)
		assert.Equal(t, c&0x04 != 0, r.f.Peek(RegStatus)&StSeekError != 0, "%02X", c)
		assert.Equal(t, typeIDelay+255*3*ms, end)
		assert.EqualValues(t, 0, r.f.Peek(RegTrack))
	}
}

// The 16 MHz clock (port 00 bit 7) halves the chip's times: 3 ms steps at
// rate 00, and a DD disk recorded at 8 MHz shows no IDs (RNF).
func TestClock16(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.f.SetClock16(0, true)
	r.f.Write(RegData, 2)
	r.cmd(0, 0x18)
	_, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	steps := r.times("fd0", floppy.Step, -1)
	require.Len(t, steps, 2)
	assert.Equal(t, 3*ms, steps[1]-steps[0])
	r.f.Write(RegSector, 17)
	r.cmd(r.s.Now(), 0x88)
	_, ok = r.waitIdle(r.s.Now() + 2*sched.Second)
	require.True(t, ok)
	assert.NotZero(t, r.f.Peek(RegStatus)&StRNF)
}

// Multi-sector read (m) reads on until the sector number runs off the
// track (RNF); deleted-mark write (a0) reads back with the record-type bit.
func TestMultiSectorAndDeletedMark(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.lag = 1 * us
	r.f.Write(RegSector, 24)
	r.cmd(0, 0x98) // Read Sector, m, h
	_, ok := r.waitIdle(5 * sched.Second)
	require.True(t, ok)
	assert.Len(t, r.got, 3*512, "24, 25, 26")
	assert.EqualValues(t, 27, r.f.Peek(RegSector))
	assert.NotZero(t, r.f.Peek(RegStatus)&StRNF)
	want := append(append([]byte{}, r.media.Store().Disk().Track(0, 0).Sectors[r.media.Store().Disk().Track(0, 0).Find(24)].Data...),
		r.media.Store().Disk().Track(0, 0).Sectors[r.media.Store().Disk().Track(0, 0).Find(25)].Data...)
	assert.Equal(t, want, r.got[:1024])

	r.out = bytes.Repeat([]byte{0x77}, 512)
	r.f.Write(RegSector, 20)
	r.cmd(r.s.Now(), 0xA9) // Write Sector, h, a0 = deleted mark
	_, ok = r.waitIdle(r.s.Now() + sched.Second)
	require.True(t, ok)
	r.got = nil
	r.cmd(r.s.Now(), 0x88)
	_, ok = r.waitIdle(r.s.Now() + sched.Second)
	require.True(t, ok)
	assert.NotZero(t, r.f.Peek(RegStatus)&StDeleted)
	assert.Equal(t, bytes.Repeat([]byte{0x77}, 512), r.got)
}

// Read Track returns one revolution of cells from the index: the stream
// the layout predicts, marks and CRCs included.
func TestReadTrack(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.lag = 1 * us
	r.cmd(0, 0xE8)
	_, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	tr, p := r.d.Head()
	want := floppy.Stream(tr, *p)
	require.Len(t, r.got, len(want))
	for i, c := range want {
		require.Equal(t, c.B, r.got[i], "cell %d", i)
	}
}

// FM: Write Track with FM codes formats a single-density track that Read
// Sector then reads at 64 us a byte.
func TestFormatFM(t *testing.T) {
	disk := fdimage.NewDisk(40, 2)
	r := newRig(t, disk, false)
	r.f.SetDensity(0, false)
	r.lag = 2 * us
	f := fdimage.Format{Name: "fm", Cylinders: 40, Heads: 2, Sectors: 8, Size: 256, FirstID: 1, Interleave: 1, FM: true}
	want := f.NewTrack(0, 0, 0xE5)
	r.out = floppy.FormatStream(&want, floppy.StandardLayout(&want, 200*ms))
	r.cmd(0, 0xD0)
	r.cmd(1*ms, 0xF8)
	_, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	got := disk.Track(0, 0)
	require.Len(t, got.Sectors, 8)
	assert.True(t, got.FM)
	for i := range got.Sectors {
		assert.Equal(t, want.Sectors[i].R, got.Sectors[i].R)
		assert.False(t, got.Sectors[i].BadCRC || got.Sectors[i].BadIDCRC)
	}
	r.got = nil
	r.f.Write(RegSector, 3)
	r.cmd(r.s.Now(), 0x88)
	_, ok = r.waitIdle(r.s.Now() + sched.Second)
	require.True(t, ok)
	assert.Equal(t, bytes.Repeat([]byte{0xE5}, 256), r.got)
	// In MFM the FM track shows no IDs.
	r.f.SetDensity(0, true)
	r.cmd(r.s.Now(), 0x88)
	_, ok = r.waitIdle(r.s.Now() + 2*sched.Second)
	require.True(t, ok)
	assert.NotZero(t, r.f.Peek(RegStatus)&StRNF)
}

// The disk is ejected in the middle of a sector: nothing more arrives, no
// index pulses count the command out, and D0 ends it.
func TestEjectWhileReading(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.lag = 1 * us
	r.f.Write(RegSector, 17)
	r.cmd(0, 0x88)
	drq := func() int { return len(r.times("fdc", floppy.DRQ, 1)) }
	for drq() < 100 {
		r.s.Advance(r.s.Next())
	}
	r.d.Eject(r.s.Now())
	r.s.Advance(r.s.Now() + 3*sched.Second)
	assert.Less(t, drq(), 102)
	assert.NotZero(t, r.f.Peek(RegStatus)&StBusy)
	r.f.Write(RegCommand, 0xD0)
	assert.Zero(t, r.f.Peek(RegStatus)&StBusy)
}

// Write Track with nobody giving the first byte: Lost Data 3 byte times
// after the command, before any index pulse.
func TestWriteTrackFirstByteLate(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.cmd(0, 0xD0)
	r.cmd(1*ms, 0xF8)
	end, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	assert.Equal(t, 1*ms+typeIIStart+3*floppy.MFMCell, end)
	assert.NotZero(t, r.f.Peek(RegStatus)&StLostData)
	assert.Equal(t, amp2(), r.media.Store().Disk(), "nothing written")
}
