; CRC-16/CCITT bitwise and table-driven, table built at assembly time by a
; REPT loop with DEFL arithmetic.
        org     8000h
; HL = data, BC = length; returns DE = crc
crc_bits:
        ld      de,0FFFFh
cb_byte:
        ld      a,b
        or      c
        ret     z
        ld      a,(hl)
        xor     d
        ld      d,a
        push    bc
        ld      b,8
cb_bit: sla     e
        rl      d
        jr      nc,cb_nox
        ld      a,d
        xor     10h
        ld      d,a
        ld      a,e
        xor     21h
        ld      e,a
cb_nox: djnz    cb_bit
        pop     bc
        inc     hl
        dec     bc
        jr      cb_byte

crc_table:
        ld      de,0FFFFh
ct_loop:
        ld      a,b
        or      c
        ret     z
        push    hl
        ld      a,(hl)
        xor     d
        ld      l,a
        ld      h,0
        add     hl,hl
        push    de
        ld      de,table
        add     hl,de
        pop     de
        ld      a,(hl)
        xor     e
        ld      d,a
        inc     hl
        ld      e,(hl)
        ; the table stores the high byte first
        pop     hl
        inc     hl
        dec     bc
        jr      ct_loop

        ; 16 entries for the nibble variant, computed by the assembler
n       defl    0
        rept    16
v       defl    n SHL 12
        rept    4
v       defl    ((v SHL 1) XOR ((v AND 8000h) NE 0 AND 1021h)) AND 0FFFFh
        endm
        db      HIGH v, LOW v
n       defl    n+1
        endm
table:  ds      512, 0
        end
