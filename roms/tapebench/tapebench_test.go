package tapebench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuild(t *testing.T) {
	r, err := Build()
	require.NoError(t, err)
	assert.Equal(t, uint16(0x100), r.Org)
	assert.Equal(t, int64(0x103), r.Symbols["params"])
	assert.LessOrEqual(t, r.Symbols["stack"], r.Symbols["BUF"])
	for _, sym := range []string{"r_state", "ST_DONE", "ST_FAIL", "TM_UNIT_US", "SE_HANG", "SL_BURST"} {
		assert.Contains(t, r.Symbols, sym, "the harness reads it")
	}
}
