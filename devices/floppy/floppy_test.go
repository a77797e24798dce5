package floppy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

const rev = 200 * sched.Millisecond

// Every Ampro format fits a revolution with the speed tolerance left
// free, and the stream the layout gives parses back to the same sectors at
// the same places.
func TestLayoutFitsAndParsesBack(t *testing.T) {
	for _, f := range fdimage.Formats {
		tr := f.NewTrack(3, 1, 0xE5)
		tr.Sectors[1].Deleted = true
		tr.Sectors[2].BadCRC = true
		tr.Sectors[0].Data[7] = 0x42
		p := StandardLayout(&tr, rev)
		require.Equal(t, 6250, p.Len, f.Name)
		last := len(tr.Sectors) - 1
		end := p.DataAt[last] + 1 + f.Size + 2
		assert.LessOrEqual(t, float64(end), float64(p.Len)*(1-SpeedTolerance)+84, f.Name)
		assert.Greater(t, p.IDAt[0], 0)
		got, gp := Parse(Stream(&tr, p), false, MFMCell)
		got.Cyl, got.Head = 3, 1
		assert.Equal(t, tr, got, f.Name)
		assert.Equal(t, p.IDAt, gp.IDAt, f.Name)
		assert.Equal(t, p.DataAt, gp.DataAt, f.Name)
	}
	// FM too.
	fm := fdimage.Format{Name: "fm", Cylinders: 1, Heads: 1, Sectors: 10, Size: 256, FirstID: 1, Interleave: 1, FM: true}
	tr := fm.NewTrack(0, 0, 0x11)
	p := StandardLayout(&tr, rev)
	require.Equal(t, 3125, p.Len)
	got, _ := Parse(Stream(&tr, p), true, FMCell)
	assert.Equal(t, tr, got)
}

// 10 x 512 MFM at the standard gaps: the sector pitch is 601 bytes
// (19.232 ms), gap 3 is 27 bytes.
func TestAmpro512Pitch(t *testing.T) {
	f, _ := fdimage.ParseFormat("amp2")
	tr := f.NewTrack(0, 0, 0)
	p := StandardLayout(&tr, rev)
	assert.Equal(t, 161, p.IDAt[0])
	assert.Equal(t, 205, p.DataAt[0])
	assert.Equal(t, 601, p.IDAt[1]-p.IDAt[0])
}

func TestCRC16(t *testing.T) {
	// The CRC of A1 A1 A1 FE 00 00 01 02 is 0xCA6F, as every IBM MFM
	// track's first ID field carries [F].
	assert.Equal(t, uint16(0xCA6F), CRC16(0xFFFF, 0xA1, 0xA1, 0xA1, 0xFE, 0, 0, 1, 2))
}

func TestDriveSpindleIndexAndSteps(t *testing.T) {
	s := sched.New()
	d := NewDrive(s, "fd0", DefaultParams(40))
	var idx []sched.Time
	d.Observe(func(now sched.Time, _ string, sig Signal, v int) {
		if sig == Index && v == 1 {
			idx = append(idx, now)
		}
	})
	d.SetMotor(0, true)
	s.Advance(sched.Second)
	assert.Empty(t, idx, "no disk, no index pulses")
	assert.False(t, d.Ready())
	_, ok := d.NextIndex(0)
	assert.False(t, ok)

	f, _ := fdimage.ParseFormat("amp2")
	d.Insert(s.Now(), NewMedia("x", &MemoryStore{D: f.NewDisk(0)}, false))
	t0 := s.Now()
	s.Advance(t0 + 999*sched.Millisecond)
	require.Len(t, idx, 5)
	for i, x := range idx {
		assert.Equal(t, t0+sched.Time(i)*rev, x)
	}
	assert.True(t, d.Ready())
	// Motor off: the disk stops where it is and keeps its angle.
	s.Advance(t0 + 1050*sched.Millisecond)
	d.SetMotor(s.Now(), false)
	assert.Equal(t, 50*sched.Millisecond, d.Angle(s.Now()+sched.Second))
	assert.False(t, d.Ready())
	assert.Zero(t, s.Pending(), "a stopped drive queues nothing")
	s.Advance(s.Now() + sched.Second)
	d.SetMotor(s.Now(), true)
	next, _ := d.NextIndex(s.Now())
	assert.Equal(t, 150*sched.Millisecond, next-s.Now())

	// Steps: the carriage stops at 0 and StopCylinder; too fast a pulse is
	// lost.
	now := s.Now()
	d.Step(now, false)
	assert.Equal(t, 0, d.Cylinder())
	for i := 0; i < 50; i++ {
		now += 3 * sched.Millisecond
		d.Step(now, true)
	}
	assert.Equal(t, 41, d.Cylinder())
	d.Step(now+sched.Millisecond, false)
	assert.Equal(t, 41, d.Cylinder(), "1 ms after the last pulse: lost")
}

func TestSnapshotSectorUnderHead(t *testing.T) {
	s := sched.New()
	d := NewDrive(s, "fd0", DefaultParams(40))
	f, _ := fdimage.ParseFormat("amp2")
	d.Insert(0, NewMedia("x", &MemoryStore{D: f.NewDisk(0)}, false))
	d.SetMotor(0, true)
	_, p := d.Head()
	at := sched.Time(p.DataAt[1]+100) * MFMCell
	snap := d.Snapshot(at)
	assert.Equal(t, 22, snap.SectorUnder) // interleave 2: 17, 22, 18, ...
	assert.Equal(t, -1, d.Snapshot(10*MFMCell).SectorUnder)
}

// FormatStream, fed to a Write Track that records cells as the chip does,
// gives back the same track at the same positions (the chip's half of this
// is tested in wd1772 and bench TestZ80FormatWriteReadAddress).
func TestFormatStreamCodes(t *testing.T) {
	f, _ := fdimage.ParseFormat("amp2")
	tr := f.NewTrack(5, 1, 0xE5)
	p := StandardLayout(&tr, rev)
	st := FormatStream(&tr, p)
	// 10 sectors: two F7 (ID and data CRC) each, three F5 before each mark.
	count := map[byte]int{}
	for _, b := range st {
		count[b]++
	}
	assert.Equal(t, 20, count[0xF7])
	assert.Equal(t, 60, count[0xF5])
	assert.Equal(t, 3, count[0xF6])
	assert.Equal(t, p.Len-20+256, len(st))
}
