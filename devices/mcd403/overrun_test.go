package mcd403_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// The drive at its usual ID on the machine's bus (BACKUP's default).
const tapeID = 1

var rw, pattern = mcd403.RW, mcd403.Pattern

// z80 plays the Ampro's Z80 against the machine's NCR 5380: every register
// or DACK access happens at now, which then moves on by the instruction
// time given. The machine's CPU does not run: the access pattern of
// roms/scsilib's loops, with their T-state counts, is what matters here.
type z80 struct {
	t   testing.TB
	s   *sched.Scheduler
	c   *ncr5380.Chip
	bus *scsi.Bus
	now sched.Time
}

func (h *z80) tick(ts int) { h.s.Advance(h.now); h.now += sched.Time(ts) * sched.TState }
func (h *z80) rd(reg, ts int) uint8 {
	h.tick(ts)
	return h.c.Read(reg)
}
func (h *z80) wr(reg int, v uint8, ts int) { h.tick(ts); h.c.Write(reg, v) }

// until polls reg every ts T-states until cond or the simulated limit.
func (h *z80) until(reg, ts int, limit sched.Time, cond func(uint8) bool) (uint8, bool) {
	end := h.now + limit
	for h.now < end {
		if v := h.rd(reg, ts); cond(v) {
			return v, true
		}
	}
	return 0, false
}

func (h *z80) req(limit sched.Time) bool {
	_, ok := h.until(ncr5380.RegCSB, 32, limit, func(v uint8) bool { return v&ncr5380.CSBREQ != 0 })
	return ok
}

// pio moves one byte by the ICR handshake.
func (h *z80) pio(out uint8) uint8 {
	require.True(h.t, h.req(10*sched.Second), "REQ")
	ph := scsi.InfoPhase(h.bus.Lines())
	h.wr(ncr5380.RegTCR, uint8(ph), 11)
	var in uint8
	if ph&1 != 0 {
		in = h.rd(ncr5380.RegData, 11)
		h.wr(ncr5380.RegICR, ncr5380.ICRACK, 11)
	} else {
		h.wr(ncr5380.RegData, out, 11)
		h.wr(ncr5380.RegICR, ncr5380.ICRDataBus, 11)
		h.wr(ncr5380.RegICR, ncr5380.ICRDataBus|ncr5380.ICRACK, 11)
	}
	_, ok := h.until(ncr5380.RegCSB, 32, sched.Second, func(v uint8) bool { return v&ncr5380.CSBREQ == 0 })
	require.True(h.t, ok, "REQ off")
	h.wr(ncr5380.RegICR, 0, 11)
	return in
}

// command selects the tape (FUZIX style, no arbitration), sends the CDB,
// waits for the data phase's first REQ and arms DMA for it.
func (h *z80) command(cdb []byte) scsi.Phase {
	h.wr(ncr5380.RegData, 1<<7|1<<tapeID, 11)
	h.wr(ncr5380.RegICR, ncr5380.ICRDataBus, 11)
	h.wr(ncr5380.RegICR, ncr5380.ICRDataBus|ncr5380.ICRSEL, 11)
	_, ok := h.until(ncr5380.RegCSB, 32, sched.Second, func(v uint8) bool { return v&ncr5380.CSBBSY != 0 })
	require.True(h.t, ok, "selection")
	h.wr(ncr5380.RegICR, 0, 11)
	for _, b := range cdb {
		h.pio(b)
	}
	require.True(h.t, h.req(20*sched.Second), "data phase")
	ph := scsi.InfoPhase(h.bus.Lines())
	h.wr(ncr5380.RegTCR, uint8(ph), 11)
	h.wr(ncr5380.RegMR, ncr5380.MRDMA, 11)
	if ph == scsi.DataIn {
		h.wr(ncr5380.RegDMAIRx, 0, 11)
	} else {
		h.wr(ncr5380.RegICR, ncr5380.ICRDataBus, 11)
		h.wr(ncr5380.RegDMASnd, 0, 11)
	}
	return ph
}

// drq polls BSR for DRQ and phase match as sbbo/sbbi do (32 T a poll).
func (h *z80) drq(limit sched.Time) bool {
	_, ok := h.until(ncr5380.RegBSR, 32, limit, func(v uint8) bool {
		return v&(ncr5380.BSRDRQ|ncr5380.BSRPhaseMatch) == ncr5380.BSRDRQ|ncr5380.BSRPhaseMatch
	})
	return ok
}

// finish waits for STATUS (false if the target never gets there), then
// takes status and message by PIO.
func (h *z80) finish(limit sched.Time) (byte, bool) {
	_, ok := h.until(ncr5380.RegCSB, 32, limit, func(v uint8) bool {
		return v&ncr5380.CSBREQ != 0 && scsi.Phase(v>>2&7) == scsi.Status
	})
	if !ok {
		return 0, false
	}
	h.wr(ncr5380.RegMR, 0, 11)
	h.wr(ncr5380.RegICR, 0, 11)
	h.rd(ncr5380.RegReset, 11)
	st := h.pio(0)
	h.pio(0)
	return st, true
}

type chipRig struct {
	s    *sched.Scheduler
	bus  *scsi.Bus
	c    *ncr5380.Chip
	d    *mcd403.Drive
	h    *z80
	path string
}

// newChipRig builds a machine with the drive at tapeID, a fresh cartridge
// formatted at interleave.
func newChipRig(t testing.TB, interleave int) *chipRig {
	path := filepath.Join(t.TempDir(), "t.tape")
	require.NoError(t, mcd403.Create(path, interleave))
	cfg := emu.DefaultConfig(emu.StubROM(0))
	cfg.SCSI = []scsidev.Spec{{ID: tapeID, Type: "mcd403", Images: []string{path}}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	s, bus, c := b.Sched(), b.SCSIBus(), b.NCR5380()
	d := b.SCSIDevice(tapeID).(*mcd403.Drive)
	return &chipRig{s: s, bus: bus, c: c, d: d, path: path, h: &z80{t: t, s: s, c: c, bus: bus}}
}

// writeBursts sends one 8 KB WRITE with OTIR bursts of n bytes, polling
// DRQ once before each burst (roms/scsilib sbbo: 32 T poll, 17 T set-up,
// 21 T a byte, 26 T loop). It reports whether the command completed.
func (r *chipRig) writeBursts(t testing.TB, block, n int, data []byte) (status byte, done bool) {
	h := r.h
	require.Equal(t, scsi.DataOut, h.command(rw(mcd403.OpWrite, block, 1)))
	for i := 0; i < len(data); i += n {
		if !h.drq(2 * sched.Second) {
			return 0, false // the Z80's timeout: the target stopped asking
		}
		h.now += 17 * sched.TState
		for _, b := range data[i:min(i+n, len(data))] {
			h.tick(21)
			h.c.DMAWrite(b)
		}
		h.now += 26 * sched.TState
	}
	return h.finish(5 * sched.Second)
}

// The story's write hang from the mechanism: the drive's FIFO holds 127
// bytes and its firmware frees room 64 bytes at a time, more slowly than
// OTIR fills it. With 16-byte bursts the FIFO fills only at a burst's last
// byte (127 + 64m is 15 mod 16), where the Z80's DRQ poll waits; a 256-byte
// burst runs into the full FIFO mid-burst, overwrites the 5380's output
// latch, and the target waits forever for the bytes that never came.
func TestBurstWriteFIFO(t *testing.T) {
	data := pattern(5, 8192)
	for _, tc := range []struct {
		burst int
		hang  bool
	}{{1, false}, {16, false}, {32, false}, {64, false}, {24, true}, {128, true}, {256, true}} {
		t.Run(fmt.Sprintf("%d-byte bursts", tc.burst), func(t *testing.T) {
			r := newChipRig(t, 3)
			st, done := r.writeBursts(t, 0, tc.burst, data)
			if tc.hang {
				assert.False(t, done, "write should hang")
				assert.NotZero(t, r.c.Stats.Overwrites, "bytes lost in the output latch")
				assert.Equal(t, scsi.DataOut, r.bus.Phase(), "target still in DATA OUT")
				assert.NotZero(t, r.d.Stats().FIFOFull)
				assert.Zero(t, r.d.Stats().BlocksWritten)
				return
			}
			require.True(t, done, "write should complete")
			assert.Equal(t, byte(scsi.StatusGood), st)
			assert.Zero(t, r.c.Stats.Overwrites)
			got := make([]byte, 8192)
			blank, err := r.d.Tape().ReadBlock(0, got)
			require.NoError(t, err)
			assert.False(t, blank)
			assert.Equal(t, data, got)
		})
	}
}

// Reads with 256-byte INIR bursts complete: the drive sends from its
// buffer with a hardware handshake (about 2 us a byte), faster than INIR.
func TestBurstRead256(t *testing.T) {
	r := newChipRig(t, 3)
	data := pattern(2, 8192)
	require.NoError(t, r.d.Tape().WriteBlock(2, data))
	h := r.h
	require.Equal(t, scsi.DataIn, h.command(rw(mcd403.OpRead, 2, 1)))
	var got []byte
	for len(got) < len(data) {
		require.True(t, h.drq(2*sched.Second), "DRQ")
		h.now += 17 * sched.TState
		for range 256 {
			h.tick(21)
			got = append(got, h.c.DMARead())
		}
		h.now += 26 * sched.TState
	}
	st, done := h.finish(sched.Second)
	require.True(t, done)
	assert.Equal(t, byte(scsi.StatusGood), st)
	assert.Zero(t, r.c.Stats.StaleReads)
	assert.Equal(t, data, got)
}
