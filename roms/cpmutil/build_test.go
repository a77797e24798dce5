package cpmutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every program assembles for 0100h and fits well below a 60K system's CCP.
func TestBuild(t *testing.T) {
	names := Names()
	require.NotEmpty(t, names)
	for _, n := range names {
		b, err := Program(n)
		if assert.NoError(t, err, n) {
			assert.Less(t, len(b), 0xD400-0x100, n)
			t.Logf("%s.COM: %d bytes", n, len(b))
		}
	}
	_, err := Program("NOSUCH")
	assert.Error(t, err)
}
