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

// The tests of this file are the test column of the audit table in
// docs/FLOPPY.md ("Audit"): each row drives the chip as an original
// program does (a register, a value, a time) and checks what that program
// would see.

// idx is the drive's index pulses (leading edges) so far.
func (r *rig) idx() []sched.Time { return r.times("fd0", floppy.Index, 1) }

// serveWrites answers each DRQ of a write command with the next byte of
// out, lag(i, prev) after the i-th DRQ rose (prev: the byte given last).
func (r *rig) serveWrites(out []byte, lag func(i int, prev byte) sched.Time) {
	n, prev := 0, byte(0)
	ev := new(sched.Event)
	ev.Init("writer", func(sched.Time) {
		if !r.f.DRQ() || len(out) == 0 {
			return
		}
		prev = out[0]
		r.f.Write(RegData, out[0])
		out = out[1:]
	})
	r.s.Own(ev)
	r.f.OnDRQ = func(now sched.Time, level bool) {
		if level {
			r.s.Schedule(ev, now+lag(n, prev))
			n++
		}
	}
}

// serveReads gives DRQ back to the rig's reader (after serveWrites).
func (r *rig) serveReads(lag sched.Time) {
	r.lag = lag
	r.f.OnDRQ = func(now sched.Time, level bool) {
		if level {
			r.s.Schedule(&r.hev, now+r.lag)
		}
	}
}

func protectedAmp2(t *testing.T) *rig { return newRig(t, amp2(), true) }
func plainAmp2(t *testing.T) *rig     { return newRig(t, amp2(), false) }

// Force Interrupt D0, D4, D8 and what they leave in the status register
// and on INTRQ.
func TestAuditForceInterrupt(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, r *rig)
	}{
		{"D0 idle after RNF: type I status, error bits cleared, no INTRQ", func(t *testing.T, r *rig) {
			r.f.Write(RegSector, 99)
			r.cmd(0, 0x88)
			end, ok := r.waitIdle(2 * sched.Second)
			require.True(t, ok)
			require.Equal(t, byte(StMotor|StRNF), r.f.Peek(RegStatus))
			require.True(t, r.f.INTRQ())
			r.cmd(end+10*ms, 0xD0)
			assert.False(t, r.f.INTRQ(), "D0 raises no INTRQ and the write cleared the old one")
			r.s.Advance(end + 11*ms)
			assert.Equal(t, byte(StMotor|StTrack0), r.f.Read(RegStatus)&^StIndex, "type I: TR00 shows, RNF is gone")
		}},
		{"D0 idle after a spin-up: bit 5 cleared, motor bit set", func(t *testing.T, r *rig) {
			r.cmd(0, 0x00) // Restore, h = 0: six index pulses
			end, ok := r.waitIdle(2 * sched.Second)
			require.True(t, ok)
			require.NotZero(t, r.f.Peek(RegStatus)&StSpunUp)
			r.cmd(end+10*ms, 0xD0)
			st := r.f.Read(RegStatus)
			assert.Zero(t, st&StSpunUp, "bit 5 cleared [WD-HATARI]")
			assert.NotZero(t, st&StMotor)
		}},
		{"D0 while busy: the command ends, its type II status stays, no INTRQ", func(t *testing.T, r *rig) {
			r.f.Write(RegSector, 99)
			r.cmd(0, 0x88)
			r.cmd(300*ms, 0xD0)
			st := r.f.Read(RegStatus)
			assert.Zero(t, st&StBusy)
			assert.Zero(t, st&StTrack0, "still type II: no TR00 bit on cylinder 0")
			r.s.Advance(3 * sched.Second)
			assert.False(t, r.f.INTRQ(), "no INTRQ, and no RNF later")
			assert.Zero(t, r.f.Peek(RegStatus)&StRNF)
		}},
		{"D8: INTRQ at once, a status read keeps it, D0 clears it", func(t *testing.T, r *rig) {
			r.cmd(1*ms, 0xD8)
			assert.True(t, r.f.INTRQ())
			r.s.Advance(2 * ms)
			r.f.Read(RegStatus)
			assert.True(t, r.f.INTRQ(), "a status read does not clear D8's INTRQ")
			r.cmd(3*ms, 0xD0)
			assert.False(t, r.f.INTRQ())
		}},
		{"D8 then Restore: the command write clears INTRQ; Restore's end sets it", func(t *testing.T, r *rig) {
			r.cmd(1*ms, 0xD8)
			r.cmd(2*ms, 0x08)
			assert.False(t, r.f.INTRQ())
			end, ok := r.waitIdle(sched.Second)
			require.True(t, ok)
			assert.True(t, r.f.INTRQ())
			r.s.Advance(end + ms)
			r.f.Read(RegStatus)
			assert.False(t, r.f.INTRQ(), "an ordinary INTRQ again: the status read clears it")
		}},
		{"D4: INTRQ on each index pulse, each cleared by a status read", func(t *testing.T, r *rig) {
			r.cmd(1*ms, 0xD4)
			var rises []sched.Time
			r.f.OnINTRQ = func(now sched.Time, v bool) {
				if v {
					rises = append(rises, now)
				}
			}
			for _, at := range []sched.Time{150 * ms, 350 * ms, 550 * ms} {
				r.s.Advance(at)
				assert.True(t, r.f.INTRQ(), "at %v", at)
				r.f.Read(RegStatus)
				assert.False(t, r.f.INTRQ(), "at %v", at)
			}
			assert.Equal(t, after(r.idx(), 1*ms), rises)
			assert.Len(t, rises, 3)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, plainAmp2(t)) })
	}
}

// The h flag (motor, spin-up) and the E flag of each command type.
func TestAuditMotorAndSettle(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, r *rig)
	}{
		{"type I h=0, motor off: six index pulses, then bit 5", func(t *testing.T, r *rig) {
			r.cmd(0, 0x00)
			r.s.Advance(500 * ms)
			assert.NotZero(t, r.f.Read(RegStatus)&StBusy, "spinning up")
			assert.Zero(t, r.f.Read(RegStatus)&StSpunUp)
			end, ok := r.waitIdle(2 * sched.Second)
			require.True(t, ok)
			assert.Equal(t, r.idx()[5], end)
			assert.Equal(t, byte(StMotor|StSpunUp|StTrack0), r.f.Read(RegStatus)&^StIndex)
		}},
		{"type I h=1, motor off: motor on, no wait, bit 5 clear", func(t *testing.T, r *rig) {
			r.cmd(0, 0x08)
			end, ok := r.waitIdle(sched.Second)
			require.True(t, ok)
			assert.Equal(t, typeIDelay, end)
			assert.Equal(t, byte(StMotor|StTrack0), r.f.Read(RegStatus)&^StIndex)
		}},
		{"type II h=0, motor off: the ID search starts at the sixth index pulse", func(t *testing.T, r *rig) {
			r.lag = us
			r.f.Write(RegSector, 17)
			r.cmd(0, 0x80)
			_, ok := r.waitIdle(3 * sched.Second)
			require.True(t, ok)
			ids := r.times("fdc", floppy.IDField, -1)
			require.NotEmpty(t, ids)
			assert.Greater(t, ids[0], r.idx()[5])
			assert.Len(t, r.got, 512)
			assert.Equal(t, byte(StMotor), r.f.Read(RegStatus), "type II: bit 5 is the record type, not spin-up")
		}},
		{"type III h=0, motor off (Read Address C0): the ID after the sixth index pulse", func(t *testing.T, r *rig) {
			r.lag = us
			r.cmd(0, 0xC0)
			_, ok := r.waitIdle(3 * sched.Second)
			require.True(t, ok)
			ids := r.times("fdc", floppy.IDField, -1)
			require.Len(t, ids, 1)
			assert.Greater(t, ids[0], r.idx()[5])
			assert.Less(t, ids[0], r.idx()[5]+200*ms)
			assert.Len(t, r.got, 6)
		}},
		{"type II h=1, motor off: motor on, no wait", func(t *testing.T, r *rig) {
			r.lag = us
			r.f.Write(RegSector, 17)
			r.cmd(0, 0x88)
			end, ok := r.waitIdle(3 * sched.Second)
			require.True(t, ok)
			assert.Less(t, end, 200*ms, "within the first revolution")
			assert.True(t, r.f.Motor())
		}},
		{"type III E=1 (Write Track FC): the first DRQ 15 ms after the take", func(t *testing.T, r *rig) {
			r.cmd(0, 0xFC)
			end, ok := r.waitIdle(sched.Second)
			require.True(t, ok)
			drq := r.times("fdc", floppy.DRQ, 1)
			require.Len(t, drq, 1)
			assert.Equal(t, typeIIStart+15*ms, drq[0])
			assert.Equal(t, drq[0]+3*floppy.MFMCell, end, "nobody gave a byte: Lost Data")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, plainAmp2(t)) })
	}
}

// Status bits after type I and type II/III commands.
func TestAuditStatusTypes(t *testing.T) {
	t.Run("type I bit 6 follows the drive with no new command", func(t *testing.T) {
		r := plainAmp2(t)
		r.cmd(0, 0x08)
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		r.s.Advance(end + 10*ms)
		assert.Zero(t, r.f.Read(RegStatus)&StProtect)
		r.d.Insert(r.s.Now(), floppy.NewMedia("ro", &floppy.MemoryStore{D: amp2()}, true))
		assert.NotZero(t, r.f.Read(RegStatus)&StProtect)
		r.d.Eject(r.s.Now())
		assert.Zero(t, r.f.Read(RegStatus)&StProtect, "an empty drive is not protected [A]")
	})
	t.Run("type II hides TR00 and index; a new command clears the old errors", func(t *testing.T) {
		r := plainAmp2(t)
		r.lag = us
		r.f.Write(RegSector, 99)
		r.cmd(0, 0x88)
		end, ok := r.waitIdle(2 * sched.Second)
		require.True(t, ok)
		require.Equal(t, byte(StMotor|StRNF), r.f.Read(RegStatus))
		r.f.Write(RegSector, 17)
		r.cmd(end+ms, 0x88)
		_, ok = r.waitIdle(end + sched.Second)
		require.True(t, ok)
		assert.Equal(t, byte(StMotor), r.f.Read(RegStatus))
	})
}

// Lost Data on the write commands (the read commands: TestLostData,
// TestUnservedReadEnds, TestLateLastByteHoldsBusy).
func TestAuditLostDataWrites(t *testing.T) {
	pattern := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i%250) + 1 // never 0
		}
		return b
	}
	t.Run("Write Sector, no first byte: Lost Data 22 bytes after the ID, nothing written", func(t *testing.T) {
		r := plainAmp2(t)
		r.f.Write(RegSector, 17)
		r.cmd(0, 0xA8)
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		drq := r.times("fdc", floppy.DRQ, 1)
		require.Len(t, drq, 1)
		assert.Equal(t, drq[0]+22*floppy.MFMCell, end)
		assert.Equal(t, byte(StMotor|StLostData), r.f.Read(RegStatus))
		assert.Equal(t, amp2(), r.media.Store().Disk())
	})
	t.Run("Write Sector, byte 100 late: 00 written there, Lost Data, the sector ends as usual", func(t *testing.T) {
		r := plainAmp2(t)
		out := pattern(512)
		r.serveWrites(append([]byte(nil), out...), func(i int, _ byte) sched.Time {
			if i == 100 {
				return 40 * us
			}
			return 2 * us
		})
		r.f.Write(RegSector, 17)
		r.cmd(0, 0xA8)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		assert.Equal(t, byte(StMotor|StLostData), r.f.Read(RegStatus))
		tr := r.media.Store().Disk().Track(0, 0)
		got := tr.Sectors[tr.Find(17)].Data
		assert.Equal(t, out[:100], got[:100])
		assert.Zero(t, got[100])
		assert.Equal(t, out[100:511], got[101:])
	})
	t.Run("Write Track, a late data byte: 00 written, Lost Data, on to the index", func(t *testing.T) {
		r := newRig(t, fdimage.NewDisk(40, 2), false)
		ids := []byte{1, 6, 2, 7, 3, 8, 4, 9, 5, 10}
		// DRQ i asks for byte i of the stream; byte 205 is the first data
		// byte of sector 1 (after gap 4a, the index mark, gap 1, the ID,
		// gap 2 and the data mark).
		r.serveWrites(formatStream(0, 0, ids, 512, 0xE5), func(i int, _ byte) sched.Time {
			if i == 205+100 {
				return 40 * us
			}
			return 2 * us
		})
		r.cmd(0, 0xD0)
		r.cmd(1*ms, 0xF8)
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		assert.NotZero(t, r.f.Read(RegStatus)&StLostData)
		assert.Equal(t, after(r.idx(), 2*ms)[1], end, "to the next index pulse")
		tr := r.media.Store().Disk().Track(0, 0)
		require.Len(t, tr.Sectors, 10)
		s := tr.Sectors[tr.Find(1)]
		assert.Equal(t, []byte{0xE5, 0x00, 0xE5}, s.Data[99:102], "00 in the late byte's cell")
		assert.True(t, s.BadCRC, "the data field is one cell longer than its size: its CRC is misplaced")
		assert.False(t, tr.Sectors[tr.Find(6)].BadCRC, "the next sector is whole")
	})
}

// Record Not Found and Seek Error come on the fifth index pulse of the
// search.
func TestAuditSearchLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		disk *fdimage.Disk
		pre  func(r *rig)
		cmd  byte
		bit  byte
	}{
		{"Read Address, unformatted track", fdimage.NewDisk(40, 2), func(r *rig) {}, 0xC8, StRNF},
		{"Write Sector, no such sector", amp2(), func(r *rig) { r.f.Write(RegSector, 99) }, 0xA8, StRNF},
		{"Seek with V, track register wrong", amp2(), func(r *rig) {
			r.f.Write(RegTrack, 5)
			r.f.Write(RegData, 5)
		}, 0x1C, StSeekError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.disk, false)
			r.lag = us
			tc.pre(r)
			r.cmd(100*us, tc.cmd)
			end, ok := r.waitIdle(3 * sched.Second)
			require.True(t, ok)
			var from sched.Time // the search's start
			for _, e := range r.log {
				if e.who == "fdc" && e.s == floppy.State && (state(e.v) == sSearch || state(e.v) == sVerify) {
					from = e.at
					break
				}
			}
			assert.Equal(t, after(r.idx(), from)[4], end)
			assert.True(t, r.f.INTRQ())
			assert.Equal(t, tc.bit, r.f.Read(RegStatus)&(StRNF|StSeekError))
		})
	}
}

// The m flag: one sector after another until the number runs off the
// track (RNF), or a data CRC error ends the command.
func TestAuditMultiSector(t *testing.T) {
	t.Run("Write Sector m: 25, 26, then RNF, sector register 27", func(t *testing.T) {
		r := plainAmp2(t)
		out := append(bytes.Repeat([]byte{0x25}, 512), bytes.Repeat([]byte{0x26}, 512)...)
		r.serveWrites(out, func(int, byte) sched.Time { return 2 * us })
		r.f.Write(RegSector, 25)
		r.cmd(0, 0xB8)
		_, ok := r.waitIdle(3 * sched.Second)
		require.True(t, ok)
		assert.Equal(t, byte(StMotor|StRNF), r.f.Read(RegStatus))
		assert.EqualValues(t, 27, r.f.Peek(RegSector))
		tr := r.media.Store().Disk().Track(0, 0)
		assert.Equal(t, out[:512], tr.Sectors[tr.Find(25)].Data)
		assert.Equal(t, out[512:], tr.Sectors[tr.Find(26)].Data)
	})
	t.Run("Read Sector m: a data CRC error ends the command on that sector", func(t *testing.T) {
		disk := amp2()
		tr := disk.Track(0, 0)
		tr.Sectors[tr.Find(19)].BadCRC = true
		r := newRig(t, disk, false)
		r.lag = us
		r.f.Write(RegSector, 18)
		r.cmd(0, 0x98)
		_, ok := r.waitIdle(3 * sched.Second)
		require.True(t, ok)
		assert.Equal(t, byte(StMotor|StCRC), r.f.Read(RegStatus))
		assert.EqualValues(t, 19, r.f.Peek(RegSector))
		assert.Len(t, r.got, 2*512, "18 and 19, nothing after")
	})
}

// Write Sector and Write Track on a protected disk.
func TestAuditWriteProtect(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cmd    byte
		status byte
		end    func(r *rig) sched.Time
	}{
		{"Write Sector h=1: ends 4 us after the take", 0xA8, StMotor | StProtect, func(*rig) sched.Time { return typeIIStart }},
		{"Write Track h=1: ends 4 us after the take", 0xF8, StMotor | StProtect, func(*rig) sched.Time { return typeIIStart }},
		{"Write Sector h=0, motor off: ends after the spin-up", 0xA0, StMotor | StProtect, func(r *rig) sched.Time { return r.idx()[5] }},
		{"Read Sector: bit 6 not used", 0x88, StMotor, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := protectedAmp2(t)
			r.lag = us
			r.f.Write(RegSector, 17)
			r.cmd(0, tc.cmd)
			end, ok := r.waitIdle(2 * sched.Second)
			require.True(t, ok)
			if tc.end != nil {
				assert.Equal(t, tc.end(r), end)
			}
			assert.Equal(t, tc.status, r.f.Read(RegStatus))
			assert.Equal(t, amp2(), r.media.Store().Disk())
		})
	}
}

// Write Track and Read Track as a FORMAT program drives them.
func TestAuditFormatProgram(t *testing.T) {
	ids := []byte{1, 6, 2, 7, 3, 8, 4, 9, 5, 10}
	stream := formatStream(0, 0, ids, 512, 0xE5)
	t.Run("one DRQ a byte cell from the index; F7 takes two cells", func(t *testing.T) {
		r := newRig(t, fdimage.NewDisk(40, 2), false)
		r.serveWrites(stream, func(int, byte) sched.Time { return 2 * us })
		r.cmd(0, 0xD0)
		r.cmd(1*ms, 0xF8)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		require.Zero(t, r.f.Read(RegStatus)&StLostData)
		drq := r.times("fdc", floppy.DRQ, 1)
		assert.Equal(t, 1*ms+typeIIStart, drq[0], "DRQ at once")
		assert.Equal(t, after(r.idx(), 1*ms)[0], drq[1], "the first byte goes out at the index")
		// What went to the disk: F6 F6 F6 FC after gap 4a and the sync
		// is the index mark (C2 with a missing clock), F5 F5 F5 FE the
		// first ID mark, F7 its two CRC bytes.
		cells := r.f.State().Cells
		c2 := floppy.Cell{B: 0xC2, Mark: true}
		a1 := floppy.Cell{B: 0xA1, Mark: true}
		assert.Equal(t, []floppy.Cell{c2, c2, c2, {B: 0xFC}}, cells[92:96])
		assert.Equal(t, []floppy.Cell{a1, a1, a1, {B: 0xFE}, {}, {}, {B: 1}, {B: 2}}, cells[158:166])
		crc := floppy.IDCRC(false, &fdimage.Sector{C: 0, H: 0, R: 1, N: 2})
		assert.Equal(t, []floppy.Cell{{B: byte(crc >> 8)}, {B: byte(crc)}}, cells[166:168])
		given := stream[:len(drq)]
		for j := 1; j+2 < len(drq); j++ {
			// drq[j+1] rose when the answer to drq[j] was taken.
			want := floppy.MFMCell
			if given[j-1] == 0xF7 {
				want = 2 * floppy.MFMCell // its two CRC bytes
			}
			require.Equal(t, want, drq[j+1]-drq[j], "DRQ %d", j)
		}
	})
	t.Run("a host 1.5 byte times late after F7 loses nothing", func(t *testing.T) {
		r := newRig(t, fdimage.NewDisk(40, 2), false)
		r.serveWrites(stream, func(_ int, prev byte) sched.Time {
			if prev == 0xF7 {
				return 48 * us
			}
			return 2 * us
		})
		r.cmd(0, 0xD0)
		r.cmd(1*ms, 0xF8)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		assert.Zero(t, r.f.Read(RegStatus)&StLostData)
		tr := r.media.Store().Disk().Track(0, 0)
		require.Len(t, tr.Sectors, 10)
		for _, s := range tr.Sectors {
			assert.False(t, s.BadCRC || s.BadIDCRC, "sector %d", s.R)
		}
	})
	t.Run("Read Track returns the written marks, IDs and CRCs", func(t *testing.T) {
		r := newRig(t, fdimage.NewDisk(40, 2), false)
		r.serveWrites(stream, func(int, byte) sched.Time { return 2 * us })
		r.cmd(0, 0xD0)
		r.cmd(1*ms, 0xF8)
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		r.serveReads(us)
		r.cmd(end+ms, 0xE8)
		_, ok = r.waitIdle(end + sched.Second)
		require.True(t, ok)
		assert.Zero(t, r.f.Read(RegStatus)&StLostData)
		var seen []byte
		for i := 0; i+10 <= len(r.got); i++ {
			if !bytes.Equal(r.got[i:i+4], []byte{0xA1, 0xA1, 0xA1, 0xFE}) {
				continue
			}
			crc := uint16(0xFFFF)
			for _, b := range r.got[i : i+8] {
				crc = floppy.CRC16(crc, b)
			}
			assert.Equal(t, []byte{0, 0}, r.got[i+4:i+6], "C H")
			assert.Equal(t, []byte{byte(crc >> 8), byte(crc)}, r.got[i+8:i+10], "ID CRC")
			seen = append(seen, r.got[i+6])
		}
		assert.Equal(t, ids, seen)
		assert.Equal(t, bytes.Repeat([]byte{0x4E}, 80), r.got[:80], "gap 4a")
	})
}

// When a program may poll BUSY after writing a command.
func TestAuditBusyAfterCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		fm   bool
		at   sched.Time // read after the write
		busy bool
	}{
		{"Ampro OUTCMD waits 60 us: BUSY", false, 60 * us, true},
		{"our boot ROM, 33 us: BUSY", false, 33 * us, true},
		{"24 us, the data sheet's minimum in MFM: BUSY", false, 24 * us, true},
		{"23 us: too early, the old status", false, 23 * us, false},
		{"FM, 48 us: BUSY", true, 48 * us, true},
		{"FM, 47 us: too early", true, 47 * us, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := plainAmp2(t)
			r.f.SetDensity(0, !tc.fm)
			r.f.Write(RegSector, 17)
			r.cmd(1*ms, 0x88)
			r.s.Advance(1*ms + tc.at)
			assert.Equal(t, tc.busy, r.f.Read(RegStatus)&StBusy != 0)
		})
	}
}

// No diskette, no drive: what waits for ever (a program's own timeout and
// D0 end it) and what ends by itself.
func TestAuditNoDisk(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noDrive bool
		cmd     byte
		track0  bool // TR00 in the type I status after D0
	}{
		{"empty drive, Restore h=0: waits for the spin-up", false, 0x00, true},
		{"empty drive, Restore h=1 V=1: waits in the verify", false, 0x0C, true},
		{"empty drive, Read Address: waits for an ID", false, 0xC8, true},
		{"empty drive, Write Track: Lost Data after 3 byte times", false, 0xF8, true},
		{"no drive, Read Sector: waits for an ID", true, 0x88, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, nil, false)
			if tc.noDrive {
				r.f.Select(0, nil)
			}
			r.f.Write(RegSector, 1)
			r.cmd(0, tc.cmd)
			end, ok := r.waitIdle(10 * sched.Second)
			if tc.cmd == 0xF8 {
				require.True(t, ok)
				assert.Equal(t, typeIIStart+3*floppy.MFMCell, end)
				assert.Equal(t, byte(StMotor|StLostData), r.f.Read(RegStatus), "DRQ dropped at the end")
				assert.False(t, r.f.DRQ())
				return
			}
			assert.False(t, ok, "still busy after 10 s")
			assert.Zero(t, r.s.Pending(), "nothing ticks while it waits")
			assert.False(t, r.f.INTRQ())
			r.cmd(10*sched.Second+ms, 0xD0)
			st := r.f.Read(RegStatus) // busy: ends, status kept
			assert.Zero(t, st&StBusy)
			assert.False(t, r.f.INTRQ())
			r.cmd(10*sched.Second+2*ms, 0xD0) // idle: type I
			assert.Equal(t, tc.track0, r.f.Read(RegStatus)&StTrack0 != 0)
		})
	}
}

// A command written while one runs is ignored (Force Interrupt excepted);
// Force Interrupt acts at once, so a command right after it is taken.
func TestAuditCommandWhileBusy(t *testing.T) {
	t.Run("Restore during a Read Sector search: ignored", func(t *testing.T) {
		r := plainAmp2(t)
		r.f.Write(RegSector, 99)
		r.cmd(0, 0x88)
		r.cmd(100*ms, 0x08)
		end, ok := r.waitIdle(2 * sched.Second)
		require.True(t, ok)
		assert.Equal(t, after(r.idx(), 0)[4], end, "the Read Sector ran to its RNF")
		assert.Equal(t, byte(StMotor|StRNF), r.f.Read(RegStatus))
		assert.EqualValues(t, 0x88, r.f.State().Cmd)
	})
	t.Run("D0 then Restore 8 us later: the Restore runs [A]", func(t *testing.T) {
		r := plainAmp2(t)
		r.f.Write(RegSector, 99)
		r.cmd(0, 0x88)
		r.cmd(100*ms, 0xD0)
		r.cmd(100*ms+8*us, 0x08)
		end, ok := r.waitIdle(2 * sched.Second)
		require.True(t, ok)
		assert.Equal(t, 100*ms+8*us+typeIDelay, end)
		assert.EqualValues(t, 0x08, r.f.State().Cmd)
		assert.True(t, r.f.INTRQ())
	})
}
