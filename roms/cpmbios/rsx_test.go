package cpmbios_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
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
