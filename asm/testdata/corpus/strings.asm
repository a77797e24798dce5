; String routines: length, compare, copy, upper-case, search with CPIR.
        org     6000h
strlen: ld      bc,0
        xor     a
        cpir
        ld      a,c
        cpl
        ld      l,a
        ld      a,b
        cpl
        ld      h,a
        dec     hl
        ret
strcmp: ld      a,(de)
        cp      (hl)
        ret     nz
        or      a
        ret     z
        inc     hl
        inc     de
        jr      strcmp
strcpy: ld      a,(hl)
        ld      (de),a
        inc     hl
        inc     de
        or      a
        jr      nz,strcpy
        ret
upper:  ld      a,(hl)
        or      a
        ret     z
        cp      'a'
        jr      c,u_next
        cp      'z'+1
        jr      nc,u_next
        res     5,(hl)
u_next: inc     hl
        jr      upper
find:   ; find byte A in BC bytes at HL; Z set when found, HL after it
        cpir
        ret
revcpy: ; copy BC bytes backwards from HL to DE
        add     hl,bc
        dec     hl
        ex      de,hl
        add     hl,bc
        dec     hl
        ex      de,hl
        lddr
        ret
msg1:   db      "Hello", 0
msg2:   db      'World''s end', 0
esc:    db      "tab\there\r\n\x41\101", 0
hexdig: db      "0123456789ABCDEF"
lens:   db      msg2-msg1, esc-msg2, hexdig-esc
        dw      msg1, msg2, esc, $
        ds      4, 0E5h
        end
