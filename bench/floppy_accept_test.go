package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/devices/wd1772"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// loadFloppy is LoadFloppy on FloppyConfig's machine with disk (nil: the
// drive is empty) in drive 0, closed when the test ends.
func loadFloppy(t testing.TB, disk *fdimage.Disk, loop int, s fdbench.Script, data map[byte][]byte) *FloppyRun {
	t.Helper()
	r, err := LoadFloppy(FloppyConfig(), loop, s, data)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	if disk != nil {
		require.NoError(t, r.Board.InsertFloppyDisk(0, "fdbench", disk, false))
	}
	return r
}

// A Z80 program formats a track with Write Track, writes every sector and
// reads it back, and Read Address sees the IDs in rotational order at the
// times the track layout predicts.
func TestZ80FormatWriteReadAddress(t *testing.T) {
	disk := fdimage.NewDisk(40, 2) // unformatted
	f, _ := fdimage.ParseFormat("amp2")
	want := f.NewTrack(0, 0, 0xE5)
	layout := floppy.StandardLayout(&want, 200*sched.Millisecond)
	stream := floppy.FormatStream(&want, layout)
	data := map[byte][]byte{0x10: stream}
	ids := []byte{}
	for _, s := range want.Sectors {
		ids = append(ids, s.R)
	}

	var s fdbench.Script
	s.Latch(0x01)    // drive 0, side 0, MFM
	s.TypeI(0x08, 0) // Restore, h = 1: the motor starts
	s.WriteTrack(0x10, byte((len(stream)+255)/256))
	for i := 0; i < 10; i++ {
		r := byte(17 + i)
		page := byte(0x30 + 2*i)
		d := make([]byte, 512)
		for k := range d {
			d[k] = byte(k*3) ^ r
		}
		data[page] = d
		s.WriteSector(r, page)
	}
	for i := 0; i < 10; i++ {
		s.ReadSector(byte(17+i), byte(0x50+2*i), 0)
	}
	for i := 0; i < 12; i++ {
		s.ReadAddress()
	}
	run := loadFloppy(t, disk, fdbench.BaseLoop, s, data)
	b := run.Board
	var falls []sched.Time
	b.FDC().Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
		if sig == floppy.Busy && v == 0 {
			falls = append(falls, now)
		}
	})
	res, err := run.Finish(20 * sched.Second)
	require.NoError(t, err)

	// Every command ended clean (bit 7 is the motor).
	require.Len(t, res.Status, 2+10+10+12)
	assert.Zero(t, res.Status[0]&(wd1772.StSeekError|wd1772.StCRC), "Restore status %02X", res.Status[0])
	for i, st := range res.Status[1:] {
		assert.Zero(t, st&(wd1772.StProtect|wd1772.StRNF|wd1772.StCRC|wd1772.StLostData|wd1772.StBusy), "command %d status %02X", i+1, st)
	}
	// The track as formatted: IDs, order and the standard positions.
	got := disk.Track(0, 0)
	require.Len(t, got.Sectors, 10)
	d := b.FloppyDrive(0)
	_, pos := d.Head()
	assert.Equal(t, layout.IDAt, pos.IDAt)
	for i, sec := range got.Sectors {
		assert.Equal(t, ids[i], sec.R)
	}
	// Written and read back.
	for i := 0; i < 10; i++ {
		assert.True(t, bytes.Equal(data[byte(0x30+2*i)], run.Page(byte(0x50+2*i), 512)), "sector %d", 17+i)
	}
	// Read Address: rotational order, each when its CRC passed the head
	// (plus the polling loop's time to take the last byte).
	require.Len(t, res.RA, 12)
	raFalls := falls[len(falls)-12:]
	k0 := got.Find(res.RA[0][2])
	for i, id := range res.RA {
		assert.Equal(t, ids[(k0+i)%10], id[2], "ID %d", i)
		assert.Equal(t, byte(0), id[0])
		k := got.Find(id[2])
		rev := d.RevStart(raFalls[i])
		pred := rev + sched.Time(pos.IDAt[k]+7)*floppy.MFMCell
		lag := raFalls[i] - pred
		// The status poll that just missed DRQ (38 T round the loop) and
		// the pass that takes the byte (33 T to the data read): 80 T.
		assert.True(t, lag >= 0 && lag <= 80*sched.TState, "ID %d: busy fell %v after the CRC passed", id[2], lag)
	}
}

// 67 T-states a byte keeps up with 32 us bytes; 150 does not.
func TestLoopSpeedLostData(t *testing.T) {
	for _, tc := range []struct {
		loop int
		lost bool
	}{{67, false}, {120, false}, {150, true}} {
		f, _ := fdimage.ParseFormat("amp2")
		var s fdbench.Script
		s.Latch(0x01)
		s.TypeI(0x08, 0)
		s.ReadSector(17, 0x20, 0)
		res, err := loadFloppy(t, f.NewDisk(0xE5), tc.loop, s, nil).Finish(5 * sched.Second)
		require.NoError(t, err)
		require.Len(t, res.Status, 2)
		assert.Equal(t, tc.lost, res.Status[1]&wd1772.StLostData != 0, "loop %d: status %02X", tc.loop, res.Status[1])
	}
}

// A write-protected image (opened read-only) written to by the Z80: the
// write ends with status bit 6 and the file is unchanged.
func TestZ80WriteToReadOnlyImage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.imd")
	f, _ := fdimage.ParseFormat("amp2")
	require.NoError(t, fdimage.Create(path, f, f.NewDisk(0xE5), "IMD 1.18: test"))
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteSector(17, 0x20)
	run := loadFloppy(t, nil, fdbench.BaseLoop, s, map[byte][]byte{0x20: bytes.Repeat([]byte{0x55}, 512)})
	require.NoError(t, run.Board.InsertFloppy(0, path, fdimage.Options{ReadOnly: true}))
	res, err := run.Finish(5 * sched.Second)
	require.NoError(t, err)
	assert.NotZero(t, res.Status[1]&wd1772.StProtect, "status %02X", res.Status[1])
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

// A Z80 format of 9 sectors on a raw amp2 image, which holds 10 a track:
// the run stops with one clear error and the file is unchanged.
func TestZ80FormatRawCannotHold(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.img")
	f, _ := fdimage.ParseFormat("amp2")
	require.NoError(t, fdimage.Create(path, f, f.NewDisk(0xE5), ""))
	before, _ := os.ReadFile(path)
	nine := fdimage.Format{Name: "x", Cylinders: 40, Heads: 2, Sectors: 9, Size: 512, FirstID: 17, Interleave: 1}.NewTrack(0, 0, 0xE5)
	stream := floppy.FormatStream(&nine, floppy.StandardLayout(&nine, 200*sched.Millisecond))
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteTrack(0x10, byte((len(stream)+255)/256))
	run := loadFloppy(t, nil, fdbench.BaseLoop, s, map[byte][]byte{0x10: stream})
	require.NoError(t, run.Board.InsertFloppy(0, path, fdimage.Options{Format: "amp2"}))
	_, err := run.Finish(5 * sched.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "holds 10 sectors a track, not 9")
	after, _ := os.ReadFile(path)
	assert.Equal(t, before, after)
}

// Scripts and data that do not fit the program's memory map are refused
// before anything runs; so is an operation the program does not know.
func TestLoadFloppyRefuses(t *testing.T) {
	long := make(fdbench.Script, 300)
	_, err := LoadFloppy(FloppyConfig(), fdbench.BaseLoop, long, nil)
	assert.EqualError(t, err, "fdbench: script of 300 operations is too long")
	_, err = LoadFloppy(FloppyConfig(), fdbench.BaseLoop, nil, map[byte][]byte{0x08: {1}})
	assert.EqualError(t, err, "fdbench: data at page 08h would overwrite the program (pages 10h and up)")
	_, err = LoadFloppy(FloppyConfig(), 68, nil, nil)
	assert.ErrorContains(t, err, "no read loop of 68 T-states")
	bad := fdbench.Script{{9, 0, 0, 0}}
	_, err = loadFloppy(t, nil, fdbench.BaseLoop, bad, nil).Finish(sched.Second)
	assert.EqualError(t, err, "fdbench: the script has an unknown operation")
}
