package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

func ourSystem(t *testing.T) []byte {
	t.Helper()
	sys, err := cpm.System()
	require.NoError(t, err)
	return sys
}

func TestCPMBootsToPrompt(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 5})
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	for _, c := range []string{"DIR", "SAVE 1 X.COM", "DIR", "B:", "DIR", "A:", "REN Y.COM=X.COM", "DIR", "ERA Y.COM", "DIR"} {
		require.NoError(t, r.ty.Type(c+"\r"))
		require.NoError(t, r.ty.WaitFor(">"))
	}
	t.Logf("%s", r.tr.String())
}
