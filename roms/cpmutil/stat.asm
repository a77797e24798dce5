; stat.asm: STAT [d:] prints a drive's size and free space; STAT [d:]afn
; lists the matching files of the current user with their records and
; kilobytes (from BDOS function 35) and the total; STAT [d:]DSK: prints
; the drive's parameters from its DPB.

        org     100h
        jp      start

        include "cpmlib.inc"

MAXF    equ     128

start:  ld      sp, stack
        ld      c, 25
        call    BDOS
        ld      (cur), a
        ld      a, (FCB)        ; the drive asked for
        or      a
        jr      z, st1
        dec     a
        ld      e, a
        ld      c, 14
        call    BDOS
st1:    ld      c, 25
        call    BDOS
        ld      (drv), a
        call    isdsk
        jp      z, dsk
        ld      a, (FCB+1)
        cp      ' '
        jp      nz, files
        ; drive: "A: R/W, 190K of 390K free"
        ld      a, (drv)
        add     a, 'A'
        call    putc
        call    pmsg
        db      ": $"
        ld      c, 29
        call    BDOS
        ld      a, (drv)
        inc     a
        ld      b, a
st2:    srl     h
        rr      l
        djnz    st2             ; carry = this drive's R/O bit
        ld      hl, rw
        jr      nc, st3
        ld      hl, ro
st3:    call    pstr
        ld      c, 31
        call    BDOS
        push    hl
        pop     ix              ; IX -> DPB
        ld      l, (ix+5)
        ld      h, (ix+6)       ; DSM
        ld      (dsm), hl
        ld      c, 27
        call    BDOS            ; HL -> allocation vector
        ld      de, 0           ; DE = free blocks
        ld      bc, 0           ; BC = block number
st4:    ld      a, (hl)
        push    hl
        ld      l, 8
st5:    rla
        jr      c, st6
        inc     de
st6:    inc     bc
        push    af
        ld      a, (dsm)        ; past DSM?
        sub     c
        ld      a, (dsm+1)
        sbc     a, b
        jr      c, st7
        pop     af
        dec     l
        jr      nz, st5
        pop     hl
        inc     hl
        jr      st4
st7:    pop     af
        pop     hl
        push    de              ; free blocks
        ld      hl, (dsm)       ; total K = (DSM+1) * K per block
        inc     hl
        call    kblocks
        ex      (sp), hl
        call    kblocks
        call    pdec
        call    pmsg
        db      "K free of $"
        pop     hl
        call    pdec
        call    pmsg
        db      "K", CR, LF, "$"
        jp      done

; kblocks: HL = HL blocks in K (block size from the DPB at IX: BLM+1 records).
kblocks:
        ld      a, (ix+3)       ; BLM
        inc     a
        rrca
        rrca
        rrca                    ; K per block (1-16)
        and     1Fh
        ld      b, a
        ex      de, hl
        ld      hl, 0
kb1:    add     hl, de
        djnz    kb1
        ret

; files: "NAME    .TYP  records  K" for each match, then the total.
files:  ld      hl, FCB+12
        ld      b, 24
fi0:    ld      (hl), 0
        inc     hl
        djnz    fi0
        xor     a
        ld      (nf), a
        ld      de, DBUF
        ld      c, 26
        call    BDOS
        ld      de, FCB
        ld      c, 17
fi1:    call    BDOS
        cp      0FFh
        jr      z, fi2
        rrca
        rrca
        rrca
        ld      l, a
        ld      h, 0
        ld      de, DBUF+1
        add     hl, de
        ld      a, (nf)
        cp      MAXF
        jr      nc, fi2
        inc     a
        ld      (nf), a
        ld      de, (nptr)
        ld      bc, 11
        ldir
        ld      (nptr), de
        ld      c, 18
        jr      fi1
fi2:    ld      a, (nf)
        or      a
        jp      z, nofile
        call    pmsg
        db      " Recs    K  Name", CR, LF, "$"
        ld      hl, names
        ld      (nptr), hl
fi3:    ld      hl, (nptr)      ; FCB := the name, the size from function 35
        ld      de, FCB+1
        ld      bc, 11
        ldir
        ld      (nptr), hl
        ld      hl, FCB+1
        ld      b, 11
fi3a:   res     7, (hl)
        inc     hl
        djnz    fi3a
        ld      de, FCB
        ld      c, 35
        call    BDOS
        ld      hl, (FCB+33)
        push    hl
        call    pad5
        call    pdec
        pop     hl
        push    hl
        ld      de, (total)
        add     hl, de
        ld      (total), hl
        pop     hl
        ld      de, 7           ; K = records / 8, rounded up
        add     hl, de
        call    shr3
        call    pad5
        call    pdec
        call    pmsg
        db      "  $"
        ld      a, (drv)
        add     a, 'A'
        call    putc
        ld      a, ':'
        call    putc
        ld      hl, FCB+1
        ld      b, 8
fi4:    ld      a, (hl)
        call    putc
        inc     hl
        djnz    fi4
        ld      a, '.'
        call    putc
        ld      b, 3
fi5:    ld      a, (hl)
        call    putc
        inc     hl
        djnz    fi5
        call    crlf
        ld      hl, nf
        dec     (hl)
        jr      nz, fi3
        call    pmsg
        db      "Total: $"
        ld      hl, (total)
        call    pdec
        call    pmsg
        db      " records", CR, LF, "$"
        jp      done

; isdsk: Z when the command tail holds "DSK:".
isdsk:  ld      hl, DBUF
        ld      b, (hl)
is1:    ld      a, b
        cp      4
        jr      c, is9
        inc     hl
        dec     b
        push    hl
        ld      de, dskw
        ld      c, 4
is2:    ld      a, (de)
        cp      (hl)
        jr      nz, is3
        inc     de
        inc     hl
        dec     c
        jr      nz, is2
is3:    pop     hl
        jr      nz, is1
        ret
is9:    or      1               ; NZ: not found
        ret
dskw:   db      "DSK:"

; dsk: the drive's parameters, one a line, from its DPB.
dsk:    ld      a, (drv)
        add     a, 'A'
        call    putc
        call    pmsg
        db      ": drive parameters", CR, LF, "$"
        ld      c, 31
        call    BDOS
        push    hl
        pop     ix
        ld      l, (ix+5)       ; (DSM+1) blocks in K
        ld      h, (ix+6)
        inc     hl
        call    kblocks
        ld      de, mk
        call    dline
        ld      l, (ix+7)       ; DRM+1 directory entries
        ld      h, (ix+8)
        inc     hl
        ld      de, mdir
        call    dline
        ld      l, (ix+11)      ; CKS records of 4 entries checked
        ld      h, (ix+12)
        add     hl, hl
        add     hl, hl
        ld      de, mcks
        call    dline
        ld      a, (ix+4)       ; (EXM+1) x 128 records an extent
        inc     a
        ld      h, a
        ld      l, 0
        srl     h
        rr      l
        ld      de, mext
        call    dline
        ld      l, (ix+3)       ; BLM+1 records a block
        ld      h, 0
        inc     hl
        ld      de, mblk
        call    dline
        ld      l, (ix+0)       ; SPT
        ld      h, (ix+1)
        ld      de, mspt
        call    dline
        ld      l, (ix+13)      ; OFF
        ld      h, (ix+14)
        ld      de, moff
        call    dline
        jp      done

; dline: HL right-aligned in 5 columns, then the text at DE.
dline:  push    de
        call    pad5
        call    pdec
        pop     hl
        jp      pstr

mk:     db      "  kilobytes of data", CR, LF, "$"
mdir:   db      "  directory entries", CR, LF, "$"
mcks:   db      "  directory entries checked for a disk change", CR, LF, "$"
mext:   db      "  records an extent", CR, LF, "$"
mblk:   db      "  records a block", CR, LF, "$"
mspt:   db      "  records a track", CR, LF, "$"
moff:   db      "  reserved tracks", CR, LF, "$"

shr3:   ld      b, 3
sh1:    srl     h
        rr      l
        djnz    sh1
        ret

; pad5: blanks so that HL printed by pdec ends in column 5.
pad5:   push    hl
        ld      de, -10
        ld      b, 4
pa1:    push    hl
        add     hl, de
        pop     hl
        jr      c, pa2
        ld      a, ' '
        call    putc
pa2:    push    hl              ; next power of ten
        ld      h, d
        ld      l, e
        add     hl, hl
        add     hl, hl
        add     hl, de
        add     hl, hl          ; DE * 10
        ex      de, hl
        pop     hl
        djnz    pa1
        pop     hl
        ret

nofile: call    pmsg
        db      "NO FILE$"
done:   ld      a, (cur)
        ld      e, a
        ld      c, 14
        call    BDOS
        jp      0

rw:     db      "R/W, $"
ro:     db      "R/O, $"
cur:    db      0
drv:    db      0
nf:     db      0
dsm:    dw      0
total:  dw      0
nptr:   dw      names
stack   equ     $+64
names   equ     stack
        end
