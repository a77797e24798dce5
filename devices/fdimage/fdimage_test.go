package fdimage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		n, il, first int
		want         []byte
	}{
		{10, 1, 1, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{10, 2, 17, []byte{17, 22, 18, 23, 19, 24, 20, 25, 21, 26}},
		{5, 2, 1, []byte{1, 4, 2, 5, 3}},
		{10, 3, 1, []byte{1, 8, 5, 2, 9, 6, 3, 10, 7, 4}},
		{10, 5, 1, []byte{1, 3, 5, 7, 9, 2, 4, 6, 8, 10}},
	} {
		assert.Equal(t, tc.want, Order(tc.n, tc.il, tc.first), "n %d il %d", tc.n, tc.il)
	}
}

// sample is a disk with every feature IMD keeps: odd IDs, mixed sizes,
// deleted and bad records, missing data, FM, an unformatted track.
func sample() *Disk {
	d := Format{Name: "t", Cylinders: 3, Heads: 2, Sectors: 4, Size: 256, FirstID: 1, Interleave: 2}.NewDisk(0xE5)
	d.Comment = "test disk\r\n"
	t := d.Track(0, 1)
	for i := range t.Sectors[0].Data {
		t.Sectors[0].Data[i] = byte(i)
	}
	t.Sectors[1].Deleted = true
	t.Sectors[2].BadCRC = true
	t.Sectors[3].Data = nil
	t2 := d.Track(1, 0)
	t2.FM = true
	t2.Sectors[1].N = 3
	t2.Sectors[1].Data = bytes.Repeat([]byte{7}, 1024)
	t2.Sectors[2].C = 9 // ID cylinder differs from the physical one
	t2.Sectors[3].H = 1
	*d.Track(2, 1) = Track{Cyl: 2, Head: 1}
	d.Track(2, 0).Rate = 500 // high density
	d.Track(1, 1).Rate = 300 // a DD disk read in a 360 rpm drive
	return d
}

func TestIMDRoundTrip(t *testing.T) {
	d := sample()
	for _, nc := range []bool{false, true} {
		b := EncodeIMD(d, "IMD 1.18: test", nc, nil)
		got, err := DecodeIMD(b, nil)
		require.NoError(t, err)
		assert.Equal(t, d, got)
		assert.Equal(t, b, EncodeIMD(got, "IMD 1.18: test", nc, nil))
	}
}

func TestIMDBad(t *testing.T) {
	good := EncodeIMD(sample(), "IMD 1.18: test", false, nil)
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"garbage", []byte("hello world, not a disk"), "not an ImageDisk"},
		{"no end of comment", []byte("IMD 1.18: x\r\ncomment"), "no end"},
		{"truncated", good[:len(good)-100], "truncated"},
		{"truncated header", good[:bytes.IndexByte(good, 0x1a)+3], "truncated"},
		{"empty", []byte("IMD 1.18\r\n\x1a"), "no tracks"},
		{"bad mode", append(append([]byte{}, good[:bytes.IndexByte(good, 0x1a)+1]...), 9, 0, 0, 1, 2, 1, 0), "mode 9"},
		{"bad record", append(append([]byte{}, good[:bytes.IndexByte(good, 0x1a)+1]...), 5, 0, 0, 1, 0, 1, 9), "record type 9"},
	} {
		_, err := DecodeIMD(tc.b, nil)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

func TestRawFormat(t *testing.T) {
	for _, tc := range []struct {
		size int64
		name string
		want string
		err  string
	}{
		{204800, "", "amp1", ""},
		{819200, "", "amp4", ""},
		{409600, "", "", "ambiguous: it could be amp2 or amp3"},
		{409600, "amp3", "amp3", ""},
		{409601, "", "", "matches no format"},
		{409600, "amp1", "", "needs 204800"},
		{368640, "40x2x9x512", "40x2x9x512", ""},
		{100, "40x2x9x513", "", "sector size"},
	} {
		f, err := RawFormat(tc.size, tc.name)
		if tc.err != "" {
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.want, f.Name)
	}
}

func TestOpenBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	good := EncodeIMD(sample(), "IMD 1.18: test", false, nil)
	for _, tc := range []struct {
		name, path string
		o          Options
		want       string
	}{
		{"missing", filepath.Join(dir, "nope.imd"), Options{}, "no such floppy image"},
		{"directory", dir, Options{}, "is a directory"},
		{"truncated IMD", write("t.imd", good[:len(good)/2]), Options{}, "truncated"},
		{"garbage IMD", write("g.imd", []byte("garbage garbage")), Options{}, "not an ImageDisk"},
		{"odd raw size", write("odd.img", make([]byte, 1000)), Options{}, "matches no format"},
		{"ambiguous raw", write("amb.img", make([]byte, 409600)), Options{}, "ambiguous"},
	} {
		_, err := Open(tc.path, tc.o)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Contains(t, err.Error(), tc.path, tc.name)
		assert.NotContains(t, err.Error(), "\n", tc.name)
	}
}

func TestLockAndReadOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.img")
	f, _ := ParseFormat("amp1")
	require.NoError(t, Create(p, f, f.NewDisk(0xE5), ""))
	im, err := Open(p, Options{})
	require.NoError(t, err)
	_, err = Open(p, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "in use")
	require.NoError(t, im.Close())

	require.NoError(t, os.Chmod(p, 0o444))
	if os.Geteuid() == 0 {
		// root may write any file: ask for read-only explicitly.
		im, err = Open(p, Options{ReadOnly: true})
	} else {
		im, err = Open(p, Options{})
	}
	require.NoError(t, err)
	assert.True(t, im.ReadOnly())
	s := im.Disk().Track(0, 0).Sectors[0]
	s.Data = bytes.Repeat([]byte{1}, 512)
	require.Error(t, im.WriteSector(0, 0, 0, s))
	require.NoError(t, im.Close())
	b, _ := os.ReadFile(p)
	assert.Equal(t, bytes.Repeat([]byte{0xE5}, 204800), b)
}

// Writes reach the file before WriteSector returns: a second reader (after
// the writer is gone, as after a kill) sees them.
func TestWritesDurable(t *testing.T) {
	for _, name := range []string{"d.img", "d.imd"} {
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		f, _ := ParseFormat("amp2")
		require.NoError(t, Create(p, f, f.NewDisk(0xE5), "IMD 1.18: test"))
		im, err := Open(p, Options{Format: "amp2"})
		require.NoError(t, err)
		tr := im.Disk().Track(3, 1)
		i := tr.Find(20)
		s := tr.Sectors[i]
		s.Data = make([]byte, 512)
		for k := range s.Data {
			s.Data[k] = byte(k * 7)
		}
		require.NoError(t, im.WriteSector(3, 1, i, s))
		s.Data[0] = 0x55 // in place this time (IMD record now uncompressed)
		require.NoError(t, im.WriteSector(3, 1, i, s))
		// Read the file as another process would, without closing im.
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		var d *Disk
		if name == "d.imd" {
			d, err = DecodeIMD(b, nil)
			require.NoError(t, err)
		} else {
			im2 := &Image{path: p}
			im2.load(Options{Format: "amp2"})
			d = im2.disk
		}
		got := d.Track(3, 1).Sectors[d.Track(3, 1).Find(20)]
		assert.Equal(t, s.Data, got.Data, name)
		require.NoError(t, im.Close())
	}
}

func TestRawRefusesWhatItCannotHold(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.img")
	f, _ := ParseFormat("amp1")
	require.NoError(t, Create(p, f, f.NewDisk(0xE5), ""))
	im, err := Open(p, Options{})
	require.NoError(t, err)
	defer im.Close()
	before, _ := os.ReadFile(p)
	nine := Format{Name: "x", Cylinders: 40, Heads: 1, Sectors: 9, Size: 512, FirstID: 1, Interleave: 1}.NewTrack(0, 0, 1)
	err = im.WriteTrack(0, 0, nine)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds 10 sectors a track, not 9")
	del := im.Disk().Track(1, 0).Sectors[0]
	del.Deleted = true
	require.ErrorContains(t, im.WriteSector(1, 0, 0, del), "deleted")
	after, _ := os.ReadFile(p)
	assert.Equal(t, before, after)
	// A reordered track (interleave 1) is accepted: same sectors.
	one := Format{Name: "x", Cylinders: 40, Heads: 1, Sectors: 10, Size: 512, FirstID: 1, Interleave: 1}.NewTrack(0, 0, 1)
	require.NoError(t, im.WriteTrack(0, 0, one))
	after, _ = os.ReadFile(p)
	assert.Equal(t, bytes.Repeat([]byte{1}, 5120), after[:5120])
}

// TestCreateLeavesOtherFilesAlone: create builds the image under a unique
// temporary name, so a user's FILE.tmp is neither overwritten nor renamed
// into the image, and nothing else is left in the folder; a missing folder
// is named.
func TestCreateLeavesOtherFilesAlone(t *testing.T) {
	f, err := ParseFormat("amp2")
	require.NoError(t, err)
	dir := t.TempDir()
	p := filepath.Join(dir, "f.img")
	require.NoError(t, os.WriteFile(p+".tmp", []byte("mine"), 0o644))
	require.NoError(t, Create(p, f, f.NewDisk(0xE5), ""))
	mine, err := os.ReadFile(p + ".tmp")
	require.NoError(t, err)
	assert.Equal(t, "mine", string(mine))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, f.RawSize(), st.Size())
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, left, 2, "the image and the user's file only")
	err = Create(filepath.Join(dir, "nodir", "g.img"), f, f.NewDisk(0xE5), "")
	assert.ErrorContains(t, err, "folder "+filepath.Join(dir, "nodir")+" does not exist")
}

// Replace builds the new image beside the old and renames it over; it
// refuses a file an emulator has open, and a raw format the disk does not
// fit, leaving the old file whole.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.imd")
	f, _ := ParseFormat("amp1")
	require.NoError(t, Create(p, f, f.NewDisk(0xE5), "IMD 1.18: x"))
	im, err := Open(p, Options{})
	require.NoError(t, err)
	require.ErrorContains(t, Replace(p, f, f.NewDisk(1), "IMD 1.18: y"), "in use")
	require.NoError(t, im.Close())
	require.NoError(t, Replace(p, f, f.NewDisk(1), "IMD 1.18: y"))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("IMD 1.18: y\r\n")))

	raw := filepath.Join(dir, "r.img")
	require.NoError(t, Create(raw, f, f.NewDisk(2), ""))
	f4, _ := ParseFormat("amp4")
	err = Replace(raw, f4, f.NewDisk(3), "")
	require.ErrorContains(t, err, "the disk has 40 cylinders x 1 head; a raw amp4 image holds 80 x 2")
	b, _ = os.ReadFile(raw)
	assert.Equal(t, bytes.Repeat([]byte{2}, int(f.RawSize())), b)
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	assert.Empty(t, left)
}
