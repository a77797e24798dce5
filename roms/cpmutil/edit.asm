; edit.asm: EDIT [d:]name.typ, a line editor for text files (its commands
; and keys: docs/CPM.md "The editor").
;
; The whole file is read into memory between the end of this program and
; the BDOS. There each line ends in one LF: a file's CR LF, LF alone or CR
; alone all end a line, NUL bytes are dropped and ^Z (or the last record)
; ends the text. Lines read from a file keep their length; a typed line
; holds up to LBUFN characters (BDOS function 10 reads it, so ^H, ^X, ^U
; and ^R work). W writes name.$$$ in CR LF lines ending in ^Z, and only
; once that is closed renames the old file to name.BAK and name.$$$ to
; name.typ; a full disk or directory deletes name.$$$ and keeps the text.

        org     100h
        jp      start

        include "cpmlib.inc"

LBUFN   equ     127             ; longest typed line
PAGE    equ     16              ; lines L lists by default
EOF     equ     1Ah

start:  ld      sp, stack
        ld      a, (FCB+1)
        cp      ' '
        jp      z, usage
        ld      hl, FCB+1       ; one file, no wildcards
        ld      b, 11
st1:    ld      a, (hl)
        cp      '?'
        jp      z, usage
        inc     hl
        djnz    st1
        ld      hl, FCB
        ld      de, name
        ld      bc, 12
        ldir
        ld      hl, name+9      ; name.$$$ is EDIT's own temporary
        ld      de, tdol
        call    cmp3
        jp      z, usage
        ld      hl, (BDOS+1)    ; the text may fill memory up to the BDOS
        ld      l, 0
        ld      (tmax), hl
        ld      hl, text
        ld      (tend), hl
        ld      (curp), hl
        ld      hl, 0
        ld      (nlines), hl
        ld      (cur), hl
        xor     a
        ld      (dirty), a
        ld      (fnlen), a
        ld      (wascr), a
        ; read the file
        ld      hl, fcb
        ld      de, name+9
        call    setfcb
        ld      de, fcb
        ld      c, 15
        call    BDOS
        inc     a
        jr      nz, ld0
        call    pmsg
        db      "NEW FILE", CR, LF, "$"
        jp      cmd
ld0:    ld      de, text        ; DE = where the next byte goes
ldrec:  push    de
        ld      de, DBUF
        ld      c, 26
        call    BDOS
        ld      de, fcb
        ld      c, 20
        call    BDOS
        pop     de
        or      a
        jr      nz, ldeof
        ld      hl, DBUF
        ld      b, 128
ldb:    ld      a, (hl)
        inc     hl
        cp      EOF
        jr      z, ldeof
        or      a
        jr      z, ldnx         ; NUL: dropped
        cp      CR
        jr      z, ldcr
        cp      LF
        jr      nz, ldch
        ld      a, (wascr)
        or      a
        jr      nz, ldlf        ; the LF of CR LF: the line ended at the CR
        ld      a, LF
        jr      ldch
ldcr:   ld      a, 1
        ld      (wascr), a
        ld      a, LF
        call    stb
        jr      ldnx
ldlf:   xor     a
        ld      (wascr), a
        jr      ldnx
ldch:   push    af
        xor     a
        ld      (wascr), a
        pop     af
        call    stb
ldnx:   djnz    ldb
        jr      ldrec
ldeof:  ld      hl, text        ; a last line without its end gets one
        or      a
        sbc     hl, de
        jr      z, ld1
        dec     de
        ld      a, (de)
        inc     de
        cp      LF
        ld      a, LF
        call    nz, stb
ld1:    ex      de, hl
        ld      (tend), hl
        ld      hl, (nlines)
        call    plines
        call    crlf
        ld      a, h
        or      l
        jr      z, cmd
        ld      hl, 1
        ld      (cur), hl
        jr      cmd

; stb: A to the text at DE, counting lines; FILE TOO BIG when memory is
; full (HL, BC kept).
stb:    push    hl
        ld      hl, (tmax)
        or      a
        sbc     hl, de
        pop     hl
        jr      z, toobig
        ld      (de), a
        inc     de
        cp      LF
        ret     nz
        push    hl
        ld      hl, (nlines)
        inc     hl
        ld      (nlines), hl
        pop     hl
        ret
toobig: call    pmsg
        db      "FILE TOO BIG$"
        jp      0

usage:  call    pmsg
        db      "USAGE: EDIT [d:]name.typ$"
        jp      0

; The command loop: "12*" and a command line.
cmd:    ld      sp, stack
        ld      hl, (cur)
        call    pdec
        ld      a, '*'
        call    putc
        call    rdline
        call    skipsp
        or      a
        jp      z, cnext
        call    upper
        cp      '.'
        jp      z, cgoto
        cp      '$'
        jp      z, cgoto
        cp      '0'
        jr      c, cm1
        cp      '9'+1
        jp      c, cgoto
cm1:    inc     hl
        cp      'L'
        jp      z, clist
        cp      'A'
        jp      z, cappend
        cp      'I'
        jp      z, cinsert
        cp      'D'
        jp      z, cdel
        cp      'R'
        jp      z, crepl
        cp      'S'
        jp      z, csubst
        cp      'F'
        jp      z, cfind
        cp      'W'
        jp      z, cwrite
        cp      'E'
        jp      z, cexit
        cp      'Q'
        jp      z, cquit
        cp      'H'
        jp      z, chelp
        cp      '?'
        jp      z, chelp
what:   call    pmsg
        db      "? (H FOR HELP)", CR, LF, "$"
        jp      cmd
nosuch: call    pmsg
        db      "NO SUCH LINE", CR, LF, "$"
        jp      cmd
notfnd: call    pmsg
        db      "NOT FOUND", CR, LF, "$"
        jp      cmd
memful: call    pmsg
        db      "MEMORY FULL", CR, LF, "$"
        jp      cmd

; n, . or $: that line becomes the current one and is shown.
cgoto:  call    getnum
        jp      c, what
        call    eol
        ex      de, hl
        call    chk1
        call    setcur
pcur:   ld      hl, (cur)
        ld      de, (curp)
        call    pline
        jp      cmd

; An empty command line: the next line.
cnext:  ld      hl, (cur)
        ld      de, (nlines)
        or      a
        sbc     hl, de
        jr      c, cn1
        call    pmsg
        db      "END OF TEXT", CR, LF, "$"
        jp      cmd
cn1:    ld      hl, (cur)
        inc     hl
        call    setcur
        jr      pcur

; L [n[,m]]: list (PAGE lines from the current one when no range is
; given); the last line listed becomes the current one.
clist:  call    getrng
        jr      nc, cl1
        ld      hl, (nlines)
        ld      a, h
        or      l
        jr      nz, cl0
        call    pmsg
        db      "NO TEXT", CR, LF, "$"
        jp      cmd
cl0:    ld      hl, (cur)
        ld      (r1), hl
        ld      de, PAGE-1
        add     hl, de
        call    clampn
        ld      (r2), hl
cl1:    ld      hl, (r1)
        call    findln
        ex      de, hl
        ld      hl, (r1)
cl2:    push    hl
        call    pline
        ex      de, hl
        pop     hl
        push    de
        ld      de, (r2)
        or      a
        sbc     hl, de
        add     hl, de
        pop     de
        jr      z, cl3
        inc     hl
        jr      cl2
cl3:    call    setcur
        jp      cmd

; A [n]: lines typed go after line n (the current one; 0 = at the top).
cappend:
        call    getopt
        ex      de, hl
        inc     hl
        jr      ins

; I [n]: lines typed go before line n (the current one).
cinsert:
        call    getopt
        ex      de, hl
        ld      a, h
        or      l
        jr      nz, ins
        inc     hl
ins:    ld      (ino), hl
        call    findln
        ld      (ipos), hl
        ; fall into input mode

; Input mode: each line typed goes in as line (ino) at (ipos), until a
; line holding only '.'; the prompt is the number the line will get.
input:  ld      hl, (ino)
        call    pnum5
        call    pmsg
        db      ":  $"
        call    rdline
        ld      a, (lbuf+1)
        dec     a
        jr      nz, in1
        ld      a, (hl)
        cp      '.'
        jp      z, cmd
in1:    ld      a, (lbuf+1)
        ld      c, a
        ld      b, 0
        inc     bc              ; and its LF
        ld      hl, (ipos)
        call    openg
        jp      c, memful
        ex      de, hl
        ld      a, (lbuf+1)
        or      a
        jr      z, in2
        ld      c, a
        ld      b, 0
        ld      hl, lbuf+2
        ldir
in2:    ld      a, LF
        ld      (de), a
        inc     de
        ld      hl, (ipos)
        ld      (curp), hl
        ld      (ipos), de
        ld      hl, (ino)
        ld      (cur), hl
        inc     hl
        ld      (ino), hl
        ld      hl, (nlines)
        inc     hl
        ld      (nlines), hl
        call    setdirty
        jr      input

; D [n[,m]]: delete (the current line when no range is given).
cdel:   call    getcur
        call    delrng
        jp      cmd

; R [n[,m]]: replace: delete, then input mode where the lines were.
crepl:  call    getcur
        call    delrng
        ld      hl, (r1)
        jr      ins

; getcur: the range typed, else the current line, into r1, r2.
getcur: call    getrng
        ret     nc
        ld      hl, (cur)
        call    chk1
        ld      (r1), hl
        ld      (r2), hl
        ret

; delrng: deletes lines r1-r2; the line after them (or the new last line)
; becomes the current one.
delrng: ld      hl, (r2)
        inc     hl
        call    findln
        push    hl
        ld      hl, (r1)
        call    findln
        pop     de
        ex      de, hl
        or      a
        sbc     hl, de
        ld      b, h
        ld      c, l
        ex      de, hl
        call    closeg
        ld      hl, (r2)
        ld      de, (r1)
        or      a
        sbc     hl, de
        inc     hl
        ex      de, hl
        ld      hl, (nlines)
        or      a
        sbc     hl, de
        ld      (nlines), hl
        call    setdirty
        ld      hl, (r1)
        call    clampn
        ld      de, 0           ; the text moved: find the line afresh
        ld      (cur), de
        jp      setcur

; S/old/new/: the first "old" in the current line becomes "new"; any
; character after S may stand for the '/'. The line is shown.
csubst: push    hl
        ld      hl, (cur)
        call    chk1
        pop     hl
        call    skipsp
        or      a
        jp      z, what
        ld      c, a            ; the delimiter
        inc     hl
        ld      (oldp), hl
        call    scan
        ld      a, b
        ld      (oldn), a
        or      a
        jp      z, what
        ld      a, (hl)
        or      a
        jp      z, what
        inc     hl
        ld      (newp), hl
        call    scan
        ld      a, b
        ld      (newn), a
        ld      a, (hl)
        or      a
        jr      z, ss0
        inc     hl
        call    eol
ss0:    ld      hl, (curp)
        ld      de, (oldp)
        ld      a, (oldn)
        ld      b, a
        call    instr
        jp      nc, notfnd
        ld      (spos), hl
        ld      a, (oldn)
        ld      c, a
        ld      a, (newn)
        sub     c
        jr      z, ss2
        jr      c, ss1
        ld      c, a            ; longer: open a gap
        ld      b, 0
        call    openg
        jp      c, memful
        jr      ss2
ss1:    neg                     ; shorter: close one
        ld      c, a
        ld      b, 0
        call    closeg
ss2:    ld      a, (newn)
        or      a
        jr      z, ss3
        ld      c, a
        ld      b, 0
        ld      hl, (newp)
        ld      de, (spos)
        ldir
ss3:    call    setdirty
        jp      pcur

; scan: HL to the next C or the end (0); B = characters passed.
scan:   ld      b, 0
sn1:    ld      a, (hl)
        or      a
        ret     z
        cp      c
        ret     z
        inc     hl
        inc     b
        jr      sn1

; F [text]: the next line holding text (one blank after F separates it),
; from the line after the current one round to the current one; F alone
; looks for the same text again.
cfind:  ld      a, (hl)
        cp      ' '
        jr      nz, cf0
        inc     hl
cf0:    ld      a, (hl)
        or      a
        jr      z, cf1
        ld      de, fbuf
        ld      b, 0
cf00:   ld      a, (hl)
        or      a
        jr      z, cf01
        ld      (de), a
        inc     hl
        inc     de
        inc     b
        jr      cf00
cf01:   ld      a, b
        ld      (fnlen), a
cf1:    ld      a, (fnlen)
        or      a
        jp      z, what
        ld      bc, (nlines)
        ld      a, b
        or      c
        jp      z, notfnd
        ld      hl, (cur)
        ld      de, (curp)
cf2:    push    bc
        push    hl              ; on to the next line, after the last the first
        ld      bc, (nlines)
        or      a
        sbc     hl, bc
        pop     hl
        jr      c, cf3
        ld      hl, 0
        ld      de, text
        jr      cf4
cf3:    ex      de, hl
        ld      a, LF
        ld      bc, 0
        cpir
        ex      de, hl
cf4:    inc     hl
        push    hl
        push    de
        ex      de, hl
        ld      de, fbuf
        ld      a, (fnlen)
        ld      b, a
        call    instr
        pop     de
        pop     hl
        pop     bc
        jr      c, cf5
        dec     bc
        ld      a, b
        or      c
        jr      nz, cf2
        jp      notfnd
cf5:    ld      (cur), hl
        ld      (curp), de
        jp      pcur

; instr: carry when the B characters at DE occur in the line at HL, then
; HL points at them.
instr:  ld      a, (hl)
        cp      LF
        ret     z               ; (no carry)
        push    hl
        push    de
        push    bc
is1:    ld      a, (de)
        cp      (hl)
        jr      nz, is2
        inc     hl
        inc     de
        djnz    is1
        pop     bc
        pop     de
        pop     hl
        scf
        ret
is2:    pop     bc
        pop     de
        pop     hl
        inc     hl
        jr      instr

; W [[d:]name.typ]: write the file.
cwrite: call    wname
        jp      cmd

; E [[d:]name.typ]: write the file and leave.
cexit:  call    wname
        jp      nc, 0
        jp      cmd

; wname: W's and E's file name, when one is given, becomes the file's,
; then write; when that fails the name is the old one again.
wname:  push    hl
        ld      hl, name
        ld      de, oname
        ld      bc, 12
        ldir
        pop     hl
        call    fname
        call    write
        ret     nc
        ld      hl, oname
        ld      de, name
        ld      bc, 12
        ldir
        scf
        ret

; fname: [d:]name.typ at HL, if any, into name (no wildcards, not type
; $$$; d: alone or none: the current drive).
fname:  call    skipsp
        or      a
        ret     z
        ld      c, 0
        inc     hl
        ld      a, (hl)
        dec     hl
        cp      ':'
        jr      nz, fn1
        ld      a, (hl)
        call    upper
        sub     'A'
        cp      16
        jp      nc, what
        inc     a
        ld      c, a
        inc     hl
        inc     hl
fn1:    ld      a, c
        ld      (nname), a
        push    hl
        ld      hl, nname+1
        ld      b, 11
fn2:    ld      (hl), ' '
        inc     hl
        djnz    fn2
        pop     hl
        ld      de, nname+1
        ld      b, 8
        call    field
        ld      a, (nname+1)
        cp      ' '
        jp      z, what
        ld      a, (hl)
        cp      '.'
        jr      nz, fn3
        inc     hl
        ld      de, nname+9
        ld      b, 3
        call    field
fn3:    call    eol
        ld      hl, nname+9
        ld      de, tdol
        call    cmp3
        jp      z, what
        ld      hl, nname
        ld      de, name
        ld      bc, 12
        ldir
        ret

; field: up to B characters of a name from HL to DE, upper case; a
; longer one or a wildcard is an error.
field:  ld      a, (hl)
        or      a
        ret     z
        cp      ' '
        ret     z
        cp      '.'
        ret     z
        cp      '*'
        jp      z, what
        cp      '?'
        jp      z, what
        cp      ':'
        jp      z, what
        inc     b
        dec     b
        jp      z, what
        call    upper
        ld      (de), a
        inc     hl
        inc     de
        dec     b
        jr      field

; Q: leave, asking first when there are changes not written; Q! does not
; ask.
cquit:  ld      a, (hl)
        cp      '!'
        jr      nz, cq1
        inc     hl
        call    eol
        jp      0
cq1:    call    eol
        ld      a, (dirty)
        or      a
        jp      z, 0
        call    pmsg
        db      "CHANGES NOT WRITTEN. QUIT ANYWAY (Y/N)? $"
        call    rdline
        call    skipsp
        call    upper
        cp      'Y'
        jp      z, 0
        jp      cmd

chelp:  call    pmsz
        db      "n       go to line n and show it (. current, $ last)", CR, LF
        db      "Enter   the next line", CR, LF
        db      "L       list 16 lines; L n  L n,m  list lines n to m", CR, LF
        db      "A [n]   add lines after line n (0: at the top)", CR, LF
        db      "I [n]   insert lines before line n", CR, LF
        db      "        (A, I, R: a line holding only . ends the input)", CR, LF
        db      "D [n,m] delete lines", CR, LF
        db      "R [n,m] replace lines by lines typed", CR, LF
        db      "S/old/new/  change old to new in the current line", CR, LF
        db      "F text  find the next line holding text (F: again)", CR, LF
        db      "W       write the file (the old one becomes .BAK)", CR, LF
        db      "W d:name.typ  write to that file from now on", CR, LF
        db      "E       write and quit (E d:name.typ too)", CR, LF
        db      "Q       quit (Q! without asking about changes)", CR, LF
        db      "(no range: the current line)", CR, LF, 0
        jp      cmd

; pmsz: the 0-terminated string that follows the CALL.
pmsz:   pop     hl
pz1:    ld      a, (hl)
        inc     hl
        or      a
        jr      z, pz2
        call    putc
        jr      pz1
pz2:    jp      (hl)

; write: writes the text to name.$$$, then renames name.typ to name.BAK
; and name.$$$ to name.typ. Carry when it was not written; the old file
; is then as it was.
write:  ld      (wsp), sp
        ld      hl, rfcb        ; a read-only file?
        ld      de, name+9
        call    setfcb
        ld      de, rfcb
        ld      c, 15
        call    BDOS
        inc     a
        jr      z, wr0
        ld      a, (rfcb+9)
        rla
        jp      c, rofile
wr0:    ld      a, (name)       ; a read-only disk? (after that directory
        dec     a               ; read, which finds a disk changed since
        jp      p, wr01         ; EDIT started)
        ld      c, 25
        call    BDOS
wr01:   push    af
        ld      c, 29
        call    BDOS
        pop     af
wr02:   or      a
        jr      z, wr03a
        srl     h
        rr      l
        dec     a
        jr      wr02
wr03a:  bit     0, l
        jp      nz, rodisk
wr03:   ld      de, tdol
        call    del
        ld      hl, tfcb
        ld      de, tdol
        call    setfcb
        ld      de, tfcb
        ld      c, 22
        call    BDOS
        inc     a
        jp      z, wdirf
        ld      hl, DBUF
        ld      (wptr), hl
        ld      hl, text
wr1:    ld      de, (tend)
        or      a
        sbc     hl, de
        add     hl, de
        jr      nc, wr3
        ld      a, (hl)
        inc     hl
        cp      LF
        jr      nz, wr2
        ld      a, CR
        call    wbyte
        ld      a, LF
wr2:    call    wbyte
        jr      wr1
wr3:    ld      a, EOF          ; ^Z, and the last record filled with it
        call    wbyte
        ld      a, (wptr)
        cp      DBUF
        jr      nz, wr3
        ld      de, tfcb
        ld      c, 16
        call    BDOS
        inc     a
        jp      z, wfail
        ld      hl, name+9      ; the old file becomes the backup
        ld      de, tbak
        call    cmp3
        jr      z, wr4
        ld      de, tbak
        call    del
        ld      hl, name+9
        ld      de, tbak
        call    ren
        jr      wr5
wr4:    ld      de, name+9      ; (name.BAK itself has none)
        call    del
wr5:    ld      hl, tdol
        ld      de, name+9
        call    ren
        inc     a
        jp      z, wrenf
        xor     a
        ld      (dirty), a
        ld      hl, (nlines)
        call    plines
        call    pmsg
        db      " WRITTEN", CR, LF, "$"
        or      a
        ret

; wbyte: A to the record at DBUF, written when full.
wbyte:  push    hl
        ld      hl, (wptr)
        ld      (hl), a
        inc     hl
        ld      (wptr), hl
        ld      a, l
        or      a
        pop     hl
        ret     nz
        push    hl
        ld      de, DBUF
        ld      c, 26
        call    BDOS
        ld      de, tfcb
        ld      c, 21
        call    BDOS
        pop     hl
        or      a
        jr      nz, wfull
        ld      de, DBUF
        ld      (wptr), de
        ret

; A write failed (A = 1: no directory entry for the next extent, 2: no
; free block): close name.$$$, so that deleting it frees every block.
wfull:  ld      sp, (wsp)
        push    af
        ld      de, tfcb
        ld      c, 16
        call    BDOS
        ld      de, tdol
        call    del
        pop     af
        dec     a
        jr      z, wdirf
        call    pmsg
        db      "DISK FULL$"
        jr      wnot
wfail:  ld      de, tdol
        call    del
        call    pmsg
        db      "WRITE ERROR$"
        jr      wnot
wdirf:  call    pmsg
        db      "DIRECTORY FULL$"
        jr      wnot
rodisk: call    pmsg
        db      "DISK IS READ-ONLY$"
        jr      wnot
rofile: call    pmsg
        db      "FILE IS READ-ONLY$"
wnot:   call    pmsg
        db      ", NOT WRITTEN", CR, LF, "$"
        scf
        ret
wrenf:  call    pmsg
        db      "CANNOT RENAME THE NEW FILE", CR, LF, "$"
        scf
        ret

; setfcb: FCB at HL for the file's drive and name with the type at DE.
setfcb: push    de
        ex      de, hl
        ld      hl, name
        ld      bc, 9
        ldir
        pop     hl
        ld      bc, 3
        ldir
        ex      de, hl
        ld      b, 24
sf1:    ld      (hl), 0
        inc     hl
        djnz    sf1
        ret

; del: deletes the file with the type at DE.
del:    ld      hl, rfcb
        call    setfcb
        ld      de, rfcb
        ld      c, 19
        jp      BDOS

; ren: renames the file with the type at HL to the type at DE (A = FFh
; when there was none).
ren:    push    de
        ex      de, hl
        ld      hl, rfcb
        call    setfcb
        ld      hl, rfcb+1
        ld      de, rfcb+17
        ld      bc, 8
        ldir
        pop     hl
        ld      bc, 3
        ldir
        ld      de, rfcb
        ld      c, 23
        jp      BDOS

; cmp3: Z when the three bytes at HL and DE are the same.
cmp3:   ld      b, 3
c3a:    ld      a, (de)
        cp      (hl)
        ret     nz
        inc     hl
        inc     de
        djnz    c3a
        ret

; rdline: a line from the console (BDOS function 10) into lbuf; HL -> its
; first character, a 0 after its last.
rdline: ld      a, LBUFN
        ld      (lbuf), a
        ld      de, lbuf
        ld      c, 10
        call    BDOS
        ld      a, LF           ; function 10 echoes only the CR
        call    putc
        ld      hl, lbuf+1
        ld      e, (hl)
        ld      d, 0
        inc     hl
        push    hl
        add     hl, de
        ld      (hl), 0
        pop     hl
        ret

; skipsp: HL past blanks; A = the character there.
skipsp: ld      a, (hl)
        cp      ' '
        ret     nz
        inc     hl
        jr      skipsp

; eol: only blanks may follow.
eol:    call    skipsp
        or      a
        jp      nz, what
        ret

upper:  cp      'a'
        ret     c
        cp      'z'+1
        ret     nc
        sub     20h
        ret

; getnum: a line number at HL (digits, . or $) into DE; carry when there
; is none.
getnum: call    skipsp
        cp      '.'
        jr      z, gndot
        cp      '$'
        jr      z, gndol
        sub     '0'
        cp      10
        ccf
        ret     c
        ld      de, 0
gn1:    ld      a, (hl)
        sub     '0'
        cp      10
        jr      nc, gn2
        inc     hl
        push    hl
        ld      h, d
        ld      l, e
        add     hl, hl
        jp      c, what
        add     hl, hl
        jp      c, what
        add     hl, de
        jp      c, what
        add     hl, hl
        jp      c, what
        ld      e, a
        ld      d, 0
        add     hl, de
        jp      c, what
        ex      de, hl
        pop     hl
        jr      gn1
gn2:    or      a
        ret
gndot:  inc     hl
        ld      de, (cur)
        or      a
        ret
gndol:  inc     hl
        ld      de, (nlines)
        or      a
        ret

; getrng: "n" or "n,m" into r1, r2 (1 <= n <= m <= the last line); carry
; when nothing was typed.
getrng: call    skipsp
        or      a
        scf
        ret     z
        call    getnum
        jp      c, what
        ld      (r1), de
        ld      (r2), de
        call    skipsp
        cp      ','
        jr      nz, gr1
        inc     hl
        call    getnum
        jp      c, what
        ld      (r2), de
gr1:    call    eol
        ld      hl, (r1)
        call    chk1
        ex      de, hl
        ld      hl, (r2)
        or      a
        sbc     hl, de
        jp      c, nosuch
        ld      hl, (r2)
        call    chk1
        or      a
        ret

; getopt: a line number 0 to the last, or the current one, into DE.
getopt: call    skipsp
        ld      de, (cur)
        or      a
        ret     z
        call    getnum
        jp      c, what
        call    eol
        ld      hl, (nlines)
        or      a
        sbc     hl, de
        jp      c, nosuch
        ret

; chk1: NO SUCH LINE unless 1 <= HL <= the last line (registers kept).
chk1:   ld      a, h
        or      l
        jp      z, nosuch
        push    de
        ex      de, hl
        ld      hl, (nlines)
        or      a
        sbc     hl, de
        ex      de, hl
        pop     de
        jp      c, nosuch
        ret

; clampn: HL, or the last line number when HL is beyond it.
clampn: ex      de, hl
        ld      hl, (nlines)
        or      a
        sbc     hl, de
        add     hl, de
        ret     c
        ex      de, hl
        ret

; findln: HL -> the start of line HL (1 to the last + 1, which is the end
; of the text), from the current line when it is not after it.
findln: ex      de, hl          ; DE = n
        ld      hl, (cur)
        ld      a, h
        or      l
        jr      z, fl0
        ex      de, hl
        or      a
        sbc     hl, de          ; n - cur
        jr      c, fl0a
        ld      b, h
        ld      c, l
        ld      hl, (curp)
        jr      fl1
fl0a:   add     hl, de
        ex      de, hl
fl0:    ld      b, d
        ld      c, e
        dec     bc
        ld      hl, text
fl1:    ld      a, b
        or      c
        ret     z
        push    bc
        ld      a, LF
        ld      bc, 0
        cpir
        pop     bc
        dec     bc
        jr      fl1

; setcur: line HL (0 when there is no text) becomes the current one.
setcur: ld      a, h
        or      l
        jr      nz, sc1
        ld      (cur), hl
        ld      hl, text
        ld      (curp), hl
        ret
sc1:    push    hl
        call    findln
        ld      (curp), hl
        pop     hl
        ld      (cur), hl
        ret

setdirty:
        ld      a, 1
        ld      (dirty), a
        ret

; openg: BC bytes of room at HL, the text after it moved up; carry when
; memory is full (HL kept).
openg:  push    hl
        ld      hl, (tend)
        add     hl, bc
        jr      c, og9
        ex      de, hl          ; DE = the new end
        ld      hl, (tmax)
        or      a
        sbc     hl, de
        jr      c, og9
        ld      hl, (tend)
        ld      (tend), de
        pop     bc
        push    bc
        push    hl
        or      a
        sbc     hl, bc          ; bytes to move
        ld      b, h
        ld      c, l
        pop     hl
        dec     hl
        dec     de
        ld      a, b
        or      c
        jr      z, og1
        lddr
og1:    pop     hl
        or      a
        ret
og9:    pop     hl
        scf
        ret

; closeg: removes BC bytes at HL, the text after them moved down.
closeg: ld      a, b
        or      c
        ret     z
        push    hl
        add     hl, bc
        push    hl
        ex      de, hl
        ld      hl, (tend)
        or      a
        sbc     hl, de
        ld      b, h
        ld      c, l
        pop     hl
        pop     de
        ld      a, b
        or      c
        jr      z, cg1
        ldir
cg1:    ld      (tend), de
        ret

; pline: line HL, whose text is at DE, as "   12:  text"; HL -> the next
; line. The number takes 8 columns, so tabs line up as in the file.
pline:  push    de
        call    pnum5
        call    pmsg
        db      ":  $"
        pop     hl
pl1:    ld      a, (hl)
        inc     hl
        cp      LF
        jp      z, crlf
        call    putc
        jr      pl1

; plines: "1 LINE", "2 LINES" for HL (registers kept).
plines: call    pdec
        call    pmsg
        db      " LINE$"
        push    af
        ld      a, h
        or      a
        jr      nz, pls
        ld      a, l
        dec     a
        jr      z, pls1
pls:    ld      a, 'S'
        call    putc
pls1:   pop     af
        ret

; pnum5: HL in decimal, right-aligned in 5 columns.
pnum5:  push    hl
        ld      de, 10000
        call    pn1
        ld      de, 1000
        call    pn1
        ld      de, 100
        call    pn1
        ld      de, 10
        call    pn1
        pop     hl
        jp      pdec
pn1:    push    hl
        or      a
        sbc     hl, de
        pop     hl
        ret     nc
        ld      a, ' '
        jp      putc

tdol:   db      "$$$"
tbak:   db      "BAK"

; Data above the program (not part of the .COM file); the text from
; "text" up to the BDOS.
name    equ     $               ; drive and name.typ as typed (12)
oname   equ     name+12         ; the name before W name.typ
nname   equ     oname+12        ; the name W is given
fcb     equ     nname+12
tfcb    equ     fcb+36
rfcb    equ     tfcb+36
lbuf    equ     rfcb+36         ; function 10's buffer
fbuf    equ     lbuf+LBUFN+3    ; the text F looks for
fnlen   equ     fbuf+LBUFN+1
tmax    equ     fnlen+1
tend    equ     tmax+2
nlines  equ     tend+2
cur     equ     nlines+2
curp    equ     cur+2
dirty   equ     curp+2
wascr   equ     dirty+1
r1      equ     wascr+1
r2      equ     r1+2
ino     equ     r2+2
ipos    equ     ino+2
oldp    equ     ipos+2
oldn    equ     oldp+2
newp    equ     oldn+1
newn    equ     newp+2
spos    equ     newn+1
wptr    equ     spos+2
wsp     equ     wptr+2
stack   equ     wsp+2+128
text    equ     stack
        end
