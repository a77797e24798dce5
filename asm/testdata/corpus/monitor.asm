; Tiny monitor: hex dump and memory examine over a polled DART channel.
DARTD   equ     80h
DARTC   equ     81h
RXRDY   equ     0
TXRDY   equ     2

        org     0
reset:  di
        ld      sp,0
        im      1
        call    initdart
        ld      hl,hello
        call    puts
main:   ld      a,'>'
        call    putc
        call    getc
        cp      'D'
        jr      z,dump
        cp      'E'
        jp      z,examine
        jr      main

dump:   call    gethex4
        ld      b,8
dline:  push    bc
        call    crlf
        ld      a,h
        call    puthex2
        ld      a,l
        call    puthex2
        ld      a,':'
        call    putc
        ld      b,16
dbyte:  ld      a,' '
        call    putc
        ld      a,(hl)
        call    puthex2
        inc     hl
        djnz    dbyte
        pop     bc
        djnz    dline
        jr      main

examine:
        call    gethex4
        ld      a,(hl)
        call    puthex2
        jp      main

initdart:
        ld      hl,dartinit
        ld      b,dartlen
        ld      c,DARTC
        otir
        ret
dartinit:
        db      18h, 4, 44h, 3, 0C1h, 5, 0EAh, 1, 0
dartlen equ     $-dartinit

putc:   push    af
pc_w:   in      a,(DARTC)
        bit     TXRDY,a
        jr      z,pc_w
        pop     af
        out     (DARTD),a
        ret
getc:   in      a,(DARTC)
        bit     RXRDY,a
        jr      z,getc
        in      a,(DARTD)
        and     7Fh
        cp      'a'
        ret     c
        sub     20h
        ret
puts:   ld      a,(hl)
        or      a
        ret     z
        call    putc
        inc     hl
        jr      puts
crlf:   ld      a,13
        call    putc
        ld      a,10
        jp      putc
puthex2:
        push    af
        rrca
        rrca
        rrca
        rrca
        call    nib
        pop     af
nib:    and     0Fh
        add     a,90h
        daa
        adc     a,40h
        daa
        jp      putc
gethex4:
        ld      hl,0
        ld      b,4
gh:     call    getc
        sub     '0'
        cp      10
        jr      c,gh_d
        sub     7
gh_d:   add     hl,hl
        add     hl,hl
        add     hl,hl
        add     hl,hl
        or      l
        ld      l,a
        djnz    gh
        ret
hello:  db      "LB+ monitor", 13, 10, 0
        end
