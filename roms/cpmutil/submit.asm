; submit.asm: SUBMIT file [arg ...] turns file.SUB into A:$$$.SUB for the
; CCP: one record per command line (length byte, then the text), the last
; line first, with $1-$9 replaced by the arguments and $$ by $. Then it
; warm boots, and the CCP runs the lines one by one (docs/CPM.md).
; Limits: 8 KB of .SUB text, 64 lines of at most 125 characters.

        org     100h
        jp      start

        include "cpmlib.inc"

MAXLN   equ     64

start:  ld      sp, stack
        ld      hl, DBUF        ; the tail, 0-terminated
        ld      a, (hl)
        inc     hl
        ld      de, tail
        or      a
        jr      z, st1
        ld      c, a
        ld      b, 0
        ldir
st1:    xor     a
        ld      (de), a
        ld      hl, tail        ; skip the file name, then note the args
        call    skipbl
        call    skiptok
        ld      de, args
        ld      b, 9
st2:    call    skipbl
        or      a
        jr      z, st3
        ex      de, hl
        ld      (hl), e
        inc     hl
        ld      (hl), d
        inc     hl
        ex      de, hl
        call    skiptok
        ld      a, (hl)
        ld      (hl), 0
        or      a
        jr      z, st3
        inc     hl
        djnz    st2
st3:    ld      a, (FCB+1)
        cp      ' '
        jp      z, usage
        ld      a, (FCB+9)
        cp      ' '
        jr      nz, st4
        ld      hl, subtyp
        ld      de, FCB+9
        ld      bc, 3
        ldir
st4:    xor     a
        ld      (FCB+12), a
        ld      (FCB+32), a
        ld      de, FCB
        ld      c, 15
        call    BDOS
        inc     a
        jp      z, nofile
        ld      hl, text        ; read the whole file
rd1:    push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, FCB
        ld      c, 20
        call    BDOS
        pop     hl
        or      a
        jr      nz, rd2
        ld      de, 128
        add     hl, de
        ld      de, textend
        or      a
        sbc     hl, de
        add     hl, de
        jr      c, rd1
        jp      toobig
rd2:    ld      (hl), 1Ah       ; an end mark after the last record
        ld      hl, text        ; build the records
        ld      de, recs
        xor     a
        ld      (nrec), a
ln0:    ld      a, (hl)
        cp      1Ah
        jr      z, lnend
        push    de              ; a new record: DE -> its length byte
        inc     de
        ld      c, 0            ; C = length
ln1:    ld      a, (hl)
        cp      1Ah
        jr      z, ln3
        inc     hl
        cp      CR
        jr      z, ln2
        cp      LF
        jr      z, ln1
        cp      '$'
        jr      nz, ln1s
        ld      a, (hl)
        inc     hl
        cp      '$'
        jr      z, ln1s
        sub     '1'
        cp      9
        jp      nc, badarg
        push    hl
        add     a, a
        ld      l, a
        ld      h, 0
        push    de
        ld      de, args
        add     hl, de
        pop     de
        ld      a, (hl)
        inc     hl
        ld      h, (hl)
        ld      l, a
ln1a:   ld      a, h            ; no such argument: nothing
        or      l
        jr      z, ln1b
        ld      a, (hl)
        or      a
        jr      z, ln1b
        call    store
        inc     hl
        jr      ln1a
ln1b:   pop     hl
        jr      ln1
ln1s:   call    store
        jr      ln1
ln2:    ld      a, (hl)         ; CR LF
        cp      LF
        jr      nz, ln3
        inc     hl
ln3:    ex      (sp), hl        ; HL -> length byte
        ld      (hl), c
        ld      a, c            ; skip empty lines
        or      a
        jr      nz, ln4
        ex      de, hl          ; DE back to the length byte
        pop     hl
        jr      ln0
ln4:    ld      de, 128
        add     hl, de
        ex      de, hl          ; DE -> the next record
        pop     hl
        ld      a, (nrec)
        inc     a
        ld      (nrec), a
        cp      MAXLN
        jp      nc, toobig
        jr      ln0
lnend:  ld      a, (nrec)
        or      a
        jp      z, empty
        ld      de, subfcb      ; write them, the last line first
        ld      c, 19
        call    BDOS
        ld      de, subfcb
        ld      c, 22
        call    BDOS
        inc     a
        jp      z, dirfull
        ld      a, (nrec)
        ld      b, a
wr1:    push    bc
        dec     b
        ld      l, 0
        ld      h, b
        srl     h
        rr      l               ; HL = B * 128
        ld      de, recs
        add     hl, de
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, subfcb
        ld      c, 21
        call    BDOS
        pop     bc
        or      a
        jp      nz, dirfull
        djnz    wr1
        ld      de, subfcb
        ld      c, 16
        call    BDOS
        jp      0

; store: A into the record at DE (length C), unless the line is full.
store:  ld      (de), a
        inc     de
        inc     c
        ld      a, c
        cp      126
        ret     c
        jp      toolong

skipbl: ld      a, (hl)
        cp      ' '
        ret     nz
        inc     hl
        jr      skipbl
skiptok: ld     a, (hl)
        or      a
        ret     z
        cp      ' '
        ret     z
        inc     hl
        jr      skiptok

usage:  call    pmsg
        db      "USAGE: SUBMIT file [args]$"
        jp      0
nofile: call    pmsg
        db      "NO .SUB FILE$"
        jp      0
toobig: call    pmsg
        db      "SUB FILE TOO LARGE$"
        jp      0
toolong: call   pmsg
        db      "LINE TOO LONG$"
        jp      0
badarg: call    pmsg
        db      "BAD PARAMETER$"
        jp      0
empty:  call    pmsg
        db      "EMPTY SUB FILE$"
        jp      0
dirfull: call   pmsg
        db      "DIRECTORY FULL$"
        jp      0

subtyp: db      "SUB"
subfcb: db      1, "$$$     SUB"
        ds      24, 0
nrec:   db      0
args:   dw      0, 0, 0, 0, 0, 0, 0, 0, 0
; Buffers above the program (not part of the .COM file).
tail    equ     $
stack   equ     tail+130+64
text    equ     stack
textend equ     text+8192
recs    equ     textend+130     ; (room for the end mark and a record more)
        end
