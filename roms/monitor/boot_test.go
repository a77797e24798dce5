package monitor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// script is a SCSI target that answers READ(6) and REQUEST SENSE the way a
// test asks, including the ways real targets go wrong.
type script struct {
	block   []byte // DATA IN for READ of block 0
	disk    []byte // when set: READ(6) serves these 512-byte blocks
	dataIn  []byte // DATA OUT received
	status  byte
	sense   []byte // DATA IN for REQUEST SENSE
	hang    bool   // never continue after the CDB
	dataOut bool   // ask for DATA OUT instead
	cdbs    [][]byte
	now     func() sched.Time // when set: at records when each CDB came
	at      []sched.Time
	resets  int
}

func (d *script) Command(t *scsi.Target, cdb []byte) {
	d.cdbs = append(d.cdbs, append([]byte(nil), cdb...))
	if d.now != nil {
		d.at = append(d.at, d.now())
	}
	switch {
	case d.hang:
	case d.dataOut:
		t.ReceiveByte(func(_ sched.Time, b byte) { d.dataIn = append(d.dataIn, b); t.Complete(scsi.StatusGood) })
	case cdb[0] == 0x03:
		d.send(t, d.sense, 0, scsi.StatusGood)
	case d.disk != nil && cdb[0] == 0x08:
		lba := int(cdb[1]&0x1F)<<16 | int(cdb[2])<<8 | int(cdb[3])
		n := int(cdb[4])
		if n == 0 {
			n = 256
		}
		d.send(t, d.disk[lba*512:(lba+n)*512], 0, scsi.StatusGood)
	default:
		d.send(t, d.block, 0, d.status)
	}
}

func (d *script) send(t *scsi.Target, p []byte, i int, status byte) {
	if i == len(p) {
		t.Complete(status)
		return
	}
	t.SendByte(p[i], func(sched.Time) { d.send(t, p, i+1, status) })
}

func (d *script) Reset() { d.resets++ }

type bootRig struct {
	b   *emu.Board
	bus *scsi.Bus
	tr  *console.Transcript
	ty  *console.Typist
}

// newBootRig is a board with the boot ROM and initiator ID id; fdc, when
// not nil, answers at C0h-C7h.
func newBootRig(t *testing.T, id int, fdc emu.FDC, floppies ...emu.Floppy) *bootRig {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	r := &bootRig{tr: &console.Transcript{}}
	cfg := emu.DefaultConfig(rom)
	cfg.SCSIID = id
	cfg.Floppies = floppies
	cfg.ConsoleOut = r.tr.Out
	r.b, err = emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.b.Close() })
	r.bus = r.b.SCSIBus()
	if fdc != nil {
		r.b.AttachFDC(fdc)
	}
	r.ty = &console.Typist{B: r.b, T: r.tr, Limit: 20 * sched.Second}
	return r
}

// monitor types a key while the ROM boots: the monitor prompts.
func (r *bootRig) monitor(t *testing.T) {
	t.Helper()
	require.NoError(t, r.ty.WaitFor("Any key: monitor\r\n"))
	require.NoError(t, r.ty.Type(" "))
	require.NoError(t, r.ty.WaitFor("lbplus monitor"))
}

// command types line at the prompt and returns the console output from its
// echo up to and including the next prompt.
func (r *bootRig) command(t *testing.T, line string) string {
	t.Helper()
	require.NoError(t, r.ty.WaitFor("> "))
	start := r.tr.Len()
	require.NoError(t, r.ty.Type(line+"\r"))
	require.NoError(t, r.ty.WaitFor("> "), "the monitor prompts again")
	return string(r.tr.Bytes()[start:])
}

// bootBlock is a 512-byte boot sector (first byte 21h, LD HL,nn) that
// records its entry state from 9200h on (A, SP, the word on the stack, the
// flags after LD A,I whose P/V bit is IFF2) and returns to the monitor.
func bootBlock() []byte {
	p := []byte{
		0x21, 0x00, 0x00, // ld hl,0
		0x32, 0x00, 0x92, // ld (9200h),a
		0xED, 0x73, 0x02, 0x92, // ld (9202h),sp
		0xE1,             // pop hl
		0xE5,             // push hl
		0x22, 0x04, 0x92, // ld (9204h),hl
		0xED, 0x57, // ld a,i
		0xF5,             // push af
		0xE1,             // pop hl
		0x22, 0x06, 0x92, // ld (9206h),hl
		0xC9, // ret
	}
	return append(p, make([]byte, 512-len(p))...)
}

func word(b *emu.Board, addr uint16) uint16 { return uint16(b.RAM(addr)) | uint16(b.RAM(addr+1))<<8 }

func TestBootEntryConditions(t *testing.T) {
	r := newBootRig(t, 7, nil)
	d := &script{block: bootBlock()}
	scsi.NewTarget(r.bus, 2, "disk", d, scsi.DefaultTiming())
	r.monitor(t)
	got := r.command(t, "B 2")
	assert.Equal(t, "B 2\r\nBoot SCSI target 2\r\n> ", got)
	require.Len(t, d.cdbs, 1)
	assert.Equal(t, []byte{0x08, 0, 0, 0, 1, 0}, d.cdbs[0], "READ(6) of LUN 0, block 0, one block")
	assert.Equal(t, uint8(2), r.b.RAM(0x9200), "A = target ID")
	assert.Equal(t, uint16(0x8FFE), word(r.b, 0x9202), "SP just below the boot sector, one return address pushed")
	syms, err := monitor.Symbols()
	require.NoError(t, err)
	assert.Equal(t, uint16(syms["prompt"]), word(r.b, 0x9204), "RET goes to the prompt")
	assert.Zero(t, r.b.RAM(0x9206)&0x04, "interrupts disabled (IFF2 = 0)")
	assert.False(t, r.b.ROMMapped(), "the ROM runs from its copy at 8000h")
	assert.Equal(t, uint64(1), r.b.NCR5380().Stats.Arbitrations, "the ROM arbitrates before it selects [F AMPROM]")
	assert.Equal(t, scsi.BusFree, r.bus.Phase())
}

// Each way a boot can fail gives one line naming the target and the cause,
// then the prompt, and leaves the bus free.
func TestBootFailures(t *testing.T) {
	block := bootBlock()
	tests := []struct {
		name   string
		dev    *script
		busy   bool // another device holds BSY
		want   string
		resets int
	}{
		{"busy status", &script{block: block, status: scsi.StatusBusy}, false, "SCSI 0: status 08\r\n", 0},
		{"check condition", &script{block: nil, status: scsi.StatusCheckCondition, sense: []byte{0x21, 0, 0x12, 0x34}}, false,
			"SCSI 0: CHECK CONDITION, sense 21 00 12 34\r\n", 0},
		{"short sense", &script{status: scsi.StatusCheckCondition, sense: []byte{0x04}}, false, "SCSI 0: CHECK CONDITION, sense 04\r\n", 0},
		{"short block", &script{block: block[:256]}, false, "SCSI 0: block 0 is not 512 bytes\r\n", 0},
		{"long block", &script{block: append(append([]byte(nil), block...), make([]byte, 88)...)}, false, "SCSI 0: block 0 is not 512 bytes\r\n", 0},
		{"zero block", &script{block: make([]byte, 512)}, false, "SCSI 0: block 0 is not a boot block\r\n", 0},
		{"no data", &script{}, false, "SCSI 0: block 0 is not 512 bytes\r\n", 0},
		{"data out", &script{dataOut: true}, false, "SCSI 0: unexpected phase, bus reset\r\n", 1},
		{"hang", &script{hang: true}, false, "SCSI 0: timeout, bus reset\r\n", 1},
		{"bus busy", &script{block: block}, true, "SCSI 0: bus busy (BSY or SEL stuck)\r\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newBootRig(t, 7, nil)
			r.monitor(t)
			resets := tc.dev.resets
			scsi.NewTarget(r.bus, 0, "disk", tc.dev, scsi.DefaultTiming())
			if tc.busy {
				r.bus.Attach("stuck", nil).Drive(scsi.BSY, scsi.BSY)
			}
			got := r.command(t, "B 0")
			assert.Equal(t, "B 0\r\nBoot SCSI target 0\r\n"+tc.want+"> ", got)
			assert.Equal(t, tc.resets, tc.dev.resets-resets, "SCSI RST pulses")
			if !tc.busy {
				assert.Equal(t, scsi.BusFree, r.bus.Phase(), "the bus is left free")
			}
			assert.Zero(t, r.b.RAM(0x9200), "nothing stored past the block")
		})
	}
}

// A target that lets go of BSY in the middle of a command (power loss, a
// firmware crash) is reported without a bus reset.
func TestBootTargetDropsBSY(t *testing.T) {
	r := newBootRig(t, 7, nil)
	r.monitor(t)
	var port *scsi.Port
	s := r.b.Sched()
	port = r.bus.Attach("flaky", func(sched.Time) {
		l := r.bus.Lines()
		if l&scsi.SEL != 0 && l&scsi.BSY == 0 && r.bus.Data()&1 != 0 && port.Lines() == 0 {
			s.After(2*sched.Microsecond, "flaky BSY", func(sched.Time) { port.Drive(scsi.BSY, scsi.BSY) })
			s.After(sched.Millisecond, "flaky gone", func(sched.Time) { port.Release() })
		}
	})
	got := r.command(t, "B0")
	assert.Equal(t, "B0\r\nBoot SCSI target 0\r\nSCSI 0: target dropped BSY mid-command\r\n> ", got)
}
