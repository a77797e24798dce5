package bench

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"lbplus/roms/backup"
)

// Disk-only BACKUP runs through every source path and handshake: the program
// completes, its console report agrees with its result block, and the last
// pass's buffer holds exactly the disk's bytes (a duplicated or lost byte in
// a burst would show here).
func TestDiskReadPaths(t *testing.T) {
	cases := []struct {
		src   backup.Source
		mode  backup.Handshake
		burst int
		rd    int
	}{
		{backup.SourceSCSI, backup.Burst, 256, 16},
		{backup.SourceSCSI, backup.Burst, 16, 8},
		{backup.SourceSCSI, backup.Burst, 128, 3}, // a READ of 3 blocks, a burst of 128
		{backup.SourceSCSI, backup.Byte, 256, 16},
		{backup.SourceSCSI, backup.Byte, 256, 1},
		{backup.SourceBIOS, backup.Byte, 256, 1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("src%d-mode%d-burst%d-rd%d", c.src, c.mode, c.burst, c.rd), func(t *testing.T) {
			p := backup.Defaults()
			p.TapeID = backup.NoTape
			p.Source, p.DiskMode, p.DiskBurst, p.ReadSectors = c.src, c.mode, c.burst, c.rd
			p.BufSectors = 16 / c.rd * c.rd
			p.Passes = 2
			p.StartLBA = 40
			var con []byte
			r, err := Run(Setup{Name: "paths", DiskInterleave: 3, Program: p},
				Options{Dir: t.TempDir(), DiskPattern: true, Console: func(b byte) { con = append(con, b) }})
			require.NoError(t, err)
			require.Empty(t, r.Failed)
			assert.Equal(t, p.Bytes(), r.Bytes)
			assert.Greater(t, r.BytesPerSec, 1000.0)
			first := int(p.StartLBA) + p.BufSectors
			for i, v := range r.Buffer {
				lba := first + i/backup.SectorSize
				if !assert.Equal(t, Pattern(lba, i%backup.SectorSize), v, "buffer byte %d (block %d)", i, lba) {
					break
				}
			}
			assert.Equal(t, fmt.Sprintf("BACKUP done, bytes %d time %d us\r\n", r.Bytes, r.Program.Ticks*backup.TickUS), string(con))
		})
	}
}

// A target nobody answers for: selection times out (about 250 ms, the
// SCSI-1 recommendation) and BACKUP reports it instead of hanging.
func TestSelectionTimeout(t *testing.T) {
	p := backup.Defaults()
	p.TapeID = backup.NoTape
	p.DiskID = 4
	p.ReadyTries = 1
	p.Passes = 1
	r, err := Run(Setup{Name: "nobody", DiskInterleave: 3, Program: p}, Options{Dir: t.TempDir()})
	require.NoError(t, err)
	assert.Equal(t, uint8(backup.StateFailed), r.Program.State)
	assert.Equal(t, uint8(2), r.Program.Err, "SE_SELTO")
	assert.Equal(t, uint8(1), r.Program.Stage, "selection")
	assert.Contains(t, r.Failed, "selection timeout")
	assert.False(t, r.Hung)
	assert.InDelta(t, 0.25, r.BoardTime.Seconds(), 0.05, "one selection attempt")
}
