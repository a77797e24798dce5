package scsihd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

// Any whole number of 512-byte blocks is a drive; anything else is
// refused with one line naming the file and the problem.
func TestOpenSizes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		size    int64
		sidecar bool
		err     string
	}{
		{"one block", 512, false, ""},
		{"an ST-225N", 615 * 68 * 512, false, ""},
		{"64 MiB", 64 << 20, false, ""},
		{"empty", 0, false, "empty file, not a disk image"},
		{"a byte short", 64<<20 - 1, false, "not a whole number of 512-byte blocks"},
		{"a byte over", 513, false, "not a whole number of 512-byte blocks"},
		{"with a sidecar", 512, true, "has a sidecar"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d.img")
			f, err := os.Create(path)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(tt.size))
			require.NoError(t, f.Close())
			if tt.sidecar {
				require.NoError(t, os.WriteFile(path+".toml", []byte("version = 1\n"), 0o644))
			}
			d, err := Open(path, false)
			if tt.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.size/512, d.Blocks())
				require.NoError(t, d.Close())
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
			assert.True(t, strings.HasPrefix(err.Error(), path+":"), "names the file: %v", err)
			assert.NotContains(t, err.Error(), "\n")
			st, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, tt.size, st.Size(), "the file is left as it was")
		})
	}
}

// Create makes a sparse blank image and refuses sizes that are not blocks,
// and files that exist.
func TestCreate(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		size int64
		err  string
	}{
		{64 << 20, ""},
		{0, "want a whole, non-zero number of 512-byte blocks"},
		{1000, "want a whole, non-zero number of 512-byte blocks"},
		{(MaxBlocks + 1) * 512, "at most 4294967296 blocks"},
	} {
		path := filepath.Join(dir, "c.img")
		err := Create(path, tt.size)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err)
			assert.NoFileExists(t, path)
			continue
		}
		require.NoError(t, err)
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, tt.size, st.Size())
		assert.ErrorContains(t, Create(path, 512), "already exists")
		require.NoError(t, os.Remove(path))
	}
}

// A 1 GiB image (sparse: nothing close to 1 GiB is written) attaches, says
// its capacity, and its last block is read and written, with READ(6) too
// (whose 21-bit address reaches exactly 1 GiB).
func TestOneGiB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.img")
	require.NoError(t, Create(path, 1<<30))
	disk, err := Open(path, false)
	require.NoError(t, err)
	defer disk.Close()
	s := sched.New()
	bus := scsi.NewBus(s)
	d, _ := Attach(bus, 0, "scsihd 0", DefaultParams(), disk)
	h := scsitest.New(bus, 7)
	run := func(cdb, out []byte) *scsitest.Result {
		res := h.Run(0, cdb, out, false, 0, 60*sched.Second)
		require.True(t, res.Done)
		return res
	}
	res := run([]byte{OpReadCapacity, 0, 0, 0, 0, 0, 0, 0, 0, 0}, nil)
	assert.Equal(t, []byte{0, 0x1F, 0xFF, 0xFF, 0, 0, 2, 0}, res.DataIn)
	block := []byte(strings.Repeat("the last block. ", 32))
	last := int64(1<<21 - 1)
	require.Equal(t, byte(scsi.StatusGood), run(rw10(OpWrite10, last, 1), block).Status)
	assert.Equal(t, block, run(rw6(OpRead6, int(last), 1), nil).DataIn)
	assert.Equal(t, make([]byte, 512), run(rw10(OpRead10, 1<<20, 1), nil).DataIn)
	assert.Equal(t, byte(scsi.StatusCheckCondition), run(rw10(OpRead10, last+1, 1), nil).Status)
	assert.Equal(t, 30841, d.Cylinders())
	assert.Equal(t, uint64(2), d.Stats().Seeks, "to the end, then to the middle")
}
