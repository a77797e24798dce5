package acb4000

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// PeekBlock reads a block of a drive without a command: the heads and the
// statistics stay as they were.
func TestPeekBlock(t *testing.T) {
	r := newRig(t, rigOpts{})
	want := make([]byte, 512)
	for i := range want {
		want[i] = byte(i)
	}
	require.NoError(t, r.disk.f.WriteBlock(5, want))
	before := r.c.State()
	buf := make([]byte, 512)
	require.NoError(t, r.c.PeekBlock(0, 5, buf))
	assert.Equal(t, want, buf)
	assert.Equal(t, before, r.c.State())
	assert.ErrorContains(t, r.c.PeekBlock(1, 0, buf), "no drive on LUN 1")
	assert.ErrorContains(t, r.c.PeekBlock(0, int64(r.disk.Blocks()), buf), "block")
}
