; Bubble sort of a byte array, with an unsigned and a signed compare.
        org     9000h
COUNT   equ     array_end-array

sort:   ld      c,COUNT-1
outer:  ld      hl,array
        ld      b,c
        ld      e,0             ; swapped flag
inner:  ld      a,(hl)
        inc     hl
        cp      (hl)
        jr      c,noswap
        jr      z,noswap
        ld      d,(hl)
        ld      (hl),a
        dec     hl
        ld      (hl),d
        inc     hl
        ld      e,1
noswap: djnz    inner
        ld      a,e
        or      a
        ret     z
        dec     c
        jr      nz,outer
        ret

; signed compare A with B: carry set when A < B
scmp:   push    bc
        xor     80h
        ld      c,a
        ld      a,b
        xor     80h
        ld      b,a
        ld      a,c
        cp      b
        pop     bc
        ret

array:  db      42, 7, 255, 0, 128, 127, 1, 99, 3, 200, 17, 17, -1, -128
array_end:
        end
