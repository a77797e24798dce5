; March-style RAM test over a block, reports the first failing address.
RAMLO   equ     4000h
RAMLEN  equ     2000h
PATS    equ     4

        org     0
        di
        ld      sp,0FFF0h
        ld      ix,patterns
        ld      b,PATS
nextpat:
        push    bc
        ld      a,(ix+0)
        ld      c,a
        ; fill
        ld      hl,RAMLO
        ld      de,RAMLEN
fill:   ld      (hl),c
        inc     hl
        dec     de
        ld      a,d
        or      e
        jr      nz,fill
        ; verify and write complement
        ld      hl,RAMLO
        ld      de,RAMLEN
verify: ld      a,(hl)
        cp      c
        jp      nz,fail
        cpl
        ld      (hl),a
        inc     hl
        dec     de
        ld      a,d
        or      e
        jr      nz,verify
        ; verify complement downwards
        ld      hl,RAMLO+RAMLEN-1
        ld      de,RAMLEN
        ld      a,c
        cpl
        ld      c,a
down:   ld      a,(hl)
        cp      c
        jp      nz,fail
        dec     hl
        dec     de
        ld      a,d
        or      e
        jr      nz,down
        pop     bc
        inc     ix
        djnz    nextpat
        ld      a,'P'
        out     (80h),a
        halt
fail:   ld      (failat),hl
        ld      a,'F'
        out     (80h),a
        halt
patterns:
        db      00h, 0FFh, 55h, 0AAh
failat: dw      0
        end
