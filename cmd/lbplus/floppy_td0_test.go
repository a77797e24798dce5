package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/bootdemo"
)

// td0CRC is the Teledisk CRC-16 (polynomial A097h, preset 0), for the
// small writer below.
func td0CRC(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0xA097
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// writeTD0 writes d as a plain Teledisk file (normal compression, every
// sector stored raw, the deleted and CRC-error flags, sectors without
// data) with a dated comment: enough for the command tests. The fdimage
// tests cover every encoding and compression.
func writeTD0(t *testing.T, path string, d *fdimage.Disk) {
	h := []byte{'T', 'D', 0, 0, 21, 0, 1, 0x80, 0, byte(d.Heads)}
	b := append(h, byte(td0CRC(h)), byte(td0CRC(h)>>8))
	text := []byte("archived\x00")
	ch := []byte{byte(len(text)), 0, 90, 7, 20, 12, 0, 0}
	crc := td0CRC(append(append([]byte{}, ch...), text...))
	b = append(append(append(b, byte(crc), byte(crc>>8)), ch...), text...)
	for _, tr := range d.Tracks {
		th := []byte{byte(len(tr.Sectors)), byte(tr.Cyl), byte(tr.Head)}
		b = append(append(b, th...), byte(td0CRC(th)))
		for _, s := range tr.Sectors {
			sh := []byte{s.C, s.H, s.R, s.N, 0}
			if s.Data == nil {
				sh[4] = 0x20
				b = append(append(b, sh...), byte(td0CRC(sh)))
				continue
			}
			if s.Deleted {
				sh[4] |= 4
			}
			if s.BadCRC {
				sh[4] |= 2
			}
			n := len(s.Data) + 1
			b = append(append(b, sh...), byte(td0CRC(s.Data)), byte(n), byte(n>>8), 0)
			b = append(b, s.Data...)
		}
	}
	b = append(b, 0xff, 0xff, 0xff, 0)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// bootDisk is an amp2 disk whose boot sector is the boot demo.
func bootDisk(t *testing.T) *fdimage.Disk {
	f, _ := fdimage.ParseFormat("amp2")
	d := f.NewDisk(0xE5)
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	tr := d.Track(0, 0)
	copy(tr.Sectors[tr.Find(17)].Data, blk)
	return d
}

// `lbplus run --fd0 boot.td0`: the board boots a Teledisk image, which the
// drive sees write-protected, with a note; with ,convert=NEW.imd it boots
// from the new writable IMD copy and the .td0 is left as it was.
func TestRunBootsTeledisk(t *testing.T) {
	dir := t.TempDir()
	td0 := filepath.Join(dir, "boot.td0")
	writeTD0(t, td0, bootDisk(t))
	orig, err := os.ReadFile(td0)
	require.NoError(t, err)
	imd := filepath.Join(dir, "copy.imd")
	for _, tc := range []struct {
		flag      string
		protected bool
		note      string
	}{
		{td0, true, "drive 0: " + td0 + " is a Teledisk image, mounted write-protected"},
		{td0 + ",convert=" + imd, false, ""},
	} {
		cmd, s := runSessionFor(t, "--fd0", tc.flag)
		var errOut bytes.Buffer
		cmd.SetErr(&errOut)
		cfg, err := s.config(cmd)
		require.NoError(t, err, tc.flag)
		if tc.note != "" {
			assert.Contains(t, errOut.String(), tc.note)
		} else {
			assert.NotContains(t, errOut.String(), "Teledisk")
		}
		tr := &console.Transcript{}
		cfg.ConsoleOut = tr.Out
		b, err := emu.New(cfg)
		require.NoError(t, err, tc.flag)
		ty := &console.Typist{B: b, T: tr}
		require.NoError(t, ty.WaitFor(bootdemo.Message), tc.flag)
		assert.Equal(t, tc.protected, b.FloppyDrive(0).WriteProtected(), tc.flag)
		require.NoError(t, b.Close())
	}
	im, err := fdimage.Open(imd, fdimage.Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, fdimage.IMD, im.Kind())
	assert.Equal(t, bootDisk(t).Tracks, im.Disk().Tracks)
	require.NoError(t, im.Close())
	after, err := os.ReadFile(td0)
	require.NoError(t, err)
	assert.Equal(t, orig, after)

	// The copy exists now: convert= to it again is refused, not overwritten.
	cfg, err := runConfigFor(t, "--fd0", td0+",convert="+imd)
	require.NoError(t, err)
	_, err = emu.New(cfg)
	require.ErrorContains(t, err, "already exists")
}

func TestFloppyConvert(t *testing.T) {
	dir := t.TempDir()
	td0 := filepath.Join(dir, "boot.td0")
	writeTD0(t, td0, bootDisk(t))
	odd := bootDisk(t)
	odd.Track(3, 1).Sectors[4].Deleted = true
	oddTD0 := filepath.Join(dir, "odd.td0")
	writeTD0(t, oddTD0, odd)
	nodata := bootDisk(t)
	nodata.Track(5, 0).Sectors[2].Data = nil
	nodataTD0 := filepath.Join(dir, "nodata.td0")
	writeTD0(t, nodataTD0, nodata)
	nine := fdimage.Format{Name: "x", Cylinders: 40, Heads: 2, Sectors: 9, Size: 512, FirstID: 1, Interleave: 1}.NewDisk(0x11)
	nineTD0 := filepath.Join(dir, "nine.td0")
	writeTD0(t, nineTD0, nine)
	want, err := os.ReadFile(td0)
	require.NoError(t, err)

	out := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name, in, out, format string
		force                 bool
		err                   string // "" = success
		say                   string
	}{
		{"td0 to imd", td0, out("a.imd"), "", false, "", "IMD image from " + td0 + " (Teledisk): 40 cylinders x 2 heads, 800 sectors"},
		{"td0 to raw, format found", td0, out("a.img"), "", false, "", "raw image, format amp2"},
		{"imd to raw", out("a.imd"), out("b.img"), "amp2", false, "", "raw image, format amp2"},
		{"raw to imd, ambiguous size", out("a.img"), out("c.imd"), "", false, "could be amp2 or amp3", ""},
		{"raw to imd", out("a.img"), out("c.imd"), "amp2", false, "", "from " + out("a.img") + " (raw)"},
		{"other geometry to raw", nineTD0, out("nine.img"), "", false, "", "format 40x2x9x512"},
		{"exists", td0, out("a.imd"), "", false, "already exists (--force replaces it)", ""},
		{"forced", td0, out("a.imd"), "", true, "", "IMD image"},
		{"same file", out("a.imd"), out("a.imd"), "", true, "same file", ""},
		{"to td0", out("a.imd"), out("x.td0"), "", false, "never writes them", ""},
		{"deleted mark to raw", oddTD0, out("odd.img"), "", false, "cylinder 3 head 1: a raw", ""},
		{"no data to raw", nodataTD0, out("nd.img"), "", false, "without data", ""},
		{"wrong geometry", td0, out("w.img"), "amp4", false, "the disk has 40 cylinders x 2 heads; a raw amp4 image holds 80 x 2", ""},
		{"bad format", td0, out("w.img"), "amp9", false, "unknown format", ""},
		{"missing input", out("none.td0"), out("n.imd"), "", false, "no such floppy image", ""},
	} {
		var w bytes.Buffer
		err := floppyConvert(&w, tc.in, tc.out, tc.format, tc.force, stamp)
		if tc.err != "" {
			require.Error(t, err, tc.name)
			assert.Contains(t, err.Error(), tc.err, tc.name)
			assert.NotContains(t, err.Error(), "\n", tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Contains(t, w.String(), tc.say, tc.name)
	}
	// Every converted image holds the boot disk's sectors.
	f, _ := fdimage.ParseFormat("amp2")
	for _, p := range []string{out("a.imd"), out("a.img"), out("b.img"), out("c.imd")} {
		im, err := fdimage.Open(p, fdimage.Options{Format: "amp2", ReadOnly: true})
		require.NoError(t, err, p)
		for _, tr := range bootDisk(t).Tracks {
			got := im.Disk().Track(tr.Cyl, tr.Head)
			for _, s := range tr.Sectors {
				i := got.Find(s.R)
				require.GreaterOrEqual(t, i, 0, p)
				require.Equal(t, s.Data, got.Sectors[i].Data, "%s c %d h %d r %d", p, tr.Cyl, tr.Head, s.R)
			}
		}
		im.Close()
	}
	st, err := os.Stat(out("a.img"))
	require.NoError(t, err)
	assert.Equal(t, f.RawSize(), st.Size())
	// The IMD keeps the Teledisk comment and dates its header from it.
	b, err := os.ReadFile(out("a.imd"))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("IMD 1.18: 20/08/1990 12:00:00\r\narchived\r\n\x1a")), "%q", b[:60])
	// Nothing was left behind by a refused conversion.
	for _, n := range []string{"odd.img", "nd.img", "w.img", "x.td0", "n.imd"} {
		_, err := os.Stat(out(n))
		assert.True(t, os.IsNotExist(err), n)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	assert.Empty(t, left)

	// info and cpm ls read a Teledisk image; cpm put is refused with how
	// to write to a copy.
	var w bytes.Buffer
	require.NoError(t, floppyInfo(&w, td0, ""))
	assert.Contains(t, w.String(), "(Teledisk)")
	assert.Contains(t, w.String(), "normal compression")
	assert.Contains(t, w.String(), "comment: archived")
	assert.Contains(t, w.String(), "80 tracks: MFM 10 sectors of 512 bytes")
	require.NoError(t, cpmOptions{}.list(&w, td0))
	txt := filepath.Join(dir, "t.txt")
	require.NoError(t, os.WriteFile(txt, []byte("x\r\n"), 0o644))
	err = cpmOptions{}.put(&w, td0, []string{txt})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "never writes a Teledisk image")
	after, _ := os.ReadFile(td0)
	assert.Equal(t, want, after)
}

// The escape prompt's insert takes a Teledisk image (write-protected,
// with the hint) and ,convert=; a bad one is one clear line.
func TestRunMenuTeledisk(t *testing.T) {
	dir := t.TempDir()
	td0 := filepath.Join(dir, "a.td0")
	writeTD0(t, td0, bootDisk(t))
	b0, _ := os.ReadFile(td0)
	bad := filepath.Join(dir, "bad.td0")
	require.NoError(t, os.WriteFile(bad, b0[:len(b0)/3], 0o644))
	cfg := emu.DefaultConfig(emu.StubROM(0))
	cfg.Floppies = []emu.Floppy{{Drive: 0}, {Drive: 1}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	got := menuLine(b, "insert 0 "+td0)
	assert.Contains(t, got, "inserted write-protected (Teledisk; FILE,convert=NEW.imd")
	assert.True(t, b.FloppyDrive(0).WriteProtected())
	imd := filepath.Join(dir, "w.imd")
	got = menuLine(b, "insert 1 "+td0+",convert="+imd)
	assert.Equal(t, "drive 1: "+imd+" inserted (converted from "+td0+")\r\n", got)
	assert.False(t, b.FloppyDrive(1).WriteProtected())
	got = menuLine(b, "insert 1 "+bad)
	assert.Contains(t, got, bad+": Teledisk truncated")
	assert.Equal(t, 1, strings.Count(got, "\r\n"))
}
