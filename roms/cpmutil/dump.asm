; dump.asm: DUMP file prints the file in hex and ASCII, 16 bytes a line
; with the offset (four hex digits; it wraps after 64 KB). A key stops it.

        org     100h
        jp      start

        include "cpmlib.inc"

start:  ld      sp, stack
        ld      a, (FCB+1)
        cp      ' '
        jp      z, usage
        xor     a
        ld      (FCB+12), a
        ld      (FCB+32), a
        ld      de, FCB
        ld      c, 15
        call    BDOS
        inc     a
        jp      z, nofile
        ld      hl, 0
        ld      (offs), hl
rec:    ld      de, DBUF
        ld      c, 26
        call    BDOS
        ld      de, FCB
        ld      c, 20
        call    BDOS
        or      a
        jp      nz, 0
        ld      hl, DBUF
        ld      b, 8            ; lines a record
line:   push    bc
        push    hl
        ld      hl, (offs)
        call    phexw
        ld      de, 16
        add     hl, de
        ld      (offs), hl
        ld      a, ':'
        call    putc
        pop     hl
        push    hl
        ld      b, 16
hex:    ld      a, ' '
        call    putc
        ld      a, (hl)
        call    phex
        inc     hl
        djnz    hex
        ld      a, ' '
        call    putc
        call    putc
        pop     hl
        ld      b, 16
asc:    ld      a, (hl)
        inc     hl
        cp      ' '
        jr      c, dot
        cp      7Fh
        jr      c, asc1
dot:    ld      a, '.'
asc1:   call    putc
        djnz    asc
        call    crlf
        push    hl
        ld      c, 11           ; a key stops the dump
        call    BDOS
        pop     hl
        pop     bc
        or      a
        jp      nz, 0
        djnz    line
        jr      rec

usage:  call    pmsg
        db      "USAGE: DUMP file$"
        jp      0
nofile: call    pmsg
        db      "NO FILE$"
        jp      0

offs:   dw      0
        ds      64
stack   equ     $
        end
