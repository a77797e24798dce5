package cpmbios_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// rsx is a resident system extension as NZ-COM installs one below the
// BIOS: it takes over the warm boot entry of the BIOS jump table, says so
// through the BIOS's CONOUT (found through 0001h), counts, and goes on to
// the warm boot it replaced.
const rsx = `
        org 0C000h
rsxwb:  ld sp,0C0F0h
        ld hl,msg
loop:   ld a,(hl)
        or a
        jr z,done
        push hl
        ld c,a
        ld hl,(1)               ; BIOS+3
        ld de,9                 ; BIOS+0Ch: CONOUT
        add hl,de
        ld de,back
        push de
        jp (hl)
back:   pop hl
        inc hl
        jr loop
done:   ld hl,count
        inc (hl)
origjp: jp 0                    ; patched: the BIOS's own warm boot
msg:    db 13,10,"RSX WBOOT",13,10,0
count:  db 0
rsxend:
`

// installer is a transient program: it copies the RSX to C000h and points
// the BIOS jump table's warm boot entry at it, keeping the old target.
const installer = `
        org 100h
        ld hl,rsxbin
        ld de,0C000h
        ld bc,RSXLEN
        ldir
        ld hl,(1)               ; BIOS+3: JP wboot
        inc hl
        ld e,(hl)
        inc hl
        ld d,(hl)
        ld (ORIGJP+1),de
        ld de,0C000h
        ld (hl),d
        dec hl
        ld (hl),e
        ret
rsxbin: db %s
`

func assembleSrc(t *testing.T, src string) *asm.Result {
	t.Helper()
	fsys := asm.UnionFS(fstest.MapFS{"a.asm": {Data: []byte(src)}}, cpm.FS)
	r, err := asm.Assemble(fsys, "a.asm", asm.Options{})
	require.NoError(t, err)
	return r
}

// NZ-COM's requirement: a program may redirect warm boot through the BIOS
// jump table and keep it redirected: the BIOS reaches warm boot only
// through its table (page zero's JP is rewritten to BIOS+3 each time).
func TestRSXInterceptsWarmBoot(t *testing.T) {
	r1 := assembleSrc(t, rsx)
	bytes := make([]string, len(r1.Bytes))
	for i, b := range r1.Bytes {
		bytes[i] = fmt.Sprintf("%d", b)
	}
	src := fmt.Sprintf(installer, strings.Join(bytes, ","))
	src = strings.Replace(src, "org 100h", fmt.Sprintf("RSXLEN equ %d\nORIGJP equ %d\n        org 100h", len(r1.Bytes), r1.Symbols["origjp"]), 1)
	inst := assembleSrc(t, src)
	require.Less(t, len(inst.Bytes), 512)

	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	r.b.LoadRAM(0x100, inst.Bytes) // as if typed in with a debugger
	r.cmd(t, "SAVE 2 RSX.COM", "A>")
	r.cmd(t, "RSX", "A>")
	assert.Equal(t, uint16(0xC000), uint16(r.b.RAM(cpm.BIOSBase+4))|uint16(r.b.RAM(cpm.BIOSBase+5))<<8, "BIOS+3 jumps to the RSX")
	for i := 1; i <= 2; i++ {
		require.NoError(t, r.ty.Type("\x03")) // ^C at the prompt: warm boot
		require.NoError(t, r.ty.WaitFor("RSX WBOOT\r\n"))
		require.NoError(t, r.ty.WaitFor("A>"))
		assert.Equal(t, uint8(i), r.b.RAM(uint16(r1.Symbols["count"])), "warm boots through the RSX")
	}
	r.cmd(t, "DIR", "A: RSX      COM\r\nA>")
	assert.Equal(t, uint16(cpm.BIOSBase+3), uint16(r.b.RAM(1))|uint16(r.b.RAM(2))<<8, "0001h still names the jump table")
}

// vbios is shaped like the Z-System NZ-COM builds below the BIOS: a page
// of its own starting with a copy of the BIOS jump table in which warm
// boot is its own and every other entry goes on to the real BIOS; page
// zero's JP at 0000h is pointed at it, so 0001h names the new table. Its
// warm boot never reaches the real one: it reloads the CCP from its own
// copy (NZ-COM's system image), rewrites page zero, sets the DMA through
// its table and enters the CCP with the drive and user from 0004h.
const vbios = `
        include "layout.inc"
        org 0C000h
vtable: jp BIOS_BOOT
        jp vwboot
        jp BIOS_CONST
        jp BIOS_CONIN
        jp BIOS_CONOUT
        jp BIOS_LIST
        jp BIOS_PUNCH
        jp BIOS_READER
        jp BIOS_HOME
        jp BIOS_SELDSK
        jp BIOS_SETTRK
        jp BIOS_SETSEC
        jp BIOS_SETDMA
        jp BIOS_READ
        jp BIOS_WRITE
        jp BIOS_LISTST
        jp BIOS_SECTRAN
vwboot: ld sp,0100h
        ld hl,vmsg
vw1:    ld a,(hl)
        or a
        jr z,vw2
        push hl
        ld c,a
        call vtable+0Ch         ; CONOUT
        pop hl
        inc hl
        jr vw1
vw2:    ld hl,vcount
        inc (hl)
        ld hl,ccpimg
        ld de,CCPBASE
        ld bc,CCPSIZE
        ldir
        ld a,0C3h
        ld (PZ_WBOOT),a
        ld hl,vtable+3
        ld (PZ_WBOOT+1),hl
        ld (PZ_BDOS),a
        ld hl,BDOSENT
        ld (PZ_BDOS+1),hl
        ld bc,PZ_DMA
        call vtable+24h         ; SETDMA
        ld a,(PZ_CDISK)
        ld c,a
        jp CCPBASE+3
vmsg:   db 13,10,"VBIOS WBOOT",13,10,0
vcount: db 0
        ds 0C100h-$
ccpimg:                         ; the CCP's 0800h bytes follow
`

// vinstall is the transient program that puts the page in place (at
// C000h, in the TPA, which the small programs run afterwards leave alone)
// and redirects 0000h to its table.
const vinstall = `
        org 100h
        ld hl,image
        ld de,0C000h
        ld bc,IMAGELEN
        ldir
        ld hl,0C003h
        ld (1),hl
        ret
image:  db %s
`

// NZ-COM's other requirement: with a virtual BIOS below the real one and
// 0001h pointing at its jump table, every warm boot (^C at the prompt, a
// program's JP 0 after it overwrote the CCP, a BDOS error answered with a
// key) reaches the virtual BIOS's warm boot and never the real BIOS's:
// page zero keeps naming the virtual table, and the CCP comes back only
// from the virtual BIOS's copy.
func TestVirtualBIOSWarmBoot(t *testing.T) {
	r1 := assembleSrc(t, vbios)
	require.Equal(t, 0x100, len(r1.Bytes), "the table and its warm boot fit a page")
	ccp, err := cpm.CCP()
	require.NoError(t, err)
	img := append(append([]byte{}, r1.Bytes...), ccp...)
	nums := make([]string, len(img))
	for i, b := range img {
		nums[i] = fmt.Sprintf("%d", b)
	}
	inst := assembleSrc(t, fmt.Sprintf("IMAGELEN equ %d\n", len(img))+fmt.Sprintf(vinstall, strings.Join(nums, ",")))
	pages := (len(inst.Bytes) + 255) / 256

	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	wbtest, err := cpmutil.Program("WBTEST")
	require.NoError(t, err)
	putFile(t, path, "WBTEST.COM", wbtest)
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	r.b.LoadRAM(0x100, inst.Bytes) // as if typed in with a debugger
	r.cmd(t, fmt.Sprintf("SAVE %d NZ.COM", pages), "A>")
	r.cmd(t, "NZ", "A>")
	vector := func() uint16 { return uint16(r.b.RAM(1)) | uint16(r.b.RAM(2))<<8 }
	require.Equal(t, uint16(0xC003), vector(), "0001h names the virtual table")

	count := uint16(r1.Symbols["vcount"])
	for _, c := range []struct{ keys, want string }{
		{"\x03", "VBIOS WBOOT\r\n"},                        // ^C at the prompt
		{"WBTEST\r", "overwritten\r\n\r\nVBIOS WBOOT\r\n"}, // the CCP is HALTs now
		{"P:\r", "BDOS ERR ON P: SELECT"},                  // then a key
		{"x", "VBIOS WBOOT\r\n"},
	} {
		require.NoError(t, r.ty.Type(c.keys))
		require.NoError(t, r.ty.WaitFor(c.want), "after %q", c.keys)
		if c.want != "BDOS ERR ON P: SELECT" {
			require.NoError(t, r.ty.WaitFor("A>"))
		}
	}
	assert.Equal(t, uint8(3), r.b.RAM(count), "three warm boots, each through the virtual BIOS")
	assert.Equal(t, uint16(0xC003), vector(), "the real BIOS's warm boot never ran (it points 0001h back at itself)")
	r.cmd(t, "DIR", "A: WBTEST   COM : NZ       COM\r\nA>")
}

// putFile writes a file to user 0 of the first partition of a hard disk
// image.
func putFile(t *testing.T, path, name string, data []byte) {
	t.Helper()
	var m acb4000.Meta
	f, err := image.Open(path, &m, false)
	require.NoError(t, err)
	fs, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	require.NoError(t, fs.Write(0, name, data))
	require.NoError(t, f.Close())
}
