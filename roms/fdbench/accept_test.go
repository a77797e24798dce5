package fdbench

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/devices/wd1772"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

func TestPad(t *testing.T) {
	for _, n := range []int{0, 4, 6, 7, 8, 83, 150 - 67, 13, 100} {
		a, b, c, ok := pad(n)
		require.True(t, ok, n)
		assert.Equal(t, n, 4*a+6*b+7*c, n)
	}
	_, err := Build(68)
	assert.Error(t, err)
}

// The read loop's cost per byte is what its name says: the T-states of the
// instructions on the byte path (conditional jumps not taken), from the
// assembler's listing, which uses the CPU's own timing table.
func TestLoopTStates(t *testing.T) {
	for _, loop := range []int{67, 100, 120, 150} {
		a, b, c, _ := pad(loop - BaseLoop)
		res, err := asm.AssembleString(source, asm.Options{Defines: map[string]int64{"PAD4": int64(a), "PAD6": int64(b), "PAD7": int64(c)}})
		require.NoError(t, err)
		from, to := uint16(res.Symbols["rsl"]), uint16(res.Symbols["rsend"])
		sum := 0
		for _, l := range res.Listing {
			if l.Addr >= from && l.Addr < to && l.TStates != "" {
				ts := l.TStates
				if i := strings.IndexByte(ts, '/'); i >= 0 {
					ts = ts[i+1:] // not taken
				}
				n, err := strconv.Atoi(ts)
				require.NoError(t, err)
				sum += n
			}
		}
		assert.Equal(t, loop, sum)
	}
}

// A Z80 program formats a track with Write Track, writes every sector and
// reads it back, and Read Address sees the IDs in rotational order at the
// times the track layout predicts.
func TestZ80FormatWriteReadAddress(t *testing.T) {
	disk := fdimage.NewDisk(40, 2) // unformatted
	b, err := NewBoard(disk, false)
	require.NoError(t, err)
	defer b.Close()
	p, err := Build(BaseLoop)
	require.NoError(t, err)

	f, _ := fdimage.ParseFormat("amp2")
	want := f.NewTrack(0, 0, 0xE5)
	layout := floppy.StandardLayout(&want, 200*sched.Millisecond)
	stream := floppy.FormatStream(&want, layout)
	data := map[byte][]byte{0x10: stream}
	ids := []byte{}
	for _, s := range want.Sectors {
		ids = append(ids, s.R)
	}

	var s Script
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
	var falls []sched.Time
	b.FDC().Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
		if sig == floppy.Busy && v == 0 {
			falls = append(falls, now)
		}
	})
	res, err := Exec(b, p, s, data, 20*sched.Second)
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
		assert.True(t, bytes.Equal(data[byte(0x30+2*i)], Page(b, byte(0x50+2*i), 512)), "sector %d", 17+i)
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
		b, err := NewBoard(f.NewDisk(0xE5), false)
		require.NoError(t, err)
		p, err := Build(tc.loop)
		require.NoError(t, err)
		var s Script
		s.Latch(0x01)
		s.TypeI(0x08, 0)
		s.ReadSector(17, 0x20, 0)
		res, err := Exec(b, p, s, nil, 5*sched.Second)
		require.NoError(t, err)
		require.Len(t, res.Status, 2)
		assert.Equal(t, tc.lost, res.Status[1]&wd1772.StLostData != 0, "loop %d: status %02X", tc.loop, res.Status[1])
		b.Close()
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
	b, err := NewBoard(nil, false)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.InsertFloppy(0, path, fdimage.Options{ReadOnly: true}))
	p, err := Build(BaseLoop)
	require.NoError(t, err)
	var s Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteSector(17, 0x20)
	res, err := Exec(b, p, s, map[byte][]byte{0x20: bytes.Repeat([]byte{0x55}, 512)}, 5*sched.Second)
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
	b, err := NewBoard(nil, false)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.InsertFloppy(0, path, fdimage.Options{Format: "amp2"}))
	nine := fdimage.Format{Name: "x", Cylinders: 40, Heads: 2, Sectors: 9, Size: 512, FirstID: 17, Interleave: 1}.NewTrack(0, 0, 0xE5)
	stream := floppy.FormatStream(&nine, floppy.StandardLayout(&nine, 200*sched.Millisecond))
	p, err := Build(BaseLoop)
	require.NoError(t, err)
	var s Script
	s.Latch(0x01)
	s.TypeI(0x08, 0)
	s.WriteTrack(0x10, byte((len(stream)+255)/256))
	_, err = Exec(b, p, s, map[byte][]byte{0x10: stream}, 5*sched.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "holds 10 sectors a track, not 9")
	after, _ := os.ReadFile(path)
	assert.Equal(t, before, after)
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
	b.Out(0xC0, 0xC8, 12) // Read Address, nobody reads: the last DRQ stays up
	require.NoError(t, b.RunFor(300*sched.Millisecond))
	require.True(t, b.FDC().DRQ())
	t0 := b.CPU().T()
	rr0, _ := b.In(0x84, t0)
	assert.NotZero(t, rr0&0x10, "RIA = DRQ")
	b.In(0xC7, t0+20) // the data read drops DRQ and ends the command (INTRQ)
	rr0, _ = b.In(0x84, t0+40)
	assert.Zero(t, rr0&0x10)
	assert.Equal(t, []bool{true}, intrq)
	n, _ := b.In(0x70, t0+60)
	assert.Equal(t, uint8(0x0F), n, "CTC 3 counted the INTRQ edge")
}
