; copy.asm: COPY dst=src copies files between drives and user areas.
;
;   COPY B:=*.COM          every .COM file of the current drive to B:
;   COPY B3:=A0:*.*        A: user 0 to B: user 3
;   COPY 5:NEW.TXT=OLD.TXT into user 5 of the current drive, renamed
;   COPY =B:X.DAT          (an empty destination: current drive and user)
;
; A file spec is [d][u]:name.typ (drive letter, user number 0-15, either
; may be left out). '?' and '*' in the source select files; in the
; destination name they (or a blank name) keep the source's characters.
; An existing destination file is replaced. Copies go through as much
; memory as the TPA has, a record at a time.

        org     100h
        jp      start

        include "cpmlib.inc"

MAXF    equ     128             ; files one COPY handles

; spec: drive (0 = current, 1-16), user (FFh = current), name 11
SDRV    equ     0
SUSR    equ     1
SNAM    equ     2

start:  ld      sp, stack
        ld      c, 32           ; the user to return to
        ld      e, 0FFh
        call    BDOS
        ld      (user0), a
        ld      hl, DBUF        ; the tail, 0-terminated
        ld      a, (hl)
        inc     hl
        push    hl
        ld      e, a
        ld      d, 0
        add     hl, de
        ld      (hl), 0
        pop     hl
        ld      de, dspec
        call    pspec
        ld      a, (hl)
        cp      '='
        jp      nz, usage
        inc     hl
        ld      de, sspec
        call    pspec
        ld      a, (hl)
        or      a
        jp      nz, usage
        ld      a, (sspec+SNAM)
        cp      ' '
        jp      z, usage
        ; the names to copy
        call    susr
        ld      hl, sfcb
        ld      de, sspec
        call    mkfcb
        xor     a
        ld      (nfiles), a
        ld      de, DBUF
        ld      c, 26
        call    BDOS
        ld      de, sfcb
        ld      c, 17
co1:    call    BDOS
        cp      0FFh
        jr      z, co2
        rrca
        rrca
        rrca
        ld      l, a
        ld      h, 0
        ld      de, DBUF+1
        add     hl, de          ; HL -> the entry's name
        ex      de, hl
        ld      a, (nfiles)
        cp      MAXF
        jr      nc, co2
        ld      l, a
        inc     a
        ld      (nfiles), a
        ld      h, 0
        ld      b, h
        ld      c, l
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, bc
        add     hl, bc
        add     hl, bc          ; HL = n * 11
        ld      bc, names
        add     hl, bc
        ex      de, hl
        ld      b, 11
co1a:   ld      a, (hl)
        and     7Fh
        ld      (de), a
        inc     hl
        inc     de
        djnz    co1a
        ld      c, 18
        jr      co1
co2:    ld      a, (nfiles)
        or      a
        jp      z, nofile
        ld      hl, names
        ld      (nptr), hl
co3:    call    copyone
        ld      hl, (nptr)
        ld      de, 11
        add     hl, de
        ld      (nptr), hl
        ld      hl, nfiles
        dec     (hl)
        jr      nz, co3
        jp      done

; copyone: copies the file whose name is at (nptr).
copyone:
        ld      hl, sfcb        ; source FCB: the name found
        ld      de, sspec
        call    mkfcb
        ld      hl, (nptr)
        ld      de, sfcb+1
        ld      bc, 11
        ldir
        ld      hl, dfcb        ; destination: the spec, '?' and blanks from the source
        ld      de, dspec
        call    mkfcb
        ld      a, (dspec+SNAM)
        cp      ' '
        ld      hl, (nptr)
        ld      de, dfcb+1
        ld      b, 11
        jr      nz, cp1
        ld      c, 11
        ld      b, 0
        ldir
        jr      cp3
cp1:    ld      a, (de)
        cp      '?'
        jr      nz, cp2a
        ld      a, (hl)
        ld      (de), a
cp2a:   inc     hl
        inc     de
        djnz    cp1
cp3:    ld      hl, sfcb        ; print "d:NAME.TYP -> d:NAME.TYP"
        ld      de, sspec
        call    pname
        call    pmsg
        db      " -> $"
        ld      hl, dfcb
        ld      de, dspec
        call    pname
        call    crlf
        ld      a, (sspec+SUSR) ; the same file twice?
        call    usrof
        ld      b, a
        ld      a, (dspec+SUSR)
        call    usrof
        cp      b
        jr      nz, cp4
        ld      a, (sfcb)
        call    drvof
        ld      b, a
        ld      a, (dfcb)
        call    drvof
        cp      b
        jr      nz, cp4
        ld      hl, sfcb+1
        ld      de, dfcb+1
        ld      b, 11
cp3a:   ld      a, (de)
        cp      (hl)
        jr      nz, cp4
        inc     hl
        inc     de
        djnz    cp3a
        call    pmsg
        db      "  SAME FILE, SKIPPED", CR, LF, "$"
        ret
cp4:    call    susr
        ld      de, sfcb
        ld      c, 15
        call    BDOS
        inc     a
        jp      z, nofile
        call    dusr
        ld      de, dfcb
        ld      c, 19
        call    BDOS
        ld      de, dfcb
        ld      c, 22
        call    BDOS
        inc     a
        jp      z, dirful
        ld      hl, (BDOS+1)    ; the buffer: up to the BDOS, less a page
        dec     h
        ld      l, 0
        ld      (bufend), hl
cp5:    call    susr            ; fill the buffer
        ld      hl, buf
cp6:    push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, sfcb
        ld      c, 20
        call    BDOS
        pop     hl
        or      a
        jr      nz, cp7
        ld      de, 128
        add     hl, de
        ld      de, (bufend)
        or      a
        sbc     hl, de
        add     hl, de
        jr      c, cp6
cp7:    ld      (fill), hl
        push    af
        call    dusr            ; and empty it into the destination
        ld      hl, buf
cp8:    ld      de, (fill)
        or      a
        sbc     hl, de
        add     hl, de
        jr      nc, cp9
        push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, dfcb
        ld      c, 21
        call    BDOS
        pop     hl
        or      a
        jp      nz, full
        ld      de, 128
        add     hl, de
        jr      cp8
cp9:    pop     af
        or      a
        jr      z, cp5          ; the buffer was full: more to come
        ld      de, dfcb
        ld      c, 16
        call    BDOS
        inc     a
        jp      z, dirful
        ret

; susr/dusr: the user of the source or destination.
susr:   ld      a, (sspec+SUSR)
        jr      setu
dusr:   ld      a, (dspec+SUSR)
setu:   call    usrof
        ld      e, a
        ld      c, 32
        jp      BDOS

usrof:  cp      0FFh            ; FFh = the user COPY started in
        ret     nz
        ld      a, (user0)
        ret

drvof:  or      a               ; 0 = the current drive
        ret     nz
        push    bc
        ld      c, 25
        call    BDOS
        pop     bc
        inc     a
        ret

; mkfcb: FCB at HL from the spec at DE (drive and name), the rest 0.
mkfcb:  ld      a, (de)
        ld      (hl), a
        inc     hl
        inc     de
        inc     de
        ex      de, hl
        ld      bc, 11
        ldir
        ex      de, hl
        ld      b, 24
mf1:    ld      (hl), 0
        inc     hl
        djnz    mf1
        ret

; pname: "d:NAME.TYP" of the FCB at HL, drive and user from the spec at DE.
pname:  push    hl
        push    de
        ld      a, (hl)
        call    drvof
        add     a, 'A'-1
        call    putc
        pop     de
        inc     de
        ld      a, (de)
        call    usrof
        ld      l, a
        ld      h, 0
        call    pdec
        ld      a, ':'
        call    putc
        pop     hl
        inc     hl
        ld      b, 8
pn1:    ld      a, (hl)
        cp      ' '
        call    nz, putc
        inc     hl
        djnz    pn1
        ld      a, '.'
        call    putc
        ld      b, 3
pn2:    ld      a, (hl)
        cp      ' '
        call    nz, putc
        inc     hl
        djnz    pn2
        ret

; pspec: parses [d][u]:name.typ at HL into the spec at DE; HL ends on the
; character after it.
pspec:  push    de
        ex      de, hl
        ld      (hl), 0         ; current drive
        inc     hl
        ld      (hl), 0FFh      ; current user
        inc     hl
        ld      b, 11
ps0:    ld      (hl), ' '
        inc     hl
        djnz    ps0
        ex      de, hl
ps1:    ld      a, (hl)         ; skip blanks
        cp      ' '
        jr      nz, ps2
        inc     hl
        jr      ps1
ps2:    push    hl              ; a ':' before the end of the word?
ps3:    ld      a, (hl)
        call    delim
        jr      z, ps8
        inc     hl
        cp      ':'
        jr      nz, ps3
        pop     hl
        pop     de
        push    de
        ld      a, (hl)
        sub     'A'
        cp      16
        jr      nc, ps4
        inc     a
        ld      (de), a         ; the drive
        inc     hl
ps4:    ld      a, (hl)
        cp      ':'
        jr      z, ps7
        ld      c, 0            ; the user
ps5:    ld      a, (hl)
        cp      ':'
        jr      z, ps6
        sub     '0'
        cp      10
        jp      nc, usage
        ld      b, a
        ld      a, c
        add     a, a
        add     a, a
        add     a, c
        add     a, a
        add     a, b
        ld      c, a
        inc     hl
        jr      ps5
ps6:    ld      a, c
        cp      16
        jp      nc, usage
        inc     de
        ld      (de), a
ps7:    inc     hl              ; past ':'
        push    hl
ps8:    pop     hl
        pop     de              ; the name
        push    de
        inc     de
        inc     de
        ld      b, 8
        call    field
        ld      a, (hl)
        cp      '.'
        jr      nz, ps9
        inc     hl
ps9:    pop     de
        push    hl
        ld      hl, SNAM+8
        add     hl, de
        ex      de, hl
        pop     hl
        ld      b, 3
        call    field
        ret

; field: up to B characters of a name into DE ('*' fills with '?').
field:  ld      a, (hl)
        call    delim
        ret     z
        cp      '.'
        ret     z
        cp      'a'
        jr      c, fd0
        cp      'z'+1
        jr      nc, fd0
        sub     20h
fd0:    cp      '*'
        jr      nz, fd1
        ld      a, '?'
        dec     hl
fd1:    ld      (de), a
        inc     hl
        inc     de
        djnz    field
fd2:    ld      a, (hl)         ; the rest of a long name
        call    delim
        ret     z
        cp      '.'
        ret     z
        inc     hl
        jr      fd2

delim:  or      a
        ret     z
        cp      ' '
        ret     z
        cp      '='
        ret

usage:  call    pmsg
        db      "USAGE: COPY [d][u]:[name.typ]=[d][u]:name.typ$"
        jr      done
nofile: call    pmsg
        db      "NO FILE$"
        jr      done
dirful: call    pmsg
        db      "DIRECTORY FULL$"
        jr      done
full:   call    pmsg            ; a partial copy is no copy: delete it
        db      "DISK FULL, NOT COPIED$"
        ld      de, dfcb
        ld      c, 16
        call    BDOS
        ld      de, dfcb
        ld      c, 19
        call    BDOS
done:   ld      a, (user0)
        ld      e, a
        ld      c, 32
        call    BDOS
        jp      0

; Data and buffers above the program (not part of the .COM file).
user0   equ     $
nfiles  equ     user0+1
nptr    equ     nfiles+1
bufend  equ     nptr+2
fill    equ     bufend+2
dspec   equ     fill+2
sspec   equ     dspec+13
sfcb    equ     sspec+13
dfcb    equ     sfcb+36
stack   equ     dfcb+36+64
names   equ     stack
buf     equ     names+MAXF*11
        end
