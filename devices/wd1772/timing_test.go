package wd1772

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

const ms = sched.Millisecond
const us = sched.Microsecond

var typeIDelay = 90 * us  // CommandCommit + TypeIDelay at 8 MHz: write -> first step
var typeIIStart = 28 * us // CommandCommit + TypeIIDelay in MFM: write -> search

// Step pulses come exactly at the rate the r1 r0 bits select: 6, 12, 2,
// 3 ms.
func TestStepRates(t *testing.T) {
	for rate, want := range []sched.Time{6 * ms, 12 * ms, 2 * ms, 3 * ms} {
		r := newRig(t, amp2(), false)
		r.f.Write(RegData, 5)
		r.cmd(0, 0x18|byte(rate)) // Seek, h = 1, no verify
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		steps := r.times("fd0", floppy.Step, -1)
		require.Len(t, steps, 5, "rate %d", rate)
		assert.Equal(t, typeIDelay, steps[0])
		for i := 1; i < len(steps); i++ {
			assert.Equal(t, want, steps[i]-steps[i-1], "rate %d step %d", rate, i)
		}
		assert.Equal(t, typeIDelay+5*want, end, "rate %d: seek ends one step period after the last pulse", rate)
		assert.EqualValues(t, 5, r.f.Peek(RegTrack))
		if want >= r.d.Params().MinStep {
			assert.Equal(t, 5, r.d.Cylinder())
		} else {
			// The drive cannot follow 2 ms pulses: every other is lost and
			// the head lags the track register (why the BIOS has per-drive
			// step rates).
			assert.Equal(t, 3, r.d.Cylinder())
		}
	}
}

// V waits 15 ms of head settling after the last step period, then finds an
// ID with the track number.
func TestSettleAndVerify(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.f.Write(RegData, 2)
	r.cmd(0, 0x1C) // Seek, h, V, 6 ms
	end, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	var settle, verify sched.Time
	for _, e := range r.log {
		if e.who == "fdc" && e.s == floppy.State && state(e.v) == sSettle {
			settle = e.at
		}
		if e.who == "fdc" && e.s == floppy.State && state(e.v) == sVerify {
			verify = e.at
		}
	}
	assert.Equal(t, typeIDelay+2*6*ms, settle)
	assert.Equal(t, 15*ms, verify-settle)
	// The first ID caught after the settle: predicted from the layout.
	tr, p := r.d.Head()
	rev := r.d.RevStart(verify)
	want := sched.MaxTime
	for k := 0; k < 2; k++ {
		for i := range tr.Sectors {
			start := rev + sched.Time(k)*200*ms + sched.Time(p.IDAt[i]-3)*floppy.MFMCell
			if start >= verify && start < want {
				want = start
			}
		}
	}
	assert.Equal(t, want+10*floppy.MFMCell, end, "verify ends when the ID's CRC has passed")
	assert.Zero(t, r.f.Peek(RegStatus)&(StSeekError|StCRC))
}

// h = 0 with the motor off waits six index pulses; after the command the
// motor runs nine more revolutions.
func TestSpinUpAndMotorOff(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.cmd(0, 0x00) // Restore at track 0, h = 0, no verify
	end, ok := r.waitIdle(5 * sched.Second)
	require.True(t, ok)
	idx := r.times("fd0", floppy.Index, 1)
	require.GreaterOrEqual(t, len(idx), 6)
	assert.Equal(t, idx[5], end, "spin-up ends on the sixth index pulse")
	assert.NotZero(t, r.f.Peek(RegStatus)&StSpunUp)
	assert.NotZero(t, r.f.Peek(RegStatus)&StMotor)
	// h = 1 clears bit 5; h = 0 with the motor running sets it at once.
	r.cmd(end+ms, 0x08)
	e1, ok := r.waitIdle(end + sched.Second)
	require.True(t, ok)
	assert.Zero(t, r.f.Peek(RegStatus)&StSpunUp)
	r.cmd(e1+ms, 0x00)
	e2, ok := r.waitIdle(e1 + sched.Second)
	require.True(t, ok)
	assert.Equal(t, e1+ms+typeIDelay, e2, "no spin-up wait with the motor on")
	assert.NotZero(t, r.f.Peek(RegStatus)&StSpunUp)
	end = e2
	r.s.Advance(end + 3*sched.Second)
	off := r.times("fd0", floppy.Motor, 0)
	require.Len(t, off, 1)
	idle := after(r.times("fd0", floppy.Index, 1), end+1)
	assert.Equal(t, idle[8], off[0], "motor off on the ninth idle index pulse")
	assert.True(t, off[0]-end > 8*200*ms && off[0]-end <= 9*200*ms, "between 8 and 9 revolutions after the command")
	assert.Zero(t, r.f.Peek(RegStatus)&StMotor)
	// Stopped: no more index events are queued (idle hardware is not ticked).
	assert.Zero(t, r.s.Pending())
}

// A sector that is not there: Record Not Found on the fifth index pulse.
func TestRecordNotFoundAfterFiveIndexPulses(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.f.Write(RegSector, 99)
	r.cmd(0, 0x88) // Read Sector, h = 1
	end, ok := r.waitIdle(5 * sched.Second)
	require.True(t, ok)
	idx := r.times("fd0", floppy.Index, 1)
	require.GreaterOrEqual(t, len(idx), 5)
	assert.Equal(t, idx[4], end)
	assert.Equal(t, byte(StRNF|StMotor), r.f.Peek(RegStatus))
	assert.True(t, r.f.INTRQ())
}

// The data register fills every byte cell: 32 us in MFM, 64 us in FM.
func TestDRQInterval(t *testing.T) {
	for _, fm := range []bool{false, true} {
		disk := amp2()
		want := floppy.MFMCell
		if fm {
			f := fdimage.Format{Name: "fm", Cylinders: 40, Heads: 2, Sectors: 5, Size: 256, FirstID: 1, Interleave: 1, FM: true}
			disk = f.NewDisk(0x5A)
			want = floppy.FMCell
		}
		r := newRig(t, disk, false)
		r.f.SetDensity(0, !fm)
		r.lag = 1 * us
		first := disk.Track(0, 0).Sectors[0]
		r.f.Write(RegSector, first.R)
		r.cmd(0, 0x88)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		drq := r.times("fdc", floppy.DRQ, 1)
		require.Len(t, drq, first.Size())
		for i := 1; i < len(drq); i++ {
			require.Equal(t, want, drq[i]-drq[i-1], "fm %v byte %d", fm, i)
		}
		assert.Equal(t, first.Data, r.got)
		assert.Zero(t, r.f.Peek(RegStatus)&(StLostData|StCRC|StRNF|StBusy))
	}
}

// A host that leaves DRQ pending past the next byte loses data.
func TestLostData(t *testing.T) {
	for _, tc := range []struct {
		lag  sched.Time
		lost bool
	}{{1 * us, false}, {31 * us, false}, {33 * us, true}} {
		r := newRig(t, amp2(), false)
		r.lag = tc.lag
		r.f.Write(RegSector, 17)
		r.cmd(0, 0x88)
		_, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		assert.Equal(t, tc.lost, r.f.Peek(RegStatus)&StLostData != 0, "lag %v", tc.lag)
	}
}

// Every read command that nobody serves ends by itself, with Lost Data,
// DRQ dropped and INTRQ, as soon as its last byte has passed: the host
// never has to read the data register for BUSY to drop [F WD1772-DS,
// WD-MAME]. Ampro's BIOS relies on this: its Restore sends Read Address
// and only polls BUSY (TestAmproRestoreReadAddress).
func TestUnservedReadEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  byte
		// last DRQ of the command: after it the command must end within
		// a few byte times
		drqs int
	}{
		{"read address", 0xC8, 1},
		{"read sector", 0x88, 1},
		{"read track", 0xE8, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, amp2(), false)
			r.f.Write(RegSector, 17)
			r.cmd(0, tc.cmd)
			end, ok := r.waitIdle(2 * sched.Second)
			require.True(t, ok, "BUSY must drop with nobody reading")
			st := r.f.Peek(RegStatus)
			assert.NotZero(t, st&StLostData)
			assert.Zero(t, st&StDRQ, "DRQ dropped at the end")
			assert.True(t, r.f.INTRQ())
			drq := r.times("fdc", floppy.DRQ, 1)
			require.Len(t, drq, tc.drqs, "no DRQ after data was lost")
			assert.Equal(t, end, r.times("fdc", floppy.Busy, 0)[0])
		})
	}
}

// A host that served every byte but is late for the last one (no data
// lost) keeps BUSY until it reads it; then INTRQ [F WD-MAME].
func TestLateLastByteHoldsBusy(t *testing.T) {
	disk := amp2()
	r := newRig(t, disk, false)
	r.lag = 1 * us
	r.f.Write(RegSector, 17)
	r.cmd(0, 0x88)
	for len(r.got) < 511 {
		r.s.Advance(r.s.Next())
	}
	r.lag = 0 // the last byte is left pending
	r.s.Advance(r.s.Now() + 500*ms)
	st := r.f.Peek(RegStatus)
	assert.NotZero(t, st&StBusy, "BUSY held for the pending byte")
	assert.NotZero(t, st&StDRQ)
	assert.Zero(t, st&StLostData)
	assert.False(t, r.f.INTRQ())
	r.got = append(r.got, r.f.Read(RegData))
	assert.Zero(t, r.f.Peek(RegStatus)&(StBusy|StLostData))
	assert.True(t, r.f.INTRQ())
	tr := disk.Track(0, 0)
	assert.Equal(t, tr.Sectors[tr.Find(17)].Data, r.got)
}

// Read Address returns the IDs in rotational order (interleave 2 on amp2),
// each when its CRC has passed the head, as the track layout predicts.
func TestReadAddressOrderAndTimes(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.lag = 1 * us
	tr, p := r.d.Media().Track(0, 0, 200*ms)
	var ids []byte
	var at []sched.Time
	now := sched.Time(0)
	for i := 0; i < 12; i++ {
		r.got = nil
		r.cmd(now, 0xC8)
		end, ok := r.waitIdle(sched.Second)
		require.True(t, ok)
		require.Len(t, r.got, 6)
		ids = append(ids, r.got[2])
		assert.Equal(t, r.got[0], r.f.Peek(RegSector), "the track byte goes to the sector register")
		at = append(at, end-r.lag)
		now = end
	}
	assert.Equal(t, []byte{17, 22, 18, 23, 19, 24, 20, 25, 21, 26, 17, 22}, ids)
	spin := typeIIStart // the motor came on with the first command
	for i := range ids {
		k := tr.Find(ids[i])
		rev := sched.Time(i/10) * 200 * ms
		assert.Equal(t, spin+rev+sched.Time(p.IDAt[k]+7)*floppy.MFMCell, at[i], "ID %d", i)
	}
}

// No disk: no index pulses, so a Read Sector never ends by itself (the
// Ampro ROM times out and issues D0); D0 ends it without INTRQ, and the
// status becomes type I.
func TestEmptyDriveWaitsForever(t *testing.T) {
	r := newRig(t, nil, false)
	r.f.Write(RegSector, 1)
	r.cmd(0, 0x88)
	_, ok := r.waitIdle(10 * sched.Second)
	assert.False(t, ok)
	assert.NotZero(t, r.f.Peek(RegStatus)&StBusy)
	assert.Zero(t, r.s.Pending(), "nothing is ticking while the chip waits")
	r.f.Write(RegCommand, 0xD0)
	st := r.f.Read(RegStatus)
	assert.Zero(t, st&StBusy)
	assert.False(t, r.f.INTRQ())
	r.f.Write(RegCommand, 0xD0) // again, not busy: type I status
	assert.NotZero(t, r.f.Peek(RegStatus)&StTrack0)
}

// E on a type II command: 15 ms of settling before the ID search.
func TestSettleTypeII(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.lag = us
	r.f.Write(RegSector, 17)
	r.cmd(0, 0x8C) // Read Sector, h, E
	_, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	var settle, search sched.Time = -1, -1
	for _, e := range r.log {
		if e.who == "fdc" && e.s == floppy.State {
			switch state(e.v) {
			case sSettle:
				settle = e.at
			case sSearch:
				if search < 0 {
					search = e.at
				}
			}
		}
	}
	assert.Equal(t, typeIIStart, settle, "after the type II command delay")
	assert.Equal(t, 15*ms, search-settle)
	assert.Len(t, r.got, 512)
}

// A high-density track (IMD mode 3, 500 kbit/s) has 16 us bytes: the chip
// reads it only with port 00's 16 MHz clock, and then every 16 us.
func TestHighDensityNeeds16MHz(t *testing.T) {
	f := fdimage.Format{Name: "hd", Cylinders: 80, Heads: 2, Sectors: 9, Size: 1024, FirstID: 1, Interleave: 1}
	disk := f.NewDisk(0x3C)
	for i := range disk.Tracks {
		disk.Tracks[i].Rate = 500
	}
	r := newRig(t, disk, false)
	r.lag = us
	r.f.Write(RegSector, 1)
	r.cmd(0, 0x88)
	_, ok := r.waitIdle(2 * sched.Second)
	require.True(t, ok)
	assert.NotZero(t, r.f.Peek(RegStatus)&StRNF, "8 MHz: no IDs")
	r.f.SetClock16(r.s.Now(), true)
	r.got = nil
	start := r.s.Now()
	r.cmd(start, 0x88)
	_, ok = r.waitIdle(start + sched.Second)
	require.True(t, ok)
	require.Zero(t, r.f.Peek(RegStatus)&(StRNF|StLostData|StCRC))
	assert.Len(t, r.got, 1024)
	drq := after(r.times("fdc", floppy.DRQ, 1), start)
	assert.Equal(t, 16*us, drq[5]-drq[4])
}

// Observers see each ID field the chip reads: the sectors passing under
// the head in rotational order.
func TestIDFieldObserved(t *testing.T) {
	r := newRig(t, amp2(), false)
	r.f.Write(RegSector, 21)
	r.cmd(0, 0x88)
	r.lag = us
	_, ok := r.waitIdle(sched.Second)
	require.True(t, ok)
	var ids []int
	for _, e := range r.log {
		if e.s == floppy.IDField {
			ids = append(ids, e.v)
		}
	}
	assert.Equal(t, []int{17, 22, 18, 23, 19, 24, 20, 25, 21}, ids)
}

// A command is taken 24 us after it is written (48 us in FM): until then
// the status reads as before, not busy. A track or sector register write
// reads back after 8 us (16 us in FM).
func TestCommitLatency(t *testing.T) {
	for _, fm := range []bool{false, true} {
		r := newRig(t, amp2(), false)
		r.f.SetDensity(0, !fm)
		commit := 24 * us
		if fm {
			commit = 48 * us
		}
		reg := 8 * us
		if fm {
			reg = 16 * us
		}
		r.f.Write(RegSector, 0x42)
		r.f.Write(RegTrack, 0x17)
		r.s.Advance(reg - 1)
		assert.NotEqual(t, byte(0x42), r.f.Peek(RegSector), "fm %v", fm)
		assert.NotEqual(t, byte(0x17), r.f.Peek(RegTrack), "fm %v", fm)
		r.s.Advance(reg)
		assert.Equal(t, byte(0x42), r.f.Peek(RegSector), "fm %v", fm)
		assert.Equal(t, byte(0x17), r.f.Peek(RegTrack), "fm %v", fm)
		r.cmd(100*us, 0x08)
		r.s.Advance(100*us + commit - 1)
		assert.Zero(t, r.f.Peek(RegStatus)&StBusy, "fm %v: not yet taken", fm)
		r.s.Advance(100*us + commit)
		assert.NotZero(t, r.f.Peek(RegStatus)&StBusy, "fm %v: taken", fm)
	}
}
