; CP/M "hello" with a BDOS call wrapper and a console line reader.
BDOS    equ     0005h
CONOUT  equ     2
PRINTS  equ     9
READLN  equ     10
CR      equ     13
LF      equ     10

        org     100h
start:  ld      (oldsp),sp
        ld      sp,stack
        ld      de,banner
        call    print
        ld      de,buf
        ld      c,READLN
        call    BDOS
        ld      a,(buf+1)       ; characters typed
        or      a
        jr      z,done
        ld      b,a
        ld      hl,buf+2
echo:   ld      e,(hl)
        push    hl
        push    bc
        ld      c,CONOUT
        call    BDOS
        pop     bc
        pop     hl
        inc     hl
        djnz    echo
done:   ld      de,crlf
        call    print
        ld      sp,(oldsp)
        ret

print:  ld      c,PRINTS
        jp      BDOS

banner: db      'Little Board/PLUS says hello', CR, LF
        db      "Type a line: $"
crlf:   db      CR, LF, '$'
buf:    db      80, 0
        ds      80
oldsp:  dw      0
        ds      64
stack:
        end     start
