; copy.asm: COPY dst=src copies files between drives and user areas.
;
;   COPY B:=*.COM          every .COM file of the current drive to B:
;   COPY B3:=A0:*.*        A: user 0 to B: user 3
;   COPY 5:NEW.TXT=OLD.TXT into user 5 of the current drive, renamed
;   COPY =B:X.DAT          (an empty destination: current drive and user)
;   COPY NOTES.TXT=CON:    typed lines into a file, until ^Z
;   COPY LST:=NOTES.TXT    a file to the printer (CON: and PUN: too)
;
; Devices, as PIP names them, stand for a file on either side: CON: (read
; with echo, each CR stored as CR LF; written), RDR: (read), LST: and PUN:
; (written). Text goes to a device up to the file's ^Z; what a device
; gives ends at its ^Z, and the file gets its ^Z and is padded with them.
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
        push    hl
        call    devices         ; CON:, RDR:, LST:, PUN: on either side
        pop     hl
        ld      a, (srcfn)
        or      a
        jp      nz, fromdev
        ld      de, dspec
        ld      a, (dstfn)
        or      a
        jr      z, st1
        ld      hl, (srcat)     ; to a device: only the source to parse
        jr      st2
st1:    call    pspec
        ld      a, (hl)
        cp      '='
        jp      nz, usage
        inc     hl
st2:    ld      de, sspec
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
co3:    ld      a, (dstfn)
        or      a
        jr      nz, co4
        call    copyone
        jr      co5
co4:    call    todev
co5:    ld      hl, (nptr)
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
        call    mkdst
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
        jp      clsdst

; devices: finds a device name as the destination (before '=') or as
; the whole source (after it) in the 0-terminated tail at HL and sets
; dstfn and srcfn to its BDOS output or input function (0: a file);
; srcat is where the source begins. A device that cannot be written to
; (or read from) on its side is a usage error.
devices:
        call    skipbl
        push    hl
dv1:    ld      a, (hl)         ; the source begins after '='
        or      a
        jp      z, usage
        inc     hl
        cp      '='
        jr      nz, dv1
        ld      (srcat), hl
        pop     hl
        call    devname
        jr      nz, dv2
        call    skipbl
        ld      a, (hl)
        cp      '='
        jp      nz, usage
        ld      a, (ix+5)       ; output function
        or      a
        jp      z, usage
        ld      (dstfn), a
dv2:    ld      hl, (srcat)
        call    skipbl
        call    devname
        ret     nz
        call    skipbl
        ld      a, (hl)
        or      a
        jp      nz, usage
        ld      a, (ix+4)       ; input function
        or      a
        jp      z, usage
        ld      (srcfn), a
        ret

; devname: Z when HL starts a device name ("CON:"...); IX -> its entry,
; HL past the name.
devname:
        ld      ix, devtab
dn1:    ld      a, (ix+0)
        or      a
        jr      z, dn3
        push    hl
        ld      b, 4
        push    ix
        pop     de
dn2:    ld      a, (de)
        cp      (hl)
        jr      nz, dn4
        inc     de
        inc     hl
        djnz    dn2
        pop     de              ; found: HL stays past the name
        xor     a
        ret
dn4:    pop     hl
        ld      de, 6
        add     ix, de
        jr      dn1
dn3:    or      1               ; NZ: no device
        ret

; name, input function, output function (0: none)
devtab: db      "CON:", 1, 2
        db      "RDR:", 3, 0
        db      "LST:", 0, 5
        db      "PUN:", 0, 4
        db      0

skipbl: ld      a, (hl)
        cp      ' '
        ret     nz
        inc     hl
        jr      skipbl

; outdev: A to the destination device.
outdev: push    hl
        ld      e, a
        ld      a, (dstfn)
        ld      c, a
        call    BDOS
        pop     hl
        ret

; indev: the next character from the source device into A; from CON: a
; CR is echoed with the LF that follows it in the file (lf set).
indev:  ld      a, (lfnext)
        or      a
        jr      z, id1
        xor     a
        ld      (lfnext), a
        ld      a, LF
        ret
id1:    ld      a, (srcfn)
        ld      c, a
        call    BDOS
        cp      CR
        ret     nz
        ld      b, a
        ld      a, (srcfn)
        cp      1
        ld      a, b
        ret     nz
        ld      (lfnext), a     ; nonzero: an LF is owed
        push    af
        ld      e, LF
        ld      c, 2
        call    BDOS
        pop     af
        ret

; todev: the file whose name is at (nptr) to the destination device, up
; to its ^Z.
todev:  ld      hl, sfcb
        ld      de, sspec
        call    mkfcb
        ld      hl, (nptr)
        ld      de, sfcb+1
        ld      bc, 11
        ldir
        call    susr
        ld      de, sfcb
        ld      c, 15
        call    BDOS
        inc     a
        jp      z, nofile
        ld      de, DBUF
        ld      c, 26
        call    BDOS
td1:    ld      de, sfcb
        ld      c, 20
        call    BDOS
        or      a
        ret     nz              ; end of file
        ld      hl, DBUF
        ld      b, 128
td2:    ld      a, (hl)
        cp      1Ah
        ret     z
        push    bc
        call    outdev
        pop     bc
        inc     hl
        djnz    td2
        jr      td1

; fromdev: the source device into a file (the destination spec), or into
; the destination device, up to the source's ^Z.
fromdev:
        ld      a, (dstfn)
        or      a
        jr      z, fv1
dd1:    call    indev           ; device to device
        cp      1Ah
        jp      z, done
        call    outdev
        jr      dd1
fv1:    ld      hl, DBUF+1
        ld      de, dspec
        call    pspec
        call    skipbl
        ld      a, (hl)
        cp      '='
        jp      nz, usage
        ld      hl, dspec+SNAM  ; a name, and no wildcard
        ld      a, (hl)
        cp      ' '
        jp      z, usage
        ld      b, 11
fv2:    ld      a, (hl)
        cp      '?'
        jp      z, usage
        inc     hl
        djnz    fv2
        ld      hl, dfcb
        ld      de, dspec
        call    mkfcb
        call    mkdst
        ld      de, buf
        ld      c, 26
        call    BDOS
        ld      hl, buf
fv3:    push    hl
        call    indev
        pop     hl
        ld      (hl), a
        inc     hl
        cp      1Ah
        jr      z, fv5
        ld      a, l
        cp      low (buf+128)
        jr      nz, fv3
        call    fdrec
        ld      hl, buf
        jr      fv3
fv5:    ld      a, l            ; pad the last record with ^Z
        cp      low (buf+128)
        jr      z, fv6
        ld      (hl), 1Ah
        inc     hl
        jr      fv5
fv6:    call    fdrec
        call    clsdst
        jp      done

; mkdst: the destination file anew (deleted, then made) in its user
; area. clsdst: the destination closed. A full directory ends COPY at
; once (done warm boots, so the return address left behind is no matter).
mkdst:  call    dusr
        ld      de, dfcb
        ld      c, 19
        call    BDOS
        ld      de, dfcb
        ld      c, 22
        call    BDOS
        inc     a
        ret     nz
        jp      dirful
clsdst: ld      de, dfcb
        ld      c, 16
        call    BDOS
        inc     a
        ret     nz
        jp      dirful

; fdrec: the record at buf to the destination file.
fdrec:  ld      de, dfcb
        ld      c, 21
        call    BDOS
        or      a
        jp      nz, full
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
dstfn:  db      0               ; BDOS function of a destination device, 0: a file
srcfn:  db      0               ; and of a source device
lfnext: db      0               ; an LF is owed after a CR from CON:
srcat:  dw      0               ; where the source begins in the tail
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
