package monitor_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
)

// origBoot is a floppy boot sector written the way Ampro's are: it calls
// nothing but the boot ROM's jump table (docs/BOOT.md). It turns the ROM
// off (and deselects the drive) first thing, as Ampro's sectors do, loads
// the two boot tracks at LOAD through SETDMA, READTRK, STEPIN and READTRK,
// and jumps to the stand-in BIOS in the sector after itself.
const origBoot = `
SETDMA  equ 800Fh
READTRK equ 8012h
STEPIN  equ 8006h
LOAD    equ 0A000h
        org 9000h
        ld a,40h
        out (0),a
        ld hl,LOAD
        call SETDMA
        call READTRK
        jr nz,fail
        call STEPIN
        call READTRK
        jr nz,fail
        jp LOAD+SIZE
fail:   halt                    ; the test then waits in vain
        ds 9000h+SIZE-$,0
`

// standIn takes the BIOS's place: loaded from the sector after the boot
// sector, it says so on DART A with the ROM's variables it was given
// (two-sided flag, sector bias, the DMA address after the loads) and stays.
const standIn = `
        org 0A000h+SIZE
        ld hl,msg
        call puts
        ld a,(802Ah)
        call hex
        ld a,(802Bh)
        call hex
        ld a,(801Fh)
        call hex
        ld a,(801Eh)
        call hex
        ld hl,crlf
        call puts
        jr $
puts:   ld a,(hl)
        or a
        ret z
        call putc
        inc hl
        jr puts
hex:    push af
        rrca
        rrca
        rrca
        rrca
        call nib
        pop af
nib:    and 0Fh
        add a,90h
        daa
        adc a,40h
        daa
putc:   push af
w:      in a,(84h)
        and 4
        jr z,w
        pop af
        out (80h),a
        ret
msg:    db "STAND-IN BIOS ",0
crlf:   db " ",13,10,0
`

func assembleSized(t *testing.T, src string, size int) []byte {
	t.Helper()
	r, err := asm.Assemble(fstest.MapFS{"a.asm": {Data: []byte(src)}}, "a.asm", asm.Options{Defines: map[string]int64{"SIZE": int64(size)}})
	require.NoError(t, err)
	return r.Bytes
}

// An original-style floppy boot sector, built here with our assembler and
// a stand-in BIOS, boots through our ROM on each Ampro format: the ROM
// finds the format by Read Address, enters the sector, and its jump table
// loads both boot tracks (side 1 of cylinder 0 on double-sided media,
// cylinder 1 on single-sided) byte for byte.
func TestOriginalFloppyBootSector(t *testing.T) {
	for _, tc := range []struct {
		format  string
		twoSide int
		bias    int
	}{{"amp1", 0, 0}, {"amp2", 1, 16}, {"amp3", 0, 0}, {"amp4", 1, 16}} {
		t.Run(tc.format, func(t *testing.T) {
			f, err := fdimage.ParseFormat(tc.format)
			require.NoError(t, err)
			d := f.NewDisk(0xE5)
			track := f.Sectors * f.Size
			want := make([]byte, 2*track)
			for i := range want {
				want[i] = byte(i/f.Size*37 + i)
			}
			boot := assembleSized(t, origBoot, f.Size)
			stand := assembleSized(t, standIn, f.Size)
			require.Len(t, boot, f.Size)
			require.LessOrEqual(t, len(stand), f.Size)
			copy(want, boot)
			copy(want[f.Size:], stand)
			for tk := 0; tk < 2; tk++ {
				c, h := tk, 0
				if f.Heads == 2 {
					c, h = 0, tk
				}
				tr := d.Track(c, h)
				for k := 0; k < f.Sectors; k++ {
					i := tr.Find(byte(f.FirstID + k))
					require.GreaterOrEqual(t, i, 0)
					off := tk*track + k*f.Size
					tr.Sectors[i].Data = append([]byte(nil), want[off:off+f.Size]...)
				}
			}
			path := filepath.Join(t.TempDir(), "orig.imd")
			require.NoError(t, fdimage.Create(path, f, d, "IMD 1.18: 01/12/2026 00:00:00"))

			r := newBootRig(t, 7, nil, emu.Floppy{Drive: 0, Image: path, Format: tc.format})
			end := 0xA000 + 2*track
			line := fmt.Sprintf("STAND-IN BIOS %02X%02X%04X \r\n", tc.twoSide, tc.bias, end)
			require.NoError(t, r.ty.WaitFor(line))
			got := make([]byte, len(want))
			for i := range got {
				got[i] = r.b.RAM(uint16(0xA000 + i))
			}
			assert.Equal(t, want, got, "both boot tracks at A000h, in sector order")
		})
	}
}
