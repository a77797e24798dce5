//go:build unix

package mcd403

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/internal/killtest"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsitest"
)

// TestHelperTapeWriter is the child of TestKillKeepsAcknowledgedBlocks: it
// writes blocks through the drive and prints each block number when GOOD
// came back, until it is killed.
func TestHelperTapeWriter(t *testing.T) {
	tape, err := Open(killtest.Child(t), false)
	if err != nil {
		killtest.Fail(err)
	}
	s := sched.New()
	bus := scsi.NewBus(s)
	Attach(bus, tapeID, "mcd403", DefaultParams(), tape)
	h := scsitest.New(bus, 7)
	for b := 0; ; b++ {
		res := h.Run(tapeID, rw(OpWrite, b, 1), pattern(b, 8192), false, 0, 60*sched.Second)
		if res.Status != scsi.StatusGood {
			killtest.Fail(fmt.Errorf("status %v", res.Status))
		}
		fmt.Println(b)
	}
}

// Every block acknowledged with GOOD is in the image and in its written
// list even when the emulator is killed (SIGKILL) mid-run.
func TestKillKeepsAcknowledgedBlocks(t *testing.T) {
	path := t.TempDir() + "/k.tape"
	require.NoError(t, Create(path, 3))
	child := killtest.Start(t, "TestHelperTapeWriter", path)
	acked := -1
	for acked < 3 {
		line := child.Line()
		n, err := strconv.Atoi(strings.TrimSpace(line))
		require.NoError(t, err, line)
		acked = n
	}
	child.Kill()

	tape, err := Open(path, false)
	require.NoError(t, err, "no stale lock")
	defer tape.Close()
	buf := make([]byte, 8192)
	for b := 0; b <= acked; b++ {
		blank, err := tape.ReadBlock(b, buf)
		require.NoError(t, err)
		require.False(t, blank, "block %d acknowledged but not in the written list", b)
		assert.Equal(t, pattern(b, 8192), buf, "block %d", b)
	}
}
