package cpmtape_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmtape"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The partitions of the test disk: 4 MB each, partition 1 (B:) from block
// 8192 on (docs/CPM.md, hard disk).
const (
	partBlocks = 8192
	partFirst  = 8192
	blockSize  = 512
)

// storyRate is the net rate of the story's best row (HD 3:1, 8 KB x 1
// READ in 256-byte bursts, tape 3:1 in 16-byte bursts), bytes a second
// (docs/STORY.md).
const storyRate = 12787

func TestAssemble(t *testing.T) {
	b, err := cpmtape.Backup()
	require.NoError(t, err)
	r, err := cpmtape.Restore()
	require.NoError(t, err)
	assert.NotEqual(t, b, r)
	assert.Contains(t, string(b), "BACKUP ")
	assert.Contains(t, string(r), "RESTORE ")
}

// testDisk makes a 2-partition hard disk at the story's 3:1 interleave with
// BACKUP and RESTORE on A: and two files on B:.
func testDisk(t *testing.T, dir string) (string, []byte) {
	sys, err := cpm.System()
	require.NoError(t, err)
	hd := filepath.Join(dir, "hd.img")
	g := acb4000.Geometry{Name: "test", Cylinders: 2*8192/68 + 2, Heads: 4, Sectors: 17, SectorSize: 512}
	require.NoError(t, acb4000.Create(hd, g, true, 3))
	var m acb4000.Meta
	f, err := image.Open(hd, &m, false)
	require.NoError(t, err)
	require.NoError(t, cpmbios.InstallHD(f, sys, cpmbios.HDConfig{Partitions: 2, Burst: true}, true))
	a, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	bk, err := cpmtape.Backup()
	require.NoError(t, err)
	rs, err := cpmtape.Restore()
	require.NoError(t, err)
	require.NoError(t, a.Write(0, "BACKUP.COM", bk))
	require.NoError(t, a.Write(0, "RESTORE.COM", rs))
	b, err := cpmbios.PartitionFS(f, 1)
	require.NoError(t, err)
	big := make([]byte, 100*1024)
	for i := range big {
		big[i] = byte(i*5 + i>>10)
	}
	require.NoError(t, b.Write(0, "DATA.BIN", big))
	require.NoError(t, b.Write(0, "NOTE.TXT", []byte("kept on tape\r\n\x1a")))
	require.NoError(t, f.Close())
	return hd, big
}

// partition returns the raw bytes of partition 1 of the disk image.
func partition(t *testing.T, hd string) []byte {
	var m acb4000.Meta
	f, err := image.Open(hd, &m, true)
	require.NoError(t, err)
	defer f.Close()
	out := make([]byte, partBlocks*blockSize)
	for i := 0; i < partBlocks; i++ {
		require.NoError(t, f.ReadBlock(int64(partFirst+i), out[i*blockSize:(i+1)*blockSize]))
	}
	return out
}

func board(t *testing.T, floppies []emu.Floppy, specs ...scsidev.Spec) (*emu.Board, *console.Typist, *console.Transcript) {
	rom, err := monitor.Image()
	require.NoError(t, err)
	tr := &console.Transcript{}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = tr.Out
	cfg.SCSI = specs
	cfg.Floppies = floppies
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	ty := &console.Typist{B: b, T: tr, Limit: 600 * sched.Second}
	require.NoError(t, ty.WaitFor("A>"))
	return b, ty, tr
}

var doneLine = regexp.MustCompile(`(\d+) KB in (\d+) s, (\d+) bytes/s\r\n`)

// report finds BACKUP's or RESTORE's last line after offset at: KB,
// seconds and bytes a second.
func report(t *testing.T, s string) (kb, secs, rate int) {
	t.Helper()
	m := doneLine.FindStringSubmatch(s)
	require.NotNil(t, m, "no rate line in %q", s)
	kb, _ = strconv.Atoi(m[1])
	secs, _ = strconv.Atoi(m[2])
	rate, _ = strconv.Atoi(m[3])
	return kb, secs, rate
}

// BACKUP B: on the board writes the partition to the MCD-403 at the
// story's rate; after its files are erased, RESTORE B: brings the
// partition back byte for byte. The board has no CTC cascade jumper: the
// BIOS clock ticks 125 times a second, and BACKUP's interrupts stay on, so
// the times they report are the board's.
func TestBackupRestoreOnTheBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("8 MB through the tape and back: about a minute and a half of host time")
	}
	dir := t.TempDir()
	hd, big := testDisk(t, dir)
	before := partition(t, hd)
	tape := filepath.Join(dir, "t.tape")
	require.NoError(t, mcd403.Create(tape, 3))

	b, ty, tr := board(t, nil, scsidev.Spec{ID: 0, Type: "acb4000", Images: []string{hd}}, scsidev.Spec{ID: 1, Type: "mcd403", Images: []string{tape}})
	cmd := func(line, want string) {
		t.Helper()
		require.NoError(t, ty.Type(line+"\r"))
		require.NoError(t, ty.WaitFor(want))
	}
	cmd("BACKUP B:", "BACKUP B: to the tape at SCSI ID 1\r\n")
	t0, at := b.Now(), tr.Len()
	require.NoError(t, ty.WaitFor(" bytes/s\r\n"))
	took := float64(b.Now()-t0) / float64(sched.Second)
	kb, secs, rate := report(t, tr.String()[at:])
	t.Logf("BACKUP B: %d KB in %d s (%.1f s on the board), %d bytes/s; the story's best row %d bytes/s", kb, secs, took, rate, storyRate)
	assert.Equal(t, partBlocks*blockSize/1024, kb)
	assert.InDelta(t, took, float64(secs), 1.5, "BACKUP reports the time it took")
	assert.InDelta(t, kb*1024/secs, rate, 1, "the rate is KB x 1024 / s")
	assert.InEpsilon(t, storyRate, rate, 0.05, "BACKUP runs at the story's best rate")
	require.NoError(t, ty.WaitFor("A>"))
	cmd("ERA B:DATA.BIN", "A>")
	cmd("ERA B:NOTE.TXT", "A>")
	cmd("DIR B:", "NO FILE\r\nA>")
	cmd("RESTORE B:", "RESTORE B: from the tape at SCSI ID 1\r\n")
	t0, at = b.Now(), tr.Len()
	require.NoError(t, ty.WaitFor(" bytes/s\r\n"))
	took = float64(b.Now()-t0) / float64(sched.Second)
	kb, secs, rate = report(t, tr.String()[at:])
	t.Logf("RESTORE B: %d KB in %d s (%.1f s on the board), %d bytes/s", kb, secs, took, rate)
	assert.Equal(t, partBlocks*blockSize/1024, kb)
	assert.InDelta(t, took, float64(secs), 1.5, "RESTORE reports the time it took")
	require.NoError(t, ty.WaitFor("A>"))
	cmd("DIR B:", "B: DATA     BIN : NOTE     TXT\r\nA>")
	cmd("TYPE B:NOTE.TXT", "kept on tape\r\n")
	require.NoError(t, ty.WaitFor("A>"))
	assert.NotContains(t, tr.String(), "SCSI error")
	require.NoError(t, b.Close())

	assert.True(t, bytes.Equal(before, partition(t, hd)), "the partition after RESTORE, byte for byte as before BACKUP")
	tp, err := mcd403.Open(tape, true)
	require.NoError(t, err)
	defer tp.Close()
	blk := make([]byte, 8192)
	for i := 0; i < len(before)/len(blk); i++ {
		blank, err := tp.ReadBlock(i, blk)
		require.NoError(t, err)
		require.False(t, blank, "tape block %d", i)
		require.True(t, bytes.Equal(before[i*len(blk):(i+1)*len(blk)], blk), "tape block %d holds the partition's bytes %d-", i, i*len(blk))
	}
	blank, err := tp.ReadBlock(len(before)/len(blk), blk)
	require.NoError(t, err)
	assert.True(t, blank, "nothing written after the partition")

	var m acb4000.Meta
	f, err := image.Open(hd, &m, true)
	require.NoError(t, err)
	defer f.Close()
	p, err := cpmbios.PartitionFS(f, 1)
	require.NoError(t, err)
	got, err := p.Read(0, "DATA.BIN")
	require.NoError(t, err)
	assert.Equal(t, big, got, "the restored file, byte for byte")
}

// What the user sees without a drive letter, with a floppy drive's
// letter, with no tape drive on the bus, and when RESTORE finds a blank
// tape; the disk is not touched.
func TestBackupRefusals(t *testing.T) {
	dir := t.TempDir()
	hd, _ := testDisk(t, dir)
	before := partition(t, hd)
	f, err := fdimage.ParseFormat("amp2")
	require.NoError(t, err)
	fd := filepath.Join(dir, "data.imd")
	require.NoError(t, fdimage.Create(fd, f, f.NewDisk(0xE5), "IMD 1.18: 01/12/2026 00:00:00"))
	b, ty, tr := board(t, []emu.Floppy{{Drive: 0, Image: fd}}, scsidev.Spec{ID: 0, Type: "acb4000", Images: []string{hd}})
	for _, c := range []struct{ line, want string }{
		{"BACKUP", "Usage: BACKUP d:  (a hard disk drive, to the tape at SCSI ID 1)\r\n"},
		{"RESTORE", "Usage: RESTORE d:  (a hard disk drive, from the tape at SCSI ID 1)\r\n"},
		{"BACKUP C:", "Not a hard disk partition\r\n"}, // floppy drive 0
		{"BACKUP B:", "BACKUP B: to the tape at SCSI ID 1\r\n\r\nNo device answers at SCSI ID 1\r\n"},
		{"RESTORE B:", "RESTORE B: from the tape at SCSI ID 1\r\n\r\nNo device answers at SCSI ID 1\r\n"},
	} {
		at := tr.Len()
		require.NoError(t, ty.Type(c.line+"\r"), c.line)
		require.NoError(t, ty.WaitFor("A>"), c.line)
		// The typed line's CR, then the CCP's CR LF before the program, as DR's CCP does.
		assert.Equal(t, fmt.Sprintf("%s\r\r\n%s\r\nA>", c.line, c.want), tr.String()[at:], c.line)
	}
	require.NoError(t, b.Close())
	assert.True(t, bytes.Equal(before, partition(t, hd)), "the partition is untouched")

	// A blank tape: RESTORE reads the tape before it writes the disk, so
	// the tape's BLANK CHECK stops it with the disk as it was.
	tape := filepath.Join(dir, "blank.tape")
	require.NoError(t, mcd403.Create(tape, 3))
	b, ty, tr = board(t, nil, scsidev.Spec{ID: 0, Type: "acb4000", Images: []string{hd}}, scsidev.Spec{ID: 1, Type: "mcd403", Images: []string{tape}})
	at := tr.Len()
	require.NoError(t, ty.Type("RESTORE B:\r"))
	require.NoError(t, ty.WaitFor("A>"))
	assert.Equal(t, "RESTORE B:\r\r\nRESTORE B: from the tape at SCSI ID 1\r\n\r\nSCSI error at ID 1, status/code 02h, tape block 0\r\n\r\nA>", tr.String()[at:])
	require.NoError(t, b.Close())
	assert.True(t, bytes.Equal(before, partition(t, hd)), "the partition is untouched")
}
