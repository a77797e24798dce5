; wbtest.asm: WBTEST fills the CCP (the 0800h bytes below the BDOS, found
; through 0006h) with HALT and warm boots. The A> prompt comes back only if
; warm boot reloads the CCP from the system tracks (docs/CPM.md).

        org     100h
        jp      start

        include "cpmlib.inc"

start:  ld      sp, stack
        ld      hl, (BDOS+1)    ; BDOS+6
        ld      de, -806h       ; CCP = BDOS - 0800h
        add     hl, de
        push    hl
        call    pmsg
        db      "WBTEST: CCP at $"
        call    phexw
        call    pmsg
        db      " overwritten", CR, LF, "$"
        pop     hl
        ld      bc, 800h
wb1:    ld      (hl), 76h       ; HALT
        inc     hl
        dec     bc
        ld      a, b
        or      c
        jr      nz, wb1
        jp      0

        ds      32
stack   equ     $
        end
