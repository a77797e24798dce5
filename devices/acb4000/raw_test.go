package acb4000

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/scsi"
)

func TestRawGeometry(t *testing.T) {
	tests := []struct {
		blocks int64
		want   Geometry
		err    string
	}{
		{41820, ST125, ""}, // dd of an ST-125
		{40960, Geometry{Name: "raw", Cylinders: 603, Heads: 4, Sectors: 17, SectorSize: 512}, ""}, // a 20 MiB BlueSCSI file
		{68, Geometry{Name: "raw", Cylinders: 1, Heads: 4, Sectors: 17, SectorSize: 512}, ""},
		{200000, Geometry{Name: "raw", Cylinders: 981, Heads: 12, Sectors: 17, SectorSize: 512}, ""},
		{1024 * 16 * 17, Geometry{Name: "raw", Cylinders: 1024, Heads: 16, Sectors: 17, SectorSize: 512}, ""},
		{1024*16*17 + 1, Geometry{}, "oversized: 278529 blocks"},
	}
	for _, tt := range tests {
		g, err := RawGeometry(tt.blocks)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, g, "%d blocks", tt.blocks)
		assert.GreaterOrEqual(t, int64(g.Blocks()), tt.blocks, "every block has a place")
		assert.Less(t, int64(g.Blocks())-tt.blocks, int64(g.Heads*g.Sectors), "at most the last cylinder is partial")
		require.NoError(t, g.Validate())
	}
}

func TestParseGeometry(t *testing.T) {
	g, err := ParseGeometry("ST125")
	require.NoError(t, err)
	assert.Equal(t, ST125, g)
	g, err = ParseGeometry("306x4x17")
	require.NoError(t, err)
	assert.Equal(t, Geometry{Name: "306x4x17", Cylinders: 306, Heads: 4, Sectors: 17, SectorSize: 512}, g)
	for _, bad := range []string{"", "st225", "306x4", "306x4x17x2", "0x4x17", "2000x4x17", "a x4x17"} {
		_, err := ParseGeometry(bad)
		assert.Error(t, err, bad)
	}
}

func rawFile(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(size))
	require.NoError(t, f.Close())
	return p
}

// A raw image opens without a sidecar, with its geometry from the size or
// from the caller and its interleave 3 or the caller's; a size that does
// not fit, or an interleave the track cannot have, gets one error line
// naming the file and the problem, and nothing is written.
func TestOpenRaw(t *testing.T) {
	dir := t.TempDir()
	st125 := int64(ST125.Blocks()) * 512
	tests := []struct {
		name, geometry string
		il             int
		size           int64
		want           Geometry
		err            string
	}{
		{"dd of an ST-125", "", 0, st125, ST125, ""},
		{"BlueSCSI 20 MiB", "", 0, 20 << 20, Geometry{Name: "raw", Cylinders: 603, Heads: 4, Sectors: 17, SectorSize: 512}, ""},
		{"given geometry", "st125", 0, st125, ST125, ""},
		{"given CxHxS", "10x2x17", 0, 10 * 2 * 17 * 512, Geometry{Name: "10x2x17", Cylinders: 10, Heads: 2, Sectors: 17, SectorSize: 512}, ""},
		{"given interleave", "", 9, st125, ST125, ""},
		{"interleave 1", "st125", 1, st125, ST125, ""},
		{"interleave 16", "", 16, st125, ST125, ""},
		{"interleave 17", "", 17, st125, Geometry{}, "interleave 17: want 1 to 16 for 17 sectors per track"},
		{"negative interleave", "", -1, st125, Geometry{}, "interleave -1: want 1 to the sectors per track - 1"},
		{"truncated block", "", 0, st125 - 100, Geometry{}, "truncated: 21411740 bytes is not a whole number of 512-byte blocks"},
		{"truncated for geometry", "st125", 0, st125 - 512, Geometry{}, "truncated: 41819 blocks, but geometry st125 holds 41820"},
		{"oversized for geometry", "st125", 0, st125 + 512, Geometry{}, "oversized: 41821 blocks, but geometry st125 holds 41820"},
		{"oversized for the controller", "", 0, 300000 * 512, Geometry{}, "oversized: 300000 blocks"},
		{"empty", "", 0, 0, Geometry{}, "empty file"},
		{"bad geometry", "st999", 0, st125, Geometry{}, `geometry "st999"`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := rawFile(t, dir, string(rune('a'+i))+".hda", tt.size)
			d, err := OpenAs(p, Raw{Geometry: tt.geometry, Interleave: tt.il}, false)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), p+": ")
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "\n", "one line")
				st, _ := os.Stat(p)
				assert.Equal(t, tt.size, st.Size(), "the image is untouched")
				return
			}
			require.NoError(t, err)
			defer d.Close()
			assert.True(t, d.Raw())
			m := d.Meta()
			assert.Equal(t, tt.want, m.Geom())
			assert.Equal(t, int(tt.size/512), d.Blocks())
			wantIL := tt.il
			if wantIL == 0 {
				wantIL = RawInterleave
			}
			assert.Equal(t, wantIL, d.Meta().Interleave)
			assert.False(t, image.HasSidecar(p), "no sidecar is written")
		})
	}
}

// An image with a sidecar must agree with a geometry or interleave given
// for it.
func TestOpenAsAgreesWithSidecar(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hd.img")
	small := Geometry{Name: "small", Cylinders: 4, Heads: 2, Sectors: 17, SectorSize: 512}
	require.NoError(t, Create(p, small, true, 3))
	d, err := OpenAs(p, Raw{Geometry: "4x2x17", Interleave: 3}, false)
	require.NoError(t, err)
	assert.False(t, d.Raw())
	d.Close()
	_, err = OpenAs(p, Raw{Geometry: "st125"}, false)
	assert.ErrorContains(t, err, "geometry st125 given, but sidecar")
	_, err = OpenAs(p, Raw{Interleave: 5}, false)
	assert.ErrorContains(t, err, p+": interleave 5 given, but sidecar "+p+".toml says 3")
	u := filepath.Join(dir, "blank.img")
	require.NoError(t, Create(u, small, false, 0))
	_, err = OpenAs(u, Raw{Interleave: 2}, false)
	assert.ErrorContains(t, err, "says the disk is not formatted")
}

// The interleave given for a raw image is the one the controller reads it
// at: logical sector k of a track is in physical slot k*N mod 17, so a READ
// of the first three blocks finds them in slots 0, N, 2N.
func TestRawImageInterleave(t *testing.T) {
	for _, il := range []int{0, 1, 9} {
		r := newRig(t, rigOpts{raw: 136, rawIL: il})
		var slots []int
		r.c.ObserveSectors(func(e SectorEvent) { slots = append(slots, e.Slot) })
		st, _ := r.run(t, rw(OpRead, 0, 0, 3), nil)
		require.Equal(t, scsi.StatusGood, st)
		n := il
		if n == 0 {
			n = RawInterleave
		}
		assert.Equal(t, []int{0, n, 2 * n % 17}, slots, "interleave %d", il)
	}
}

// A raw image whose last cylinder is partial: its blocks read, the block
// past its end is an illegal block as on a smaller drive, and FORMAT UNIT
// keeps the new interleave in memory and writes no sidecar.
func TestRawImageCommands(t *testing.T) {
	r := newRig(t, rigOpts{raw: 130}) // 2 cylinders x 4 heads x 17 = 136 slots
	g := r.disk.Meta()
	require.Equal(t, 2, g.Cylinders)
	st, in := r.run(t, rw(OpRead, 0, 129, 1), nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Len(t, in, 512)
	st, _ = r.run(t, rw(OpRead, 0, 129, 2), nil)
	require.Equal(t, scsi.StatusCheckCondition, st)
	assert.Equal(t, []byte{0x80 | SenseIllegalBlock, 0, 0, 130}, r.senseOf(t, 0))
	st, _ = r.run(t, []byte{OpFormatUnit, 0, 0, 0, 5, 0}, nil)
	require.Equal(t, scsi.StatusGood, st)
	assert.Equal(t, 5, r.disk.Meta().Interleave)
	assert.False(t, image.HasSidecar(r.path))
	fi, err := os.Stat(r.path)
	require.NoError(t, err)
	assert.Equal(t, int64(130*512), fi.Size())
}
