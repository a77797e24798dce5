package cpmbios_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// standIn takes the CCP+BDOS's place to exercise the BIOS through its
// jump table: console out and in, writes and reads on two partitions
// (across a host block change, so the dirty block is written back and read
// again from the disk), and warm boot, which must reload it from the disk
// after it wiped most of itself.
const standIn = `
        INCLUDE "layout.inc"
PASS    equ 0A000h          ; (8000h-8FFFh still holds the ROM copy)
        ; PASS starts 0: RAM is zero at power-on
BUF     equ 0A100h
CHK     equ 0A600h
        org CCPBASE
        jp start
        jp start
start:  ld sp,CCPBASE
        ld a,(PASS)
        or a
        jp nz,second
        inc a
        ld (PASS),a
        ld hl,hello
        call print
        ld hl,BUF               ; 8 records of pattern: byte i = i*3+1
        ld b,0
        ld c,1
fill:   ld (hl),c
        inc hl
        inc c
        inc c
        inc c
        ld a,h
        cp HIGH (BUF+400h)
        jr nz,fill
        ld c,0                  ; partition 0 (A:), track 2
        ld de,2
        call rwtest
        ld c,1                  ; partition 1 (B:), its first data track
        ld de,512
        call rwtest
        ld c,7                  ; H: does not exist (F: and G: are the
                                ; floppy units of the board's WD1772)
        call BIOS_SELDSK
        ld a,h
        or l
        jp nz,fail
        ld hl,keymsg
        call print
        call BIOS_CONIN
        ld c,a
        call BIOS_CONOUT
        ld hl,CCPBASE+100h      ; wipe most of ourselves, then warm boot
        ld de,CCPBASE+101h
        ld bc,1400h
        ld (hl),0
        ldir
        jp 0

; rwtest: drive C, track DE: write the 8 records from BUF, read a record
; of another track (the host block goes back to the disk), read the 8
; records back into CHK and compare.
rwtest: ld (trk),de
        ld e,0
        call BIOS_SELDSK
        ld a,h
        or l
        jp z,fail
        xor a
        ld (sec),a
wr1:    call seek
        ld c,0
        call BIOS_WRITE
        or a
        jp nz,fail
        call next
        jr nz,wr1
        ld bc,100
        call BIOS_SETTRK
        ld bc,0
        call BIOS_SETSEC
        ld bc,CHK
        call BIOS_SETDMA
        call BIOS_READ
        or a
        jp nz,fail
        xor a
        ld (sec),a
rd1:    call seek
        ld hl,CHK-BUF           ; read to CHK instead of BUF
        add hl,bc
        ld b,h
        ld c,l
        call BIOS_SETDMA
        call BIOS_READ
        or a
        jp nz,fail
        call next
        jr nz,rd1
        ld hl,BUF
        ld de,CHK
        ld bc,400h
cmp1:   ld a,(de)
        cp (hl)
        jp nz,fail
        inc hl
        inc de
        dec bc
        ld a,b
        or c
        jr nz,cmp1
        ld hl,rwok
        jp print

; seek: SETTRK trk, SETSEC sec, SETDMA BUF + 128*sec; BC = that address.
seek:   ld bc,(trk)
        call BIOS_SETTRK
        ld a,(sec)
        ld c,a
        ld b,0
        call BIOS_SETSEC
        ld a,(sec)
        ld h,0
        ld l,a
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld bc,BUF
        add hl,bc
        ld b,h
        ld c,l
        jp BIOS_SETDMA
next:   ld hl,sec
        inc (hl)
        ld a,(hl)
        cp 8
        ret

second: ld hl,warmmsg
        call print
        jr $

fail:   ld hl,failmsg
        call print
        jr $

print:  ld a,(hl)
        or a
        ret z
        push hl
        ld c,a
        call BIOS_CONOUT
        pop hl
        inc hl
        jr print

trk:    dw 0
sec:    db 0
hello:  db "STANDIN",13,10,0
rwok:   db "RW OK",13,10,0
keymsg: db "KEY?",0
warmmsg: db 13,10,"WARM OK",13,10,0
failmsg: db "FAIL",13,10,0
        ds CCPBASE+SYSSIZE-$,0
`

func standInSystem(t *testing.T) []byte {
	t.Helper()
	fsys := asm.UnionFS(fstest.MapFS{"s.asm": {Data: []byte(standIn)}}, cpm.FS)
	r, err := asm.Assemble(fsys, "s.asm", asm.Options{})
	require.NoError(t, err)
	require.Len(t, r.Bytes, cpm.SysSize)
	return r.Bytes
}

// systemDisk makes an ST-125 image with the system installed.
func systemDisk(t *testing.T, sys []byte, cfg cpmbios.HDConfig) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hd0.img")
	// A drive just big enough for the partitions keeps the test quick.
	blocks := cfg.Partitions * cpmbios.PartTracks * cpmbios.TrackBlocks
	g := acb4000.Geometry{Name: "test", Heads: 4, Sectors: 17, SectorSize: 512, Cylinders: (blocks+67)/68 + 1}
	require.NoError(t, acb4000.Create(path, g, true, 3))
	var m acb4000.Meta
	f, err := image.Open(path, &m, false)
	require.NoError(t, err)
	require.NoError(t, cpmbios.InstallHD(f, sys, cfg, true))
	require.NoError(t, f.Close())
	return path
}

type rig struct {
	b  *emu.Board
	tr *console.Transcript
	ty *console.Typist
}

// newRig is the boot ROM on a board that setup fills in (drives, devices,
// jumpers), its console on a transcript; the typist waits at most limit.
func newRig(t *testing.T, limit sched.Time, setup func(*emu.Config)) *rig {
	t.Helper()
	rom, err := monitor.Image()
	require.NoError(t, err)
	r := &rig{tr: &console.Transcript{}}
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = r.tr.Out
	setup(&cfg)
	r.b, err = emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.b.Close() })
	r.ty = &console.Typist{B: r.b, T: r.tr, Limit: limit}
	return r
}

// bootDisk boots the ROM with the hard disk image path at SCSI ID 0.
func bootDisk(t *testing.T, path string) *rig {
	t.Helper()
	return newRig(t, 20*sched.Second, func(cfg *emu.Config) {
		cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	})
}

func TestBIOSOnTheBoard(t *testing.T) {
	for _, burst := range []bool{false, true} {
		name := "byte"
		if burst {
			name = "burst"
		}
		t.Run(name, func(t *testing.T) {
			path := systemDisk(t, standInSystem(t), cpmbios.HDConfig{Partitions: 5, Burst: burst})
			r := bootDisk(t, path)
			require.NoError(t, r.ty.WaitFor("lbplus CP/M 2.2 BIOS 1.2 - 60K\r\n5 hard disk partition(s), 2 floppy drive(s)\r\nSTANDIN\r\n"))
			require.NoError(t, r.ty.WaitFor("RW OK\r\nRW OK\r\nKEY?"))
			require.NoError(t, r.ty.Type("x"))
			require.NoError(t, r.ty.WaitFor("x\r\nWARM OK\r\n"))
			assert.NotContains(t, r.tr.String(), "FAIL")
			assert.Equal(t, uint8(0xC3), r.b.RAM(0))
			assert.Equal(t, uint16(cpm.BIOSBase+3), uint16(r.b.RAM(1))|uint16(r.b.RAM(2))<<8, "0001h finds the BIOS")
			assert.Equal(t, uint16(cpm.BDOSEnt), uint16(r.b.RAM(6))|uint16(r.b.RAM(7))<<8)

			// The records reached the disk at LBA track*16 + record/4 (the
			// image is raw blocks in LBA order; the emulator holds its lock).
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			want := make([]byte, 1024)
			for i := range want {
				want[i] = byte(i*3 + 1)
			}
			for _, lba := range []int64{2 * 16, 512 * 16} {
				got := raw[lba*512 : lba*512+1024]
				assert.True(t, bytes.Equal(want, got), "LBA %d", lba)
			}
		})
	}
}
