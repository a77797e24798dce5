package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// A key during the boot enters the monitor instead of CP/M, even with a
// system disk attached; the monitor's B0 then boots CP/M from target 0.
func TestKeyDuringBootEntersMonitor(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	r := bootMachine(t, nil, []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}})
	require.NoError(t, r.ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, r.ty.Type(" "))
	require.NoError(t, r.ty.WaitFor("lbplus monitor"))
	require.NoError(t, r.ty.WaitFor("> "))
	require.NoError(t, r.b.RunFor(20*sched.Second))
	assert.NotContains(t, r.tr.String(), "CP/M", "the monitor waits; CP/M does not start")
	r.cmd(t, "B0", "A>")
	assert.Contains(t, r.tr.String(), "lbplus CP/M 2.2 BIOS")
}
