; bdostest.asm: BDOSTEST, a conformance test of the CP/M 2.2 BDOS
; (functions 0-40) for lbplus (docs/CPM.md). Needs A: and B: as amp2 and
; amp1 floppies, C: as a disk with 16-bit block numbers and D: as amp4
; (EXM 0), all empty; the
; console script "ab", "hello<CR>", and "R" on the reader. Prints FAIL
; lines and, at the end, the number of errors; exits by function 0.
;
; With a parameter it takes one of the error paths instead:
;   BDOSTEST R   write to a file with the R/O attribute  (FILE R/O)
;   BDOSTEST D   make a file on a write-protected disk    (R/O)
;   BDOSTEST S   select drive P:                          (SELECT)
;   BDOSTEST B   read A:BAD.DAT, whose first record is bad (BAD SECTOR)
;   BDOSTEST C   B: is changed while waiting for a key    (R/O after it)
; and with F everything but the console part (whose script needs the Go
; BIOS's one line at a time), for the same disks on the board.

        org     100h
        jp      start

        include "cpmlib.inc"

sys     macro   fn, arg
        ld      c, fn
        ld      de, arg
        call    BDOS
        endm

; chk: A = result; inline: db want, "name$". A FAIL line when different.
chk:    ex      (sp), hl
        push    bc
        ld      b, a
        ld      a, (hl)
        inc     hl
        cp      b
        jr      z, chk2
        ld      c, a
        call    failname
        call    pmsg
        db      " got $"
        ld      a, b
        call    phex
        call    pmsg
        db      " want $"
        ld      a, c
        call    phex
        call    crlf
        jr      chk3
chk2:   call    skipstr
chk3:   ld      a, b
        pop     bc
        ex      (sp), hl
        ret

; chkhl: HL = result; inline: dw want, "name$".
chkhl:  ex      de, hl
        ex      (sp), hl
        push    bc
        ld      c, (hl)
        inc     hl
        ld      b, (hl)
        inc     hl
        ld      a, e
        cp      c
        jr      nz, chh1
        ld      a, d
        cp      b
        jr      z, chh2
chh1:   call    failname
        call    pmsg
        db      " got $"
        ex      de, hl
        call    phexw
        ex      de, hl
        call    pmsg
        db      " want $"
        push    hl
        ld      h, b
        ld      l, c
        call    phexw
        pop     hl
        call    crlf
        jr      chh3
chh2:   call    skipstr
chh3:   pop     bc
        ex      (sp), hl
        ret

; chkz: inline "name$": a FAIL line unless Z is set (flags and A kept).
chkz:   ex      (sp), hl
        push    af
        jr      z, chz1
        call    failname
        call    crlf
        jr      chz2
chz1:   call    skipstr
chz2:   pop     af
        ex      (sp), hl
        ret

; fail: inline "name$": an unconditional FAIL line.
fail:   ex      (sp), hl
        call    failname
        call    crlf
        ex      (sp), hl
        ret

failname:
        push    hl
        ld      hl, (errors)
        inc     hl
        ld      (errors), hl
        call    pmsg
        db      "FAIL $"
        pop     hl
        jp      pstr

skipstr: ld     a, (hl)
        inc     hl
        cp      '$'
        jr      nz, skipstr
        ret

; dircode: A = 0 if A is a directory code 0-3, else A.
dircode: cp     4
        ret     nc
        xor     a
        ret

; setfcb: FCB at HL := drive (drv), the 11-character name at DE, the rest 0.
setfcb: push    hl
        ld      a, (drv)
        ld      (hl), a
        inc     hl
        ex      de, hl
        ld      bc, 11
        ldir
        ex      de, hl
        ld      b, 24
sf1:    ld      (hl), 0
        inc     hl
        djnz    sf1
        pop     hl
        ret

; setr: the FCB f1's random record := HL (R2 := 0).
setr:   ld      (f1+33), hl
        xor     a
        ld      (f1+35), a
        ret

; fill/verify: the 128-byte pattern of record HL in buf; verify: Z if buf
; holds it.
fill:   ld      de, buf
        ld      a, l
        ld      (de), a
        inc     de
        ld      a, h
        ld      (de), a
        inc     de
        ld      b, 126
        ld      a, l
        add     a, a
        add     a, l
        add     a, h
fl1:    ld      (de), a
        inc     de
        add     a, 7
        djnz    fl1
        ret
verify: ld      de, buf
        ld      a, (de)
        cp      l
        ret     nz
        inc     de
        ld      a, (de)
        cp      h
        ret     nz
        inc     de
        ld      b, 126
        ld      a, l
        add     a, a
        add     a, l
        add     a, h
        ld      c, a
vf1:    ld      a, (de)
        cp      c
        ret     nz
        inc     de
        ld      a, c
        add     a, 7
        ld      c, a
        djnz    vf1
        xor     a
        ret

; rr: random read of record HL into buf; A = result.
rdrand: call    setr
        sys     26, buf
        sys     33, f1
        ret
wrrand: call    setr
        sys     26, buf
        sys     34, f1
        ret

; ----------------------------------------------------------------- main
start:  ld      sp, stack
        ld      a, (DBUF)
        or      a
        jr      z, main
        ld      a, (DBUF+2)
        cp      'R'
        jp      z, errrof
        cp      'D'
        jp      z, errrod
        cp      'S'
        jp      z, errsel
        cp      'B'
        jp      z, errbad
        cp      'C'
        jp      z, errchg
        cp      'P'
        jp      z, portable
        cp      'F'
        jr      z, main1
main:   call    pmsg
        db      "BDOSTEST", CR, LF, "$"
        call    tcons
main1:  call    tdisk
        ld      a, 1
        call    tfilesd
        ld      a, 3
        call    tfilesd
        ld      a, 4            ; EXM 0: one logical extent an entry
        call    tfilesd
        ld      a, 1
        ld      (drv), a
        call    tattr
        call    tusers
        call    tdrv
        call    tfull
report: call    pmsg
        db      "BDOSTEST: $"
        ld      hl, (errors)
        call    pdec
        call    pmsg
        db      " errors", CR, LF, "$"
        sys     0, 0

; portable: only what needs no particular disks or console timing: the
; file tests on A:, attributes, user areas and the drive byte (B:), for
; running on any CP/M 2.2 system with two empty-enough drives.
portable:
        call    pmsg
        db      "BDOSTEST P", CR, LF, "$"
        ld      a, 1
        call    tfilesd
        ld      a, 1
        ld      (drv), a
        call    tattr
        call    tusers
        call    tdrv
        jp      report

; tfilesd: the file tests on drive A (1 = A:), with what to expect from
; its DPB's EXM: a 300-record file takes 3/(EXM+1) entries, and record
; 500 (extent 3) is an unwritten record in the entry of extent 2 unless
; EXM is 0 (then an unwritten extent).
tfilesd:
        ld      (drv), a
        add     a, 'A'-1
        ld      (fmsg+9), a
        ld      hl, fmsg
        call    pstr
        ld      c, 25
        call    BDOS
        push    af
        ld      a, (drv)
        dec     a
        ld      e, a
        ld      c, 14
        call    BDOS
        ld      c, 31
        call    BDOS
        ld      de, 4
        add     hl, de
        ld      a, (hl)         ; EXM
        ld      b, 3
        ld      c, 4
        or      a
        jr      z, tfd1
        ld      b, 2
        ld      c, 1
        cp      1
        jr      z, tfd1
        ld      b, 1
tfd1:   ld      a, b
        ld      (nent), a
        ld      a, c
        ld      (n500), a
        pop     af
        ld      e, a
        ld      c, 14
        call    BDOS
        jp      tfiles
fmsg:   db      "files on A:", CR, LF, "$"

; ----------------------------------------------------------------- console
tcons:  call    pmsg
        db      "console", CR, LF, "$"
        sys     12, 0
        call    chkhl
        dw      0022h
        db      "version$"
        ld      a, b
        call    chk
        db      0, "version B$"
        sys     2, 'x'
        sys     2, 9            ; tab to column 8
        sys     2, '|'
        call    crlf
        sys     8, 95h
        sys     7, 0
        call    chk
        db      95h, "iobyte$"
        sys     8, 0
        sys     5, 'L'
        sys     4, 'P'
        sys     3, 0
        call    chk
        db      'R', "reader$"
        sys     11, 0
        call    chk
        db      0, "status idle$"
        sys     1, 0
        call    chk
        db      'a', "conin$"
        sys     11, 0
        call    chk
        db      0FFh, "status ready$"
        sys     6, 0FFh
        call    chk
        db      'b', "direct in$"
        sys     6, 0FFh
        call    chk
        db      0, "direct none$"
        sys     6, 'Z'
        call    crlf
        ld      a, 20
        ld      (line), a
        sys     10, line
        call    crlf
        ld      a, (line+1)
        call    chk
        db      5, "line length$"
        ld      hl, line+2
        ld      de, hello
        ld      b, 5
tc1:    ld      a, (de)
        cp      (hl)
        call    chkz
        db      "line text$"
        inc     hl
        inc     de
        djnz    tc1
        ret
hello:  db      "hello"

; ----------------------------------------------------------------- disks
tdisk:  call    pmsg
        db      "disks", CR, LF, "$"
        sys     13, 0
        call    chk
        db      0, "reset$"
        sys     25, 0
        call    chk
        db      0, "current A$"
        sys     24, 0
        call    chkhl
        dw      1
        db      "login A$"
        sys     14, 1
        sys     25, 0
        call    chk
        db      1, "current B$"
        sys     24, 0
        call    chkhl
        dw      3
        db      "login AB$"
        sys     31, 0
        push    hl
        ld      e, (hl)
        inc     hl
        ld      d, (hl)
        ex      de, hl
        call    chkhl
        dw      40
        db      "B: SPT$"
        pop     hl
        ld      de, 5
        add     hl, de
        ld      a, (hl)
        call    chk
        db      94, "B: DSM$"
        sys     27, 0
        ld      a, (hl)
        call    chk
        db      80h, "B: ALV directory$"
        sys     14, 0
        sys     31, 0
        ld      de, 5
        add     hl, de
        ld      a, (hl)
        call    chk
        db      194, "A: DSM$"
        sys     27, 0
        ld      a, (hl)
        and     0C0h
        call    chk
        db      0C0h, "A: ALV directory$"
        sys     28, 0
        sys     29, 0
        call    chkhl
        dw      1
        db      "R/O vector$"
        sys     37, 1
        sys     29, 0
        call    chkhl
        dw      0
        db      "R/O after reset drive$"
        sys     24, 0
        call    chkhl
        dw      2
        db      "login after reset drive$"
        sys     14, 0
        sys     32, 0FFh
        call    chk
        db      0, "user 0$"
        sys     32, 5
        sys     32, 0FFh
        call    chk
        db      5, "user 5$"
        sys     32, 0
        sys     38, 0
        call    chk
        db      0, "function 38$"
        sys     39, 0
        call    chk
        db      0, "function 39$"
        ret

; ----------------------------------------------------------------- files
tfiles: ld      hl, f1
        ld      de, n_test1
        call    setfcb
        sys     19, f1
        sys     22, f1
        call    dircode
        call    chk
        db      0, "make$"
        ld      hl, 0           ; 300 records sequentially
tf1:    push    hl
        call    fill
        sys     26, buf
        sys     21, f1
        pop     hl
        or      a
        jr      z, tf2
        call    fail
        db      "write sequential$"
        jr      tf3
tf2:    inc     hl
        ld      a, h
        cp      high 300
        jr      nz, tf1
        ld      a, l
        cp      low 300
        jr      nz, tf1
tf3:    sys     16, f1
        call    dircode
        call    chk
        db      0, "close$"
        xor     a
        ld      (f1+12), a
        ld      (f1+32), a
        sys     15, f1
        call    dircode
        call    chk
        db      0, "open$"
        ld      hl, 0
tf4:    push    hl
        sys     26, buf
        sys     20, f1
        pop     hl
        or      a
        jr      z, tf5
        call    fail
        db      "read sequential$"
        jr      tf6
tf5:    call    verify
        jr      z, tf5a
        call    fail
        db      "sequential data$"
        jr      tf6
tf5a:   inc     hl
        ld      a, h
        cp      high 300
        jr      nz, tf4
        ld      a, l
        cp      low 300
        jr      nz, tf4
        sys     20, f1
        call    chk
        db      1, "read past the end$"
tf6:    sys     35, f1
        ld      hl, (f1+33)
        call    chkhl
        dw      300
        db      "file size$"
        ld      a, (f1+35)
        call    chk
        db      0, "file size R2$"
        ; the directory entries: 3 logical extents in 2 entries
        ld      hl, f1
        ld      de, f2
        ld      bc, 12
        ldir
        ld      a, '?'
        ld      (f2+12), a
        xor     a
        ld      (f2+14), a
        ld      b, a
        push    bc
        sys     26, DBUF
        sys     17, f2
tf7:    pop     bc
        inc     a
        jr      z, tf8
        inc     b
        push    bc
        sys     18, 0
        jr      tf7
tf8:    ld      hl, nent
        ld      a, b
        cp      (hl)
        call    chkz
        db      "directory entries$"
        ; random access
        ld      hl, 200
        call    rdrand
        call    chk
        db      0, "read random 200$"
        ld      hl, 200
        call    verify
        call    chkz
        db      "random data 200$"
        sys     20, f1
        call    chk
        db      0, "sequential after random$"
        ld      hl, 200
        call    verify
        call    chkz
        db      "sequential after random rereads$"
        sys     36, f1
        ld      hl, (f1+33)
        call    chkhl
        dw      201
        db      "set random record$"
        ld      hl, 1000
        call    fill
        ld      hl, 1000
        call    wrrand
        call    chk
        db      0, "write random 1000$"
        sys     16, f1
        call    dircode
        call    chk
        db      0, "close after random$"
        sys     35, f1
        ld      hl, (f1+33)
        call    chkhl
        dw      1001
        db      "size after random$"
        ld      hl, 1000
        call    rdrand
        call    chk
        db      0, "read random 1000$"
        ld      hl, 1000
        call    verify
        call    chkz
        db      "random data 1000$"
        ld      hl, 500     ; extent 3: in the entry of extent 2 when EXM is 1
        call    rdrand
        ld      hl, n500
        cp      (hl)
        call    chkz
        db      "read record 500 (1 or 4 by EXM)$"
        ld      hl, 700
        call    rdrand
        call    chk
        db      4, "read unwritten extent$"
        ld      hl, 299
        call    rdrand
        call    chk
        db      0, "read random 299$"
        ld      hl, 299
        call    verify
        call    chkz
        db      "random data 299$"
        ld      hl, 5
        call    setr
        ld      a, 1
        ld      (f1+35), a
        sys     33, f1
        call    chk
        db      6, "read past 8 MB$"
        ld      hl, 1100        ; function 40 zero-fills the new block
        call    fill
        ld      hl, 1100
        call    setr
        sys     26, buf
        sys     40, f1
        call    chk
        db      0, "write random zero fill$"
        ld      hl, 1099
        call    rdrand
        call    chk
        db      0, "read zero-filled record$"
        ld      hl, buf
        ld      b, 128
tf9:    ld      a, (hl)
        or      a
        call    chkz
        db      "zero fill$"
        inc     hl
        djnz    tf9
        ld      hl, 1100
        call    rdrand
        ld      hl, 1100
        call    verify
        call    chkz
        db      "random data 1100$"
        sys     16, f1
        call    dircode
        call    chk
        db      0, "close 2$"
        sys     35, f1
        ld      hl, (f1+33)
        call    chkhl
        dw      1101
        db      "size 1101$"
        ; rename and delete
        ld      hl, f1+16
        ld      de, n_test2
        call    setfcb
        sys     23, f1
        call    dircode
        call    chk
        db      0, "rename$"
        ld      hl, f1
        ld      de, n_test1
        call    setfcb
        sys     15, f1
        call    chk
        db      0FFh, "old name gone$"
        ld      hl, f1
        ld      de, n_test2
        call    setfcb
        sys     15, f1
        call    dircode
        call    chk
        db      0, "open new name$"
        sys     19, f1
        call    dircode
        call    chk
        db      0, "delete$"
        sys     15, f1
        call    chk
        db      0FFh, "deleted$"
        sys     19, f1
        call    chk
        db      0FFh, "delete missing$"
        ret

n_test1: db     "TEST1   DAT"
n_test2: db     "TEST2   DAT"
n_attr: db      "ATTR    DAT"
n_u3:   db      "U3      DAT"
n_b:    db      "BFILE   DAT"
n_full: db      "FULL    DAT"
n_dir:  db      "D??     DAT"

; ----------------------------------------------------------------- attributes
tattr:  call    pmsg
        db      "attributes", CR, LF, "$"
        ld      hl, f1
        ld      de, n_attr
        call    setfcb
        sys     22, f1
        call    dircode
        call    chk
        db      0, "make attr$"
        sys     26, buf
        sys     21, f1
        sys     16, f1
        ld      hl, f1+9
        set     7, (hl)         ; R/O
        inc     hl
        set     7, (hl)         ; SYS
        sys     30, f1
        call    dircode
        call    chk
        db      0, "set attributes$"
        call    srchf1
        ld      a, (hl)
        and     80h
        call    chk
        db      80h, "R/O attribute$"
        inc     hl
        ld      a, (hl)
        and     80h
        call    chk
        db      80h, "SYS attribute$"
        ld      hl, f1+9
        res     7, (hl)
        inc     hl
        res     7, (hl)
        sys     30, f1
        call    srchf1
        ld      a, (hl)
        inc     hl
        or      (hl)
        and     80h
        call    chk
        db      0, "attributes cleared$"
        sys     19, f1
        call    dircode
        call    chk
        db      0, "delete attr$"
        ret

; srchf1: search first for f1; HL -> byte 9 of the entry found in DBUF.
srchf1: sys     26, DBUF
        sys     17, f1
        push    af
        call    dircode
        call    chk
        db      0, "search$"
        pop     af
        rrca
        rrca
        rrca
        ld      l, a
        ld      h, 0
        ld      de, DBUF+9
        add     hl, de
        ret

; ----------------------------------------------------------------- users
tusers: call    pmsg
        db      "users", CR, LF, "$"
        sys     32, 3
        ld      hl, f1
        ld      de, n_u3
        call    setfcb
        sys     22, f1
        sys     26, buf
        sys     21, f1
        sys     16, f1
        call    dircode
        call    chk
        db      0, "user 3 file$"
        sys     32, 0
        xor     a
        ld      (f1+12), a
        sys     15, f1
        call    chk
        db      0FFh, "invisible to user 0$"
        ld      hl, f2          ; '?' in byte 0: every entry of every user
        ld      (hl), '?'
        ld      d, h
        ld      e, l
        inc     de
        ld      bc, 14
        ldir
        sys     26, DBUF
        sys     17, f2
        ld      b, 0
tu1:    cp      0FFh
        jr      z, tu2
        rrca
        rrca
        rrca
        ld      l, a
        ld      h, 0
        ld      de, DBUF
        add     hl, de
        ld      a, (hl)
        cp      3
        jr      nz, tu1a
        inc     hl
        ld      a, (hl)
        cp      'U'
        jr      nz, tu1a
        inc     b
tu1a:   push    bc
        sys     18, 0
        pop     bc
        jr      tu1
tu2:    ld      a, b
        call    chk
        db      1, "search ? sees user 3$"
        sys     32, 3
        sys     15, f1
        call    dircode
        call    chk
        db      0, "open as user 3$"
        sys     19, f1
        call    dircode
        call    chk
        db      0, "delete as user 3$"
        sys     32, 0
        ret

; ----------------------------------------------------------------- drive byte
tdrv:   call    pmsg
        db      "drive byte", CR, LF, "$"
        ld      a, 2
        ld      (drv), a
        ld      hl, f1
        ld      de, n_b
        call    setfcb
        sys     22, f1
        call    dircode
        call    chk
        db      0, "make on B:$"
        ld      a, (f1)
        call    chk
        db      2, "drive byte kept$"
        sys     25, 0
        call    chk
        db      0, "current disk kept$"
        sys     16, f1
        xor     a
        ld      (f1), a
        sys     15, f1
        call    chk
        db      0FFh, "not on A:$"
        ld      a, 2
        ld      (f1), a
        sys     15, f1
        call    dircode
        call    chk
        db      0, "open on B:$"
        sys     19, f1
        ld      a, 1
        ld      (drv), a
        ret

; ----------------------------------------------------------------- full
tfull:  call    pmsg
        db      "full disk", CR, LF, "$"
        ld      a, 2
        ld      (drv), a
        ld      hl, f1
        ld      de, n_full
        call    setfcb
        sys     22, f1
        sys     26, buf
        ld      hl, 0
tfu1:   push    hl
        sys     21, f1
        pop     hl
        or      a
        jr      nz, tfu2
        inc     hl
        jr      tfu1
tfu2:   call    chk
        db      2, "disk full$"
        call    chkhl
        dw      94*16
        db      "records on a full disk$"
        sys     16, f1
        sys     19, f1
        call    dircode
        call    chk
        db      0, "delete full$"
        ld      b, 0            ; 64 directory entries, then no more
tfu3:   push    bc
        ld      hl, f1
        ld      de, n_dir
        call    setfcb
        pop     bc
        push    bc
        ld      a, b
        and     7
        add     a, '0'
        ld      (f1+3), a
        ld      a, b
        rrca
        rrca
        rrca
        and     1Fh
        add     a, '0'
        ld      (f1+2), a
        sys     22, f1
        pop     bc
        cp      0FFh
        jr      z, tfu4
        inc     b
        jr      tfu3
tfu4:   ld      a, b
        call    chk
        db      64, "directory full$"
        ld      hl, f1
        ld      de, n_dir
        call    setfcb
        sys     19, f1
        call    dircode
        call    chk
        db      0, "delete wildcard$"
        sys     17, f1
        call    chk
        db      0FFh, "directory empty$"
        ld      a, 1
        ld      (drv), a
        ret

; ----------------------------------------------------------------- errors
errrof: ld      hl, f1
        ld      de, n_attr
        call    setfcb
        sys     22, f1
        sys     16, f1
        ld      hl, f1+9
        set     7, (hl)
        sys     30, f1
        sys     15, f1
        sys     26, buf
        sys     21, f1
        jp      notreached
errrod: sys     28, 0
        ld      hl, f1
        ld      de, n_attr
        call    setfcb
        sys     22, f1
        jp      notreached
errsel: sys     14, 15
        jp      notreached
errbad: ld      hl, f1
        ld      de, n_bad
        call    setfcb
        sys     15, f1
        call    dircode
        call    chk
        db      0, "open BAD.DAT$"
        sys     26, buf
        sys     20, f1
        call    pmsg
        db      "CONTINUED", CR, LF, "$"
        sys     0, 0
errchg: ld      a, 2
        ld      (drv), a
        ld      hl, f1
        ld      de, n_b
        call    setfcb
        sys     17, f1
        call    pmsg
        db      "SWAP B:$"
        sys     1, 0
        call    crlf
        sys     17, f1
        sys     29, 0
        call    chkhl
        dw      2
        db      "B: R/O after a change$"
        sys     22, f1
notreached:
        call    pmsg
        db      "NOT REACHED", CR, LF, "$"
        sys     0, 0

n_bad:  db      "BAD     DAT"

errors: dw      0
drv:    db      1
nent:   db      2               ; entries of a 300-record file (EXM 1)
n500:   db      1               ; random read 500: unwritten record (EXM 1)
line:   ds      24
f1:     ds      36
f2:     ds      36
buf:    ds      128
        ds      128
stack   equ     $
        end
