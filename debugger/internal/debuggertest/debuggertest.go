// Package debuggertest holds the machine set-ups that the debugger's tests
// and the debugger window's tests share, so that both packages test the same
// board.
package debuggertest

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/monitor"
)

// BlankFloppyBoard is the boot ROM on a board whose floppy drive A holds a
// blank amp2 diskette (every data byte E5h), an IMD file in tb's temporary
// directory. The board is closed when tb ends.
func BlankFloppyBoard(tb testing.TB) *emu.Board {
	tb.Helper()
	rom, err := monitor.Image()
	require.NoError(tb, err)
	f, err := fdimage.ParseFormat("amp2")
	require.NoError(tb, err)
	path := filepath.Join(tb.TempDir(), "a.imd")
	require.NoError(tb, fdimage.Create(path, f, f.NewDisk(0xE5), "IMD 1.18: 01/01/2026 00:00:00"))
	cfg := emu.DefaultConfig(rom)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Image: path}}
	b, err := emu.New(cfg)
	require.NoError(tb, err)
	tb.Cleanup(func() { b.Close() })
	return b
}
