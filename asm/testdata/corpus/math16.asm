; 16-bit multiply, divide and decimal conversion.
        org     4000h
; HL = BC * DE
mul16:  ld      hl,0
        ld      a,16
m_loop: add     hl,hl
        ex      de,hl
        add     hl,hl
        ex      de,hl
        jr      nc,m_skip
        add     hl,bc
m_skip: dec     a
        jr      nz,m_loop
        ret

; HL = HL / DE, DE = remainder
div16:  ld      a,h
        ld      c,l
        ld      hl,0
        ld      b,16
d_loop: sla     c
        rla
        adc     hl,hl
        sbc     hl,de
        jr      nc,d_ok
        add     hl,de
        dec     c
d_ok:   inc     c
        djnz    d_loop
        ex      de,hl
        ld      h,a
        ld      l,c
        ret

; write HL as 5 decimal digits at (IX)
utoa:   ld      iy,powers
        ld      b,5
u_dig:  ld      e,(iy+0)
        ld      d,(iy+1)
        ld      a,'0'-1
u_sub:  inc     a
        or      a
        sbc     hl,de
        jr      nc,u_sub
        add     hl,de
        ld      (ix+0),a
        inc     ix
        inc     iy
        inc     iy
        djnz    u_dig
        ret
powers: dw      10000, 1000, 100, 10, 1

; signed 8x8 via shifts, uses undocumented-free SRA/RR
neg16:  xor     a
        sub     l
        ld      l,a
        sbc     a,a
        sub     h
        ld      h,a
        ret
sqr_t:  ; table of squares 0..15
n       defl    0
        rept    16
        dw      n*n
n       defl    n+1
        endm
        end
