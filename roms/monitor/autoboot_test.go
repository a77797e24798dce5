package monitor_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// emptyDrive is a WD1772 whose drive A has no disk in it, as the ROM sees
// it: the registers answer, Restore finds track 0, and a Read Address or
// Read Sector never ends because no index pulse ever comes (docs/FLOPPY.md,
// docs/BOOT.md) until a Force Interrupt stops it.
type emptyDrive struct {
	status, trk, sect uint8
}

func (f *emptyDrive) Read(reg int) uint8 {
	switch reg {
	case 0:
		return f.status
	case 1:
		return f.trk
	case 2:
		return f.sect
	}
	return 0
}

func (f *emptyDrive) Write(reg int, v uint8) {
	switch reg {
	case 0:
		switch {
		case v&0xF0 == 0xD0:
			f.status &^= 0x01
		case v&0xF0 == 0x00: // Restore: at track 0 at once (no motor model)
			f.trk, f.status = 0, 0x04
		default: // type II/III: waits for index pulses that never come
			f.status = 0x01
		}
	case 1:
		f.trk = v
	case 2:
		f.sect = v
	}
}

// fdCommand is a byte written to the WD1772's command register and when.
type fdCommand struct {
	at  sched.Time
	cmd uint8
}

// watchFDC records every WD1772 command the CPU writes (port C0h), to the
// board's chip or a stand-in alike.
func watchFDC(b *emu.Board) *[]fdCommand {
	var cmds []fdCommand
	b.ObservePorts(0xC0, 0xC0, func(t uint64, _ uint16, v uint8, out bool) {
		if out {
			cmds = append(cmds, fdCommand{sched.Time(t) * sched.TState, v})
		}
	})
	return &cmds
}

// hgenLoader is a boot block that loads a system the way Ampro's HGEN
// loader does [F HGEN]: ROM off, DMA address, READTRK twice (32 blocks),
// the configuration from block 31 copied elsewhere, 801Bh with a command
// and its data, then a jump to the cold start loaded from block 1.
const hgenLoader = `
        org 9000h
        ld a,40h
        out (0),a
        ld hl,0C000h
        call 800Fh          ; SETDMA
        call 8012h          ; READTRK: blocks 0-15
        call 8012h          ; READTRK: blocks 16-31
        ld hl,0C000h+31*512 ; block 31: the configuration
        ld de,0B000h
        ld bc,512
        ldir
        ld hl,inicmd
        ld de,inidat
        call 801Bh          ; send the controller its parameters
        jp 0C200h           ; the cold start, from block 1
inicmd: db 0Ch,0,0,0,0,0
inidat: db 1,2,3,4,5,6,7,8
        ds 9000h+512-$,0
`

// coldStart (block 1, at C200h) says where it is and returns to the
// monitor through the address the ROM left on the stack.
const coldStart = `
        org 0C200h
        ld hl,msg
loop:   ld a,(hl)
        or a
        ret z
wait:   in a,(84h)
        and 4
        jr z,wait
        ld a,(hl)
        out (80h),a
        inc hl
        jr loop
msg:    db "COLD",13,10,0
        ds 0C200h+512-$,0
`

func assembleAt(t *testing.T, src string) []byte {
	t.Helper()
	r, err := asm.Assemble(fstest.MapFS{"a.asm": {Data: []byte(src)}}, "a.asm", asm.Options{})
	require.NoError(t, err)
	return r.Bytes
}

// hgenDisk is 32 blocks: the loader, the cold start, then block k filled
// with k.
func hgenDisk(t *testing.T) []byte {
	disk := make([]byte, 32*512)
	copy(disk, assembleAt(t, hgenLoader))
	copy(disk[512:], assembleAt(t, coldStart))
	for k := 2; k < 32; k++ {
		for i := 0; i < 512; i++ {
			disk[k*512+i] = byte(k)
		}
	}
	return disk
}

// xebecInit answers the controller-parameter command 0Ch with 8 bytes of
// DATA OUT; everything else goes to the script.
type xebecInit struct{ *script }

func (x xebecInit) Command(t *scsi.Target, cdb []byte) {
	if cdb[0] != 0x0C {
		x.script.Command(t, cdb)
		return
	}
	x.cdbs = append(x.cdbs, append([]byte(nil), cdb...))
	var recv func(n int)
	recv = func(n int) {
		if n == 8 {
			t.Complete(scsi.StatusGood)
			return
		}
		t.ReceiveByte(func(_ sched.Time, b byte) { x.dataIn = append(x.dataIn, b); recv(n + 1) })
	}
	recv(0)
}

// The ROM's waits before the READ of block 0 (docs/BOOT.md): the master's
// power-up wait, the floppy attempt, the pause before SCSI. A floppy wait
// is 65536 polls of the WD1772's status: 59 T each for Read Address, 48 T
// for a type I command such as Restore.
const (
	powerUpWait    = 1 * sched.Second
	readIDTimeout  = 65536 * 59 * sched.TState // 0.967 s
	restoreTimeout = 65536 * 48 * sched.TState // 0.786 s
	scsiWait       = 5 * sched.Second
	// bootSlack covers the rest: the banner at 9600 baud, the bus reset,
	// arbitration and selection.
	bootSlack = 200 * sched.Millisecond
)

func TestAutoBoot(t *testing.T) {
	tests := []struct {
		name     string
		id       int  // J9 initiator ID
		target   int  // where the disk is
		fdc      bool // a stand-in WD1772 whose drive A is empty
		realFD   bool // the board's WD1772 and an empty drive 0
		resets   int
		restored bool       // the Restore ends (TR00 seen) rather than timing out
		read0    sched.Time // the ROM's waits before block 0 is read
	}{
		// No drive cabled: the WD1772 finds no TR00 and no index, so the
		// one Restore and each Read Address run into their timeouts.
		{"master boots target 0", 7, 0, false, false, 1, false, powerUpWait + restoreTimeout + 5*readIDTimeout + scsiWait},
		{"slave boots target 7", 3, 7, false, false, 0, false, restoreTimeout + 5*readIDTimeout + scsiWait},
		// An empty drive: the Restore ends at once, the Read Addresses time out.
		{"empty floppy first", 7, 0, true, false, 1, true, powerUpWait + 5*readIDTimeout + scsiWait},
		{"empty drive on the WD1772", 7, 0, false, true, 1, true, powerUpWait + 5*readIDTimeout + scsiWait},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r *bootRig
			switch {
			case tc.fdc:
				r = newBootRig(t, tc.id, &emptyDrive{})
			case tc.realFD:
				r = newBootRig(t, tc.id, nil, emu.Floppy{Drive: 0})
			default:
				r = newBootRig(t, tc.id, nil)
			}
			fdc := watchFDC(r.b)
			d := &script{disk: hgenDisk(t), now: r.b.Now}
			scsi.NewTarget(r.bus, tc.target, "disk", xebecInit{d}, scsi.DefaultTiming())
			require.NoError(t, r.ty.WaitFor("COLD\r\n"))
			require.NoError(t, r.ty.WaitFor("> "), "RET from the cold start reaches the monitor")

			require.Len(t, d.cdbs, 1+32+1, "block 0, 32 single-block READs, the parameters")
			for k := 0; k < 32; k++ {
				assert.Equal(t, []byte{0x08, 0, 0, byte(k), 1, 0}, d.cdbs[1+k], "READTRK block %d", k)
			}
			assert.Equal(t, []byte{0x0C, 0, 0, 0, 0, 0}, d.cdbs[33])
			assert.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8}, d.dataIn, "801Bh sent the data at DE")
			for k := 2; k < 32; k++ {
				assert.Equal(t, byte(k), r.b.RAM(uint16(0xC000+k*512+7)), "block %d at C000h+%d*512", k, k)
			}
			assert.Equal(t, byte(31), r.b.RAM(0xB1FF), "block 31 copied")
			assert.Equal(t, tc.resets, d.resets, "SCSI RST pulses")
			assert.Equal(t, uint16(0), word(r.b, 0x801E), "READTRK advanced the DMA address by 16 KB (C000h + 4000h wraps)")
			assert.NotContains(t, r.tr.String(), "lbplus monitor", "no key was typed")

			// The floppy attempt: Force Interrupt and one Restore, then five
			// Read Addresses, each forced off after about a second [F AMPROM].
			cmds := *fdc
			require.GreaterOrEqual(t, len(cmds), 3)
			assert.Equal(t, uint8(0xD0), cmds[0].cmd, "Force Interrupt first")
			assert.Equal(t, uint8(0x08), cmds[1].cmd, "then Restore, 6 ms steps, no spin-up wait")
			rest := cmds[2:]
			if !tc.restored {
				require.NotEmpty(t, rest)
				assert.Equal(t, uint8(0xD0), rest[0].cmd, "a Restore that never sees TR00 is forced off")
				assert.InDelta(t, float64(restoreTimeout), float64(rest[0].at-cmds[1].at), float64(sched.Millisecond), "after its timeout")
				rest = rest[1:]
			}
			var readIDs int
			for i, c := range rest {
				switch c.cmd {
				case 0xC8:
					readIDs++
					require.Greater(t, len(rest), i+1)
					assert.Equal(t, uint8(0xD0), rest[i+1].cmd, "a Read Address that never ends is forced off")
					wait := rest[i+1].at - c.at
					assert.InDelta(t, float64(readIDTimeout), float64(wait), float64(sched.Millisecond), "after about a second")
				case 0xD0:
				default:
					t.Errorf("WD1772 command %02Xh at %v: only one Restore, then Read Addresses", c.cmd, c.at)
				}
			}
			assert.Equal(t, 5, readIDs, "five tries [F AMPROM]")

			require.NotEmpty(t, d.at)
			t.Logf("block 0 read at %v", d.at[0])
			assert.GreaterOrEqual(t, d.at[0], tc.read0, "after the ROM's waits")
			assert.Less(t, d.at[0], tc.read0+bootSlack, "and not much later")
		})
	}
}

// A key typed during any of the boot's waits enters the monitor: the 1 s
// power-up wait, the Restore or a Read Address running into its timeout
// (the ROM looks at the console once a timeout unit, so within about a
// second), the pause before SCSI. On its way the ROM forces the WD1772
// idle (Force Interrupt) and deselects the drive (port 00 = 40h).
func TestKeyDuringBoot(t *testing.T) {
	tests := []struct {
		name    string
		at      sched.Time // when the key is typed
		drive   bool       // an empty drive 0 is cabled
		running uint8      // the WD1772 command running then (0: none)
	}{
		{"power-up wait", 500 * sched.Millisecond, false, 0},
		{"the Restore, no drive", 1500 * sched.Millisecond, false, 0x08},
		{"a Read Address, no drive", 3 * sched.Second, false, 0xC8},
		{"a Read Address, empty drive", 3 * sched.Second, true, 0xC8},
		{"the pause before SCSI", 9 * sched.Second, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var floppies []emu.Floppy
			if tc.drive {
				floppies = []emu.Floppy{{Drive: 0}}
			}
			r := newBootRig(t, 7, nil, floppies...)
			fdc := watchFDC(r.b)
			require.NoError(t, r.b.RunFor(tc.at))
			n := len(*fdc)
			if tc.running != 0 {
				require.NotZero(t, n)
				assert.Equal(t, tc.running, (*fdc)[n-1].cmd, "the command running when the key comes")
				assert.NotZero(t, r.b.FDC().Peek(0)&0x01, "BUSY")
			}
			require.NoError(t, r.ty.Type(" "))
			require.NoError(t, r.ty.WaitFor("lbplus monitor"))
			assert.Less(t, r.b.Now()-tc.at, readIDTimeout+100*sched.Millisecond, "the monitor within a timeout unit")
			after := (*fdc)[n:]
			require.Len(t, after, 1, "one floppy command after the key")
			assert.Equal(t, uint8(0xD0), after[0].cmd, "Force Interrupt")
			assert.Zero(t, r.b.FDC().Peek(0)&0x01, "the WD1772 is idle")
			assert.Equal(t, uint8(0x40), r.b.Latch(), "ROM off, no drive selected")
			assert.Contains(t, r.command(t, "I 29"), "\r\nFF\r\n", "the monitor answers: J9 ID 7, spare jumpers open")
			assert.NotContains(t, r.tr.String(), "No boot disk", "the boot stopped at the key")
		})
	}
}
