package cpmbios_test

import (
	"bytes"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// WBTEST fills the CCP in memory with HALT and jumps to 0: on the board,
// A> comes back only because the BIOS's warm boot reads the CCP again
// from the hard disk's system tracks. When those tracks no longer hold
// the CCP (overwritten after the cold boot read them, by a program that
// writes HALTs there through the BIOS: a change from outside the machine
// would stop it, devices/image), the same warm boot finds HALTs and the
// prompt never returns.
func TestWarmBootReloadsCCPOnTheBoard(t *testing.T) {
	ccp, err := cpm.CCP()
	require.NoError(t, err)
	wbtest, err := cpmutil.Program("WBTEST")
	require.NoError(t, err)
	for _, spoil := range []bool{false, true} {
		name := "system tracks intact"
		if spoil {
			name = "system tracks spoilt"
		}
		t.Run(name, func(t *testing.T) {
			path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
			putFile(t, path, "WBTEST.COM", wbtest)
			putFile(t, path, "SPOIL.COM", spoilCCP(t))
			r := bootDisk(t, path)
			require.NoError(t, r.ty.WaitFor("A>"))
			if spoil {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				at := bytes.Index(data, ccp)
				require.Equal(t, cpmbios.SysBlock*cpmbios.BlockSize, at, "the CCP on the system tracks")
				r.cmd(t, "SPOIL", "SPOILT\r\n")
				require.NoError(t, r.ty.WaitFor("A>"))
				data, err = os.ReadFile(path)
				require.NoError(t, err)
				require.Equal(t, bytes.Repeat([]byte{0x76}, len(ccp)), data[at:at+len(ccp)], "the CCP's records hold HALTs")
			}
			r.cmd(t, "WBTEST", "WBTEST: CCP at D400 overwritten\r\n")
			err := r.ty.WaitFor("A>")
			if spoil {
				assert.Error(t, err, "no prompt without the CCP on disk")
				return
			}
			require.NoError(t, err)
			r.cmd(t, "DIR", "A: WBTEST   COM : SPOIL    COM\r\nA>")
		})
	}
}

// spoil writes HALTs over the CCP's 16 records on the system tracks of A:
// (records 40-55 of CP/M track 0: block 10, docs/CPM.md "Hard disk")
// through the BIOS's SELDSK, SETTRK, SETSEC, SETDMA and WRITE (type 1:
// at once), then says SPOILT and returns to the CCP still in memory.
const spoil = `
        org 100h
        ld hl,(1)               ; the BIOS's warm boot entry
        ld de,-3
        add hl,de
        ld (base),hl
        ld hl,buf               ; 128 HALTs
        ld b,128
fill:   ld (hl),76h
        inc hl
        djnz fill
        ld c,0                  ; SELDSK A: (E, the log-in flag, goes to the
        ld a,1Bh                ; offset in bios: A: is logged in already)
        call bios
        ld bc,0
        ld a,1Eh
        call bios
        ld bc,buf
        ld a,24h
        call bios
        ld c,40
rec:    push bc
        ld b,0
        ld a,21h
        call bios
        ld c,1
        ld a,2Ah
        call bios
        pop bc
        inc c
        ld a,c
        cp 56
        jr nz,rec
        ld c,9
        ld de,msg
        call 5
        ret
bios:   ld hl,(base)            ; call BIOS+A
        ld e,a
        ld d,0
        add hl,de
        jp (hl)
msg:    db "SPOILT",13,10,"$"
base:   dw 0
buf:    ds 128
`

func spoilCCP(t *testing.T) []byte {
	t.Helper()
	r, err := asm.Assemble(fstest.MapFS{"s.asm": {Data: []byte(spoil)}}, "s.asm", asm.Options{})
	require.NoError(t, err)
	return r.Bytes
}
