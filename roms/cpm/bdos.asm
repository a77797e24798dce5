; bdos.asm: lbplus's own CP/M 2.2 BDOS, written from the published CP/M 2.2
; interface (function numbers, FCB and directory layouts, BIOS entries and
; return codes; docs/CPM.md). It assembles to at most 0E00h bytes at
; BDOSBASE (layout.inc) with its entry at BDOSBASE+6, so it replaces DR's
; BDOS byte for byte in the memory map.
;
; Register convention at the entry: C = function, DE (E) = parameter.
; Return: A = L = the byte result, B = H = the high byte of a word result.
;
; State kept here (reloaded by every warm boot, as in CP/M 2.2; the CCP
; resets the disk system after a warm boot anyway): the current disk and
; user, the DMA address, the login and read-only vectors, the console
; column and one typed-ahead character.
;
; Choices where the manual leaves room (docs/CPM.md):
;   - DEL (7Fh) in function 10 erases like backspace instead of echoing.
;   - A new block is taken from the lowest free block number.
;   - The high bit of FCB byte 14 (S2) means "not written since open";
;     close skips the directory update while it is set.

        include "layout.inc"

        org     BDOSBASE

CR      equ     0Dh
LF      equ     0Ah
TAB     equ     09h
BS      equ     08h
CTLC    equ     03h
CTLE    equ     05h
CTLP    equ     10h
CTLR    equ     12h
CTLS    equ     13h
CTLU    equ     15h
CTLX    equ     18h
RUB     equ     7Fh

; FCB offsets
FEX     equ     12
FS1     equ     13
FS2     equ     14
FRC     equ     15
FMAP    equ     16
FCR     equ     32
FR0     equ     33

NFUNC   equ     41

serial: db      0, 0, 0, 0, 0, 0        ; BDOS+0: room for a serial number
        jp      bdose                   ; BDOS+6: the entry
; BDOS+9: the four error handlers, as addresses a program may patch.
pererr: dw      errsect                 ; BAD SECTOR: ^C reboots, other keys ignore
selerr: dw      errsel                  ; SELECT
roderr: dw      errro                   ; R/O (disk)
roferr: dw      errrof                  ; FILE R/O

; ---------------------------------------------------------------- entry
bdose:  ld      (info), de
        ld      (usersp), sp
        ld      sp, bdstack
        xor     a
        ld      (resel), a
        ld      (zfill), a
        ld      h, a
        ld      l, a
        ld      (aret), hl
        ld      hl, bdret
        push    hl
        ld      a, c
        cp      NFUNC
        ret     nc
        ld      b, 0
        ld      hl, functab
        add     hl, bc
        add     hl, bc
        ld      a, (hl)
        inc     hl
        ld      h, (hl)
        ld      l, a
        ld      c, e            ; E in C too, for the console functions
        jp      (hl)

bdret:  ld      a, (resel)      ; an FCB function borrowed byte 0: give it back
        or      a
        jr      z, bdret1
        ld      hl, (info)
        ld      a, (fcbdr)
        ld      (hl), a
bdret1: ld      sp, (usersp)
        ld      hl, (aret)
        ld      a, l
        ld      b, h
        ret

functab:
        dw      0000h   ; 0 system reset: jump to the warm boot
        dw      f1      ; console input
        dw      tabout  ; console output
        dw      f3      ; reader input
        dw      BIOS_PUNCH ; punch output
        dw      BIOS_LIST  ; list output
        dw      f6      ; direct console I/O
        dw      f7      ; get IOBYTE
        dw      f8      ; set IOBYTE
        dw      f9      ; print string
        dw      f10     ; read console buffer
        dw      f11     ; console status
        dw      f12     ; version
        dw      f13     ; reset disk system
        dw      f14     ; select disk
        dw      f15     ; open
        dw      f16     ; close
        dw      f17     ; search first
        dw      f18     ; search next
        dw      f19     ; delete
        dw      f20     ; read sequential
        dw      f21     ; write sequential
        dw      f22     ; make
        dw      f23     ; rename
        dw      f24     ; login vector
        dw      f25     ; current disk
        dw      f26     ; set DMA
        dw      f27     ; allocation vector address
        dw      f28     ; write protect disk
        dw      f29     ; R/O vector
        dw      f30     ; set file attributes
        dw      f31     ; DPB address
        dw      f32     ; get/set user
        dw      f33     ; read random
        dw      f34     ; write random
        dw      f35     ; compute file size
        dw      f36     ; set random record
        dw      f37     ; reset drive
        dw      retz    ; 38 (unused in 2.2)
        dw      retz    ; 39 (unused in 2.2)
        dw      f40     ; write random with zero fill

retz:   xor     a
retA:   ld      (aret), a
        ret
retFF:  ld      a, 0FFh
        jr      retA

; ---------------------------------------------------------------- console
; conin: the typed-ahead character if there is one, else BIOS CONIN.
conin:  ld      hl, kbchar
        ld      a, (hl)
        ld      (hl), 0
        or      a
        ret     nz
        jp      BIOS_CONIN

; conbrk: checks the keyboard while printing. ^S pauses until the next key
; (^C then reboots); other keys are kept for the next input. A <> 0 when a
; character is waiting.
conbrk: ld      a, (kbchar)
        or      a
        ret     nz
        call    BIOS_CONST
        and     1
        ret     z
        call    BIOS_CONIN
        cp      CTLS
        jr      nz, cbsave
        call    BIOS_CONIN
        cp      CTLC
        jp      z, 0
        xor     a
        ret
cbsave: ld      (kbchar), a
        ret

; conout: C to the console (and the printer under ^P), keeping the column.
conout: push    bc
        call    conbrk
        pop     bc
        push    bc
        call    BIOS_CONOUT
        pop     bc
        ld      a, (listcp)
        or      a
        jr      z, co0
        push    bc
        call    BIOS_LIST
        pop     bc
co0:    ld      a, c
        ld      hl, column
        cp      RUB
        ret     z
        cp      ' '
        jr      c, co1
        inc     (hl)
        ret
co1:    cp      BS
        jr      nz, co2
        ld      a, (hl)
        or      a
        ret     z
        dec     (hl)
        ret
co2:    cp      CR
        ret     nz
        ld      (hl), 0
        ret

; tabout: C with TAB expanded to the next multiple of 8.
tabout: ld      a, c
        cp      TAB
        jr      nz, conout
tab1:   ld      c, ' '
        call    conout
        ld      a, (column)
        and     7
        jr      nz, tab1
        ret

; ctlout: C, with control characters other than TAB shown as ^X.
ctlout: ld      a, c
        cp      TAB
        jr      z, tabout
        cp      ' '
        jr      nc, conout
        push    bc
        ld      c, '^'
        call    conout
        pop     bc
        ld      a, c
        or      40h
        ld      c, a
        jr      conout

crlf:   ld      c, CR
        call    conout
        ld      c, LF
        jr      conout

; pstr: prints the string at HL up to '$'.
pstr:   ld      a, (hl)
        cp      '$'
        ret     z
        inc     hl
        push    hl
        ld      c, a
        call    tabout
        pop     hl
        jr      pstr

f1:     call    conin
        push    af
        ld      c, a
        cp      ' '
        jr      nc, f1echo
        cp      CR
        jr      z, f1echo
        cp      LF
        jr      z, f1echo
        cp      TAB
        jr      z, f1echo
        cp      BS
        jr      nz, f1done
f1echo: call    tabout
f1done: pop     af
        jp      retA

f3:     call    BIOS_READER
        jp      retA

f6:     ld      a, c
        inc     a
        jp      nz, BIOS_CONOUT
        ld      a, (kbchar)
        or      a
        jr      nz, f6get
        call    BIOS_CONST
        or      a
        ret     z
f6get:  call    conin
        jp      retA

f7:     ld      a, (PZ_IOBYTE)
        jp      retA
f8:     ld      a, c
        ld      (PZ_IOBYTE), a
        ret

f9:     ex      de, hl
        jr      pstr

f11:    call    conbrk
        or      a
        ret     z
        jp      retFF

f12:    ld      a, 22h
        jp      retA

; f10: read a line into the buffer at DE (max, count, text) with editing.
f10:    ld      a, (column)
        ld      (strtcol), a
        ld      b, 0            ; B = count
rdloop: ld      hl, (info)
        ld      a, (hl)         ; max
        cp      b
        jr      z, rddone
        jr      c, rddone
        push    bc
        call    conin
        pop     bc
        and     7Fh
        cp      CR
        jr      z, rddone
        cp      LF
        jr      z, rddone
        cp      BS
        jr      z, rdbs
        cp      RUB
        jr      z, rdbs
        cp      CTLX
        jr      z, rdctlx
        cp      CTLU
        jr      z, rdctlu
        cp      CTLR
        jr      z, rdctlr
        cp      CTLE
        jr      z, rdctle
        cp      CTLP
        jr      z, rdctlp
        cp      CTLC
        jr      nz, rdput
        inc     b
        dec     b
        jp      z, 0            ; ^C first on the line: warm boot
rdput:  inc     b
        call    bufptr
        ld      (hl), a
        ld      c, a
        push    bc
        call    ctlout
        pop     bc
        jr      rdloop
rddone: ld      hl, (info)
        inc     hl
        ld      (hl), b
        ld      c, CR
        jp      conout
rdbs:   inc     b
        dec     b
        jr      z, rdloop
        dec     b
        push    bc
        call    bsback
        pop     bc
        jr      rdloop
rdctlx: ld      b, 0
        push    bc
        call    bsback
        pop     bc
        jr      rdloop
rdctlu: ld      b, 0
rdctlr: push    bc
        ld      c, '#'
        call    conout
        call    crlf
        call    tostrt
        pop     bc
        ld      c, 0            ; retype the B characters kept
rdr1:   ld      a, c
        cp      b
        jr      z, rdloop
        inc     c
        push    bc
        ld      b, c
        call    bufptr
        ld      c, (hl)
        call    ctlout
        pop     bc
        jr      rdr1
rdctle: push    bc
        call    crlf
        pop     bc
        jp      rdloop
rdctlp: ld      hl, listcp
        ld      a, (hl)
        cpl
        ld      (hl), a
        jp      rdloop

; bufptr: HL = address of character number B (1-based) of the f10 buffer.
bufptr: ld      hl, (info)
        inc     hl
        push    de
        ld      e, b
        ld      d, 0
        add     hl, de
        pop     de
        ret

; tostrt: spaces up to the column where the line began.
tostrt: ld      a, (strtcol)
        ld      hl, column
        cp      (hl)
        ret     z
        ret     c
        ld      c, ' '
        call    conout
        jr      tostrt

; bsback: erases on the screen back to the width of the first B characters.
bsback: ld      a, (strtcol)    ; D = the column the B characters end at
        ld      d, a
        ld      c, 0
bsb1:   ld      a, c
        cp      b
        jr      z, bsb3
        inc     c
        push    bc
        ld      b, c
        call    bufptr
        pop     bc
        ld      a, (hl)
        cp      TAB
        jr      nz, bsb2
        ld      a, d
        or      7
        ld      d, a
        inc     d
        jr      bsb1
bsb2:   inc     d
        cp      ' '
        jr      nc, bsb1
        inc     d               ; ^X takes two columns
        jr      bsb1
bsb3:   ld      a, (column)
        cp      d
        ret     z
        ret     c
        push    de
        ld      c, BS
        call    conout
        ld      c, ' '
        call    conout
        ld      c, BS
        call    conout
        pop     de
        jr      bsb3

; ---------------------------------------------------------------- errors
; errmsg: "BDOS ERR ON d: " and the message at HL.
errmsg: push    hl
        call    crlf
        ld      hl, msgerr
        call    pstr
        ld      a, (seldsk)
        add     a, 'A'
        ld      c, a
        call    conout
        ld      hl, msgcol
        call    pstr
        pop     hl
        call    pstr
        jp      crlf

errsect: ld     hl, msgsect
        call    errmsg
        call    conin
        cp      CTLC
        ret     nz              ; any other key: carry on as if it worked
        jp      0
errsel: ld      hl, PZ_CDISK    ; the next warm boot starts on A:, not here
        ld      a, (hl)
        and     0F0h
        ld      (hl), a
        xor     a
        ld      (curdsk), a
        ld      hl, msgsel
        jr      errfatal
errro:  ld      hl, msgro
        jr      errfatal
errrof: ld      hl, msgrof
errfatal:
        call    errmsg
        call    conin
        jp      0

msgerr: db      "BDOS ERR ON $"
msgcol: db      ": $"
msgsect: db     "BAD SECTOR$"
msgsel: db      "SELECT$"
msgro:  db      "R/O$"
msgrof: db      "FILE R/O$"

goerr:  ld      a, (hl)         ; through one of the vectors at BDOS+9
        inc     hl
        ld      h, (hl)
        ld      l, a
        jp      (hl)

ioerr:  ld      hl, pererr
        jr      goerr

; chkrodsk: R/O error if the selected disk is write protected.
chkrodsk:
        call    dskbit
        ld      de, (rovec)
        ld      a, h
        and     d
        ld      d, a
        ld      a, l
        and     e
        or      d
        ret     z
        ld      hl, roderr
        jr      goerr

; chkrof: FILE R/O error if the entry or FCB at HL has the R/O attribute.
chkrof: ld      de, 9
        add     hl, de
        bit     7, (hl)
        ret     z
        ld      hl, roferr
        jr      goerr

; ---------------------------------------------------------------- disks
; dskbit: HL = 1 << seldsk.
dskbit: ld      a, (seldsk)
        ld      hl, 1
        inc     a
dskb1:  dec     a
        ret     z
        add     hl, hl
        jr      dskb1

; setro: the selected disk becomes read-only (its bit set in rovec).
setro:  call    dskbit
        ld      de, (rovec)
        call    orhlde
        ld      (rovec), hl
        ret

; orhlde: HL = HL OR DE (a disk's bit into a drive vector).
orhlde: ld      a, h
        or      d
        ld      h, a
        ld      a, l
        or      e
        ld      l, a
        ret

; loggedin: NZ if the selected disk is logged in.
loggedin:
        call    dskbit
        ld      de, (loginv)
        ld      a, h
        and     d
        ld      d, a
        ld      a, l
        and     e
        or      d
        ret

; seldisk: selects disk A for the current call, logging it in the first
; time: the BIOS hands out its DPH, and the directory is read to build the
; allocation vector and the directory checksums.
seldisk:
        ld      (seldsk), a
        ld      hl, biosdsk
        cp      (hl)
        ret     z
        ld      (hl), 0FFh
        ld      c, a
        call    loggedin
        ld      e, 0
        jr      z, sel1
        inc     e               ; E bit 0: the BIOS has seen this disk before
sel1:   call    BIOS_SELDSK
        ld      a, h
        or      l
        jr      nz, sel2
        ld      hl, selerr
        jr      goerr
sel2:   ld      de, xlt         ; XLT, then DIRBUF, DPB, CSV, ALV
        ld      bc, 2
        ldir
        ld      bc, 6
        add     hl, bc
        ld      bc, 8
        ldir
        ld      hl, (dpbadr)
        ld      de, dpb
        ld      bc, 15
        ldir
        ld      a, (seldsk)
        ld      (biosdsk), a
        ld      hl, 0FFFFh
        ld      (dirrec), hl
        ld      a, (dsm+1)
        or      a
        ld      a, 0
        jr      z, sel3
        inc     a
sel3:   ld      (big), a
        call    loggedin
        ret     nz
        ; log in: the directory blocks, then every block an entry owns
        call    dskbit
        ld      de, (loginv)
        call    orhlde
        ld      (loginv), hl
        ld      hl, (dsm)
        call    shr3
        inc     hl
        ld      b, h
        ld      c, l
        ld      hl, (alvadr)
clral:  ld      (hl), 0
        inc     hl
        dec     bc
        ld      a, b
        or      c
        jr      nz, clral
        ld      hl, (alvadr)
        ld      a, (al0)
        ld      (hl), a
        inc     hl
        ld      a, (al1)
        ld      (hl), a
        ld      a, 1
        ld      (logging), a
        call    resetdir
login1: call    nextdir
        jr      c, login2
        ld      a, (hl)
        cp      0E5h
        ld      c, 1
        call    nz, markblks
        jr      login1
login2: xor     a
        ld      (logging), a
        ret

; shr3: HL >>= 3
shr3:   ld      b, 3
shrn:   srl     h
        rr      l
        djnz    shrn
        ret

; markblks: sets (C = 1) or clears (C = 0) the allocation bits of every
; block in the map of the directory entry at HL.
markblks:
        ld      de, FMAP
        add     hl, de
        ld      b, 16
mk1:    ld      e, (hl)
        ld      d, 0
        inc     hl
        ld      a, (big)
        or      a
        jr      z, mk2
        ld      d, (hl)
        inc     hl
        dec     b
mk2:    push    hl
        push    bc
        ex      de, hl
        ld      a, h
        or      l
        call    nz, setblk
        pop     bc
        pop     hl
        djnz    mk1
        ret

; setblk: block HL's allocation bit := C (blocks past DSM are ignored).
setblk: ld      de, (dsm)
        ex      de, hl
        or      a
        sbc     hl, de
        ex      de, hl
        ret     c
        call    blkbit
        bit     0, c
        jr      z, sb1
        or      (hl)
        ld      (hl), a
        ret
sb1:    cpl
        and     (hl)
        ld      (hl), a
        ret

; blkbit: HL = block -> HL = its byte in the allocation vector, A = mask
; (bit 7 of the first byte is block 0).
blkbit: ld      a, l
        and     7
        push    bc
        push    af
        call    shr3
        pop     af
        ld      b, a
        ld      de, (alvadr)
        add     hl, de
        ld      a, 80h
        inc     b
bb1:    dec     b
        jr      z, bb2
        rrca
        jr      bb1
bb2:    pop     bc
        ret

; allocblk: HL = a free block, now marked used, or 0 when the disk is full.
allocblk:
        ld      hl, (alvadr)
        ld      de, 0           ; DE = block number of the byte's bit 7
al1l:   ld      a, (hl)
        cp      0FFh
        jr      nz, al2
al1n:   inc     hl
        ex      de, hl
        ld      bc, 8
        add     hl, bc
        ex      de, hl
        push    hl
        ld      hl, (dsm)
        or      a
        sbc     hl, de
        pop     hl
        jr      nc, al1l
        ld      hl, 0
        ret
al2:    ld      c, 80h
al3:    ld      a, (hl)
        and     c
        jr      z, al4
        inc     de
        srl     c
        jr      nz, al3
        dec     de              ; not reached with A <> FFh
        jr      al1n
al4:    push    hl
        ld      hl, (dsm)
        or      a
        sbc     hl, de
        pop     hl
        jr      c, alfull
        ld      a, (hl)
        or      c
        ld      (hl), a
        ex      de, hl
        ret
alfull: ld      hl, 0
        ret

; div16: AC / DE -> AC quotient, HL remainder.
div16:  ld      hl, 0
        ld      b, 16
dv1:    sla     c
        rla
        adc     hl, hl
        or      a
        sbc     hl, de
        jr      c, dv2
        inc     c
        jr      dv3
dv2:    add     hl, de
dv3:    djnz    dv1
        ret

; seekrec: tells the BIOS where record HL (counted from track OFF) is.
seekrec:
        ld      a, h
        ld      c, l
        ld      de, (spt)
        call    div16
        push    hl
        ld      h, a
        ld      l, c
        ld      de, (off)
        add     hl, de
        ld      b, h
        ld      c, l
        call    BIOS_SETTRK
        pop     bc
        ld      de, (xlt)
        call    BIOS_SECTRAN
        ld      b, h
        ld      c, l
        jp      BIOS_SETSEC

; rdsec/wrsec: one record through the BIOS at DMA BC; C = write type for
; wrsec in A. A BIOS error goes to the BAD SECTOR handler.
rdsec:  call    BIOS_SETDMA
        call    BIOS_READ
        jr      iochk
wrsec:  push    af
        call    BIOS_SETDMA
        pop     af
        ld      c, a
        call    BIOS_WRITE
iochk:  or      a
        ret     z
        jp      ioerr

; ---------------------------------------------------------------- directory
resetdir:
        ld      hl, 0FFFFh
        ld      (dcnt), hl
        ld      (dirrec), hl
        ret

; nextdir: the next directory entry: HL = its address in the directory
; buffer, carry set after the last one.
nextdir:
        ld      hl, (dcnt)
        inc     hl
        ld      (dcnt), hl
        ld      de, (drm)
        ex      de, hl
        or      a
        sbc     hl, de          ; DRM - dcnt
        jr      nc, nd1
        ld      hl, 0FFFFh      ; past the end: stay there
        ld      (dcnt), hl
        scf
        ret
nd1:    ex      de, hl          ; HL = dcnt
        ld      a, l
        and     3
        push    af
        call    shr2
        ld      de, (dirrec)
        or      a
        sbc     hl, de
        add     hl, de
        call    nz, rddir
        pop     af
        rrca
        rrca
        rrca                    ; A = (dcnt & 3) * 32
        ld      e, a
        ld      d, 0
        ld      hl, (dirbuf)
        add     hl, de
        or      a
        ret

shr2:   srl     h
        rr      l
        srl     h
        rr      l
        ret

; rddir: reads directory record HL into the directory buffer and checks it
; against the checksum kept since login; a different checksum means the
; disk was changed, and it becomes read-only, as in CP/M 2.2.
rddir:  ld      (dirrec), hl
        call    seekrec
        ld      bc, (dirbuf)
        call    rdsec
        call    dirsum          ; Z: not checked, else HL = its CSV byte, A = sum
        ret     z
        ld      b, a
        ld      a, (logging)
        or      a
        jr      nz, rdd1
        ld      a, b
        cp      (hl)
        ret     z
        jp      setro           ; changed disk: read-only until reset
rdd1:   ld      (hl), b
        ret

; dirsum: for record dirrec < CKS: NZ, A = sum of the directory buffer,
; HL = its byte in the CSV. Z when the record is not checked.
dirsum: ld      hl, (dirrec)
        ld      de, (cks)
        ex      de, hl
        scf
        sbc     hl, de          ; CKS - 1 - rec: carry if rec >= CKS
        jr      c, ds0
        ld      hl, (dirbuf)
        ld      b, 128
        xor     a
ds1:    add     a, (hl)
        inc     hl
        djnz    ds1
        ld      hl, (csvadr)
        add     hl, de
        ld      b, 1
        inc     b               ; NZ
        ret
ds0:    xor     a
        ret

; wrdir: writes the directory record in the buffer back, keeping its
; checksum current.
wrdir:  call    chkrodsk
        call    dirsum
        jr      z, wd1
        ld      (hl), a
wd1:    ld      hl, (dirrec)
        call    seekrec
        ld      bc, (dirbuf)
        ld      a, 1
        jp      wrsec

; search: finds the first directory entry matching the FCB at (info) in its
; first C bytes (user, name, type, extent, S1 ignored, S2). '?' matches any
; byte; byte 0 = '?' matches every entry, even empty ones. The extent is
; compared without its EXM bits. A = entry number in the record (0-3) and
; HL = the entry, or A = FFh when none is left.
search: ld      a, c
        ld      (srchn), a
        ld      hl, (info)
        ld      (srchfcb), hl
        call    resetdir
srnext: call    nextdir
        jr      c, srfail
        ld      (srchent), hl
        ld      de, (srchfcb)
        ld      a, (de)
        cp      '?'
        jr      z, srfound
        ld      a, (srchn)
        ld      b, a
        ld      c, 0            ; C = byte index
srcmp:  ld      a, (de)
        cp      '?'
        jr      nz, src1
        ld      a, c
        or      a
        jr      nz, srok        ; '?' in the name, type or extent
        ld      a, (de)
src1:   push    bc
        ld      b, a
        ld      a, c
        cp      FS1
        jr      z, srok1
        ld      a, b
        xor     (hl)
        ld      b, a
        ld      a, c
        cp      FEX
        jr      nz, src2
        ld      a, (exm)
        cpl
        and     1Fh
        and     b
        jr      srtst
src2:   cp      FS2
        jr      nz, src3
        ld      a, b
        and     3Fh
        jr      srtst
src3:   or      a
        ld      a, b
        jr      nz, src4
        or      a               ; byte 0 (user or E5h) exactly
        jr      srtst
src4:   and     7Fh             ; name and type without attributes
srtst:  pop     bc
        jr      nz, srnext2
        jr      srok
srok1:  pop     bc
srok:   inc     de
        inc     hl
        inc     c
        djnz    srcmp
srfound:
        ld      hl, (srchent)
        ld      a, (dcnt)
        and     3
        ret
srnext2:
        ld      hl, (srchent)   ; (only to keep nextdir's view consistent)
        jr      srnext
srfail: ld      a, 0FFh
        ret

; ---------------------------------------------------------------- FCB use
; fcbsel: selects the FCB's drive (byte 0: 0 = current, 1-16 = A-P) and
; puts the user number into byte 0 for matching; bdret restores it.
fcbsel: ld      hl, (info)
        ld      a, (hl)
        ld      (fcbdr), a
        ld      a, 1
        ld      (resel), a
        ld      a, (hl)
        cp      '?'
        jr      z, fcbs1
        ld      a, (userno)
        ld      (hl), a
        ld      a, (fcbdr)
        and     1Fh
        dec     a
        jp      p, seldisk
fcbs1:  ld      a, (curdsk)
        jp      seldisk

fcbex:  ld      hl, (info)      ; HL -> FCB byte 12 (extent)
        ld      de, FEX
        add     hl, de
        ret

; open: finds the extent named by the FCB and copies its directory entry
; into the FCB, keeping the FCB's own extent number. RC becomes the records
; of that logical extent (128 for extents before the entry's last).
open:   ld      c, 15
        call    search
        cp      0FFh
        jp      z, retA
        push    af
        call    fcbex
        ld      b, (hl)         ; the extent asked for
        push    bc
        ld      de, (info)
        ld      hl, (srchent)
        ld      bc, 32
        ldir
        pop     bc
        call    fcbex
        ld      a, (hl)         ; the entry's last extent
        ld      (hl), b
        ld      de, FRC-FEX
        add     hl, de
        cp      b
        jr      z, op2          ; same: the entry's RC
        ld      (hl), 80h
        jr      nc, op2         ; asked for an earlier one: full
        ld      (hl), 0         ; a later one: empty
op2:    dec     hl
        set     7, (hl)         ; S2 bit 7: not written since open
        pop     af
        jp      retA

; close: writes the FCB's allocation and record count back into its
; directory entry (unless nothing was written since open).
close:  call    fcbex
        inc     hl
        inc     hl
        bit     7, (hl)
        jp      nz, retz
        call    chkrodsk
        ld      c, 15
        call    search
        cp      0FFh
        jp      z, retA
        ld      de, FMAP
        add     hl, de
        ex      de, hl          ; DE -> entry map
        ld      hl, (info)
        ld      bc, FMAP
        add     hl, bc          ; HL -> FCB map
        ld      b, 16
        ld      a, (big)
        or      a
        jr      z, cl1
        ld      b, 8
cl1:    push    bc
        call    mrgone
        pop     bc
        jp      nz, retFF       ; both used, different blocks
        djnz    cl1
        call    fcbex
        ld      a, (hl)
        and     1Fh
        ld      c, a            ; C = FCB extent
        ld      de, FRC-FEX
        add     hl, de
        ld      b, (hl)         ; B = FCB RC
        ld      hl, (srchent)
        ld      de, FEX
        add     hl, de
        ld      a, (hl)
        and     1Fh
        cp      c
        jr      z, cl2
        jr      nc, cl3         ; the entry already reaches further
cl2:    ld      (hl), c         ; the FCB's extent is the entry's last:
        ld      de, FRC-FEX     ; its record count is the entry's
        add     hl, de
        ld      (hl), b
cl3:    call    wrdir
        call    fcbex
        inc     hl
        inc     hl
        set     7, (hl)
        ld      a, (dcnt)
        and     3
        jp      retA

; mrgone: merges one map slot (a byte, or a word on big disks) between the
; FCB (HL) and the entry (DE), advancing both. NZ if they disagree.
mrgone: ld      a, (big)
        or      a
        jr      nz, mrgw
        ld      a, (hl)
        or      a
        jr      nz, mb1
        ld      a, (de)
        ld      (hl), a
mb1:    ld      a, (de)
        or      a
        jr      nz, mb2
        ld      a, (hl)
        ld      (de), a
mb2:    ld      a, (de)
        cp      (hl)
        inc     hl
        inc     de
        ret
mrgw:   push    de
        ld      e, (hl)
        inc     hl
        ld      d, (hl)
        dec     hl
        ld      a, d
        or      e
        ex      (sp), hl        ; HL -> entry, (SP) -> FCB
        jr      nz, mw1
        ld      e, (hl)         ; FCB empty: take the entry's
        inc     hl
        ld      d, (hl)
        dec     hl
        ex      (sp), hl
        ld      (hl), e
        inc     hl
        ld      (hl), d
        dec     hl
        ex      (sp), hl
mw1:    ld      a, (hl)
        inc     hl
        or      (hl)
        dec     hl
        jr      nz, mw2
        ld      (hl), e         ; entry empty: take the FCB's
        inc     hl
        ld      (hl), d
        dec     hl
mw2:    ld      a, (hl)
        cp      e
        jr      nz, mw3
        inc     hl
        ld      a, (hl)
        dec     hl
        cp      d
mw3:    inc     hl
        inc     hl
        ex      de, hl          ; DE -> next entry slot
        pop     hl              ; FCB slot
        inc     hl
        inc     hl
        ret

; make: a new directory entry for the FCB's name and extent, no blocks.
make:   ld      hl, (info)
        push    hl
        ld      hl, efcb
        ld      (info), hl
        ld      c, 1
        call    search
        pop     hl
        ld      (info), hl
        cp      0FFh
        jp      z, retA
        push    af
        ld      de, FRC         ; the FCB: no records, no blocks
        add     hl, de
        ld      b, 17
mk0:    ld      (hl), 0
        inc     hl
        djnz    mk0
        call    fcbex
        inc     hl
        ld      (hl), 0         ; S1
        inc     hl
        res     7, (hl)
        ld      hl, (info)
        ld      de, (srchent)
        ld      bc, 32
        ldir
        call    wrdir
        call    fcbex
        inc     hl
        inc     hl
        set     7, (hl)
        pop     af
        jp      retA

efcb:   db      0E5h

; ---------------------------------------------------------------- records
; getblk: HL = the block holding record CR of the FCB's logical extent
; (0 if none yet), (mapptr) = its map slot, (vrec) = the record's number
; within the directory entry.
getblk: call    fcbex
        ld      a, (exm)
        and     (hl)
        ld      de, FCR-FEX
        add     hl, de
        ld      e, (hl)         ; CR
        srl     a
        ld      d, a
        jr      nc, gb1
        set     7, e
gb1:    ld      (vrec), de
        ex      de, hl
        ld      a, (bsh)
        ld      b, a
        call    shrn
        ld      a, (big)
        or      a
        jr      z, gb2
        add     hl, hl
gb2:    ld      de, FMAP
        add     hl, de
        ld      de, (info)
        add     hl, de
        ld      (mapptr), hl
        ld      e, (hl)
        ld      d, 0
        ld      a, (big)
        or      a
        jr      z, gb3
        inc     hl
        ld      d, (hl)
gb3:    ex      de, hl
        ld      a, h
        or      l
        ret

; recno: HL = block HL's record number for (vrec): block << BSH + vrec & BLM.
recno:  ld      a, (bsh)
        ld      b, a
rn1:    add     hl, hl
        djnz    rn1
        ld      a, (blm)
        ld      de, (vrec)
        and     e
        or      l
        ld      l, a
        ret

fcbcr:  ld      hl, (info)
        ld      de, FCR
        add     hl, de
        ret

; readrec: reads record CR of the current extent to the DMA address.
; A = 0, or 1 when the record was never written (past RC or no block).
readrec:
        call    fcbcr
        ld      a, (hl)
        ld      de, FRC-FCR
        add     hl, de
        cp      (hl)
        jr      nc, rr1
        call    getblk
        jr      z, rr1
        call    recno
        call    seekrec
        ld      bc, (dmaad)
        call    rdsec
        xor     a
        ret
rr1:    ld      a, 1
        ret

; writerec: writes record CR of the current extent from the DMA address,
; taking a new block if needed. A = 0, or 2 when the disk is full.
writerec:
        call    getblk
        ld      a, 0
        jr      nz, wr2
        call    allocblk
        ld      a, h
        or      l
        ld      a, 2
        ret     z
        ex      de, hl
        ld      hl, (mapptr)
        ld      (hl), e
        ld      a, (big)
        or      a
        jr      z, wr1
        inc     hl
        ld      (hl), d
wr1:    ex      de, hl
        ld      a, (zfill)
        or      a
        call    nz, zeroblk
        ld      a, 2            ; first write into an unallocated block
wr2:    push    af
        call    recno
        call    seekrec
        ld      bc, (dmaad)
        pop     af
        call    wrsec
        call    fcbcr
        ld      a, (hl)
        inc     a
        ld      de, FRC-FCR
        add     hl, de
        cp      (hl)
        jr      c, wr3
        ld      (hl), a         ; the extent grew
wr3:    ld      de, FS2-FRC
        add     hl, de
        res     7, (hl)         ; written since open
        xor     a
        ret

; zeroblk: fills block HL with zero records (function 40).
zeroblk:
        push    hl
        ld      hl, (dirbuf)
        ld      b, 128
zb1:    ld      (hl), 0
        inc     hl
        djnz    zb1
        ld      hl, 0FFFFh
        ld      (dirrec), hl    ; the buffer no longer holds a directory record
        pop     hl
        push    hl
        ld      a, (bsh)
        ld      b, a
zb2:    add     hl, hl
        djnz    zb2
        ld      a, (blm)
        inc     a
        ld      b, a
zb3:    push    bc
        push    hl
        call    seekrec
        ld      bc, (dirbuf)
        ld      a, 2
        call    wrsec
        pop     hl
        inc     hl
        pop     bc
        djnz    zb3
        pop     hl
        ret

; closemod: closes the FCB's extent if it was written. A = FFh on failure.
closemod:
        call    fcbex
        inc     hl
        inc     hl
        xor     a
        bit     7, (hl)
        ret     nz
        call    close
        ld      a, (aret)
        ret

; nxtext: FCB to the next logical extent (carry when past the last module).
nxtext: call    fcbex
        ld      a, (hl)
        inc     a
        and     1Fh
        ld      (hl), a
        ret     nz
        inc     hl
        inc     hl
        ld      a, (hl)
        inc     a
        ld      (hl), a
        and     3Fh
        ret     nz
        scf
        ret

; savext/restext: remember and put back the FCB's extent and S2.
savext: call    fcbex
        ld      a, (hl)
        ld      (svex), a
        inc     hl
        inc     hl
        ld      a, (hl)
        ld      (svs2), a
        ret
restext:
        call    fcbex
        ld      a, (svex)
        ld      (hl), a
        inc     hl
        inc     hl
        ld      a, (svs2)
        ld      (hl), a
        ret

setcr:  push    af
        call    fcbcr
        pop     af
        ld      (hl), a
        ret

f20:    call    fcbsel
        call    fcbcr
        ld      a, (hl)
        cp      80h
        jr      c, f20rd
        ld      de, FRC-FCR
        add     hl, de
        ld      a, (hl)
        cp      80h
        jr      c, f20eof
        ; the extent is used up: on to the next one
        call    closemod
        inc     a
        jr      z, f20eof
        call    savext
        call    nxtext
        jr      c, f20bk
        call    open
        inc     a
        jr      nz, f20op
f20bk:  call    restext         ; no next extent: stay at the end of this one
        call    open
        ld      a, 80h
        call    setcr
        jr      f20eof
f20op:  xor     a
        call    setcr
f20rd:  call    readrec
        or      a
        jp      nz, retA
        call    fcbcr
        inc     (hl)
        jp      retz
f20eof: ld      a, 1
        jp      retA

f21:    call    fcbsel
        call    chkrodsk
        ld      hl, (info)
        call    chkrof
        call    fcbcr
        ld      a, (hl)
        cp      80h
        jr      c, f21wr
        call    closemod
        inc     a
        jr      z, f21err
        call    savext
        call    nxtext
        jr      c, f21bk
        call    open
        inc     a
        jr      nz, f21op
        call    make
        inc     a
        jr      nz, f21op
f21bk:  call    restext
        call    open
        ld      a, 80h
        call    setcr
f21err: ld      a, 1            ; no directory space for the next extent
        jp      retA
f21op:  xor     a
        call    setcr
f21wr:  call    writerec
        or      a
        jp      nz, retA
        call    fcbcr
        inc     (hl)
        jp      retz

; rseek: positions the FCB on random record R0-R1 (R2 must be 0): CR, the
; extent and S2, opening (and for writes, B = 1, making) the extent.
; A = 0, or 3 (could not close), 4 (no such extent), 5 (directory full),
; 6 (past the largest file).
rseek:  ld      hl, (info)
        ld      de, FR0+2
        add     hl, de
        ld      a, (hl)
        or      a
        ld      a, 6
        ret     nz
        dec     hl
        ld      d, (hl)
        dec     hl
        ld      e, (hl)         ; DE = record
        ld      a, e
        and     7Fh
        ld      (svcr), a
        ld      a, e
        rla
        ld      a, d
        rla
        and     1Fh
        ld      c, a            ; C = extent
        ld      a, d
        rlca
        rlca
        rlca
        rlca
        and     0Fh
        ld      d, a            ; D = S2
        push    bc
        push    de
        call    fcbex
        pop     de
        pop     bc
        ld      a, (hl)
        and     1Fh
        cp      c
        jr      nz, rs1
        inc     hl
        inc     hl
        ld      a, (hl)
        and     3Fh
        cp      d
        jr      z, rsok
rs1:    push    bc
        push    de
        call    closemod
        pop     de
        pop     bc
        inc     a
        ld      a, 3
        ret     z
        call    fcbex
        ld      (hl), c
        inc     hl
        inc     hl
        ld      (hl), d
        set     7, (hl)         ; nothing written yet in the new extent
        push    bc
        call    open
        pop     bc
        inc     a
        jr      nz, rsok
        ld      a, b
        or      a
        jr      z, rs2
        call    make
        inc     a
        jr      nz, rsok
        ld      a, 5
        ret
rs2:    ld      hl, (info)      ; no such extent: nothing in the FCB
        ld      de, FRC
        add     hl, de
        ld      b, 17
rs3:    ld      (hl), 0
        inc     hl
        djnz    rs3
        ld      a, 4
        ret
rsok:   ld      a, (svcr)
        call    setcr
        xor     a
        ret

f33:    call    fcbsel
        ld      b, 0
        call    rseek
        or      a
        jp      nz, retA
        call    readrec
        jp      retA

f40:    ld      a, 1
        ld      (zfill), a
f34:    call    fcbsel
        call    chkrodsk
        ld      hl, (info)
        call    chkrof
        ld      b, 1
        call    rseek
        or      a
        jp      nz, retA
        call    writerec
        jp      retA

; ---------------------------------------------------------------- files
f13:    ld      hl, 0
        ld      (loginv), hl
        ld      (rovec), hl
        ld      hl, PZ_DMA
        ld      (dmaad), hl
        xor     a
        ld      (curdsk), a
        ld      (kbchar), a
        dec     a
        ld      (biosdsk), a
        xor     a
        jp      seldisk

f14:    ld      a, c
        ld      (curdsk), a
        jp      seldisk

f15:    call    fcbsel
        jp      open

f16:    call    fcbsel
        jp      close

f17:    call    fcbsel
        ld      a, (seldsk)
        ld      (srchdsk), a
        ld      c, 15
        call    search
        jr      f18ret

f18:    ld      hl, (srchfcb)
        ld      (info), hl
        ld      a, (hl)
        ld      (fcbdr), a
        cp      '?'
        jr      z, f18a
        ld      a, 1
        ld      (resel), a
        ld      a, (userno)
        ld      (hl), a
f18a:   ld      a, (srchdsk)
        call    seldisk
        call    srnext
f18ret: cp      0FFh
        jp      z, retA
        push    af              ; the whole directory record to the DMA
        ld      hl, (dirbuf)
        ld      de, (dmaad)
        ld      bc, 128
        ldir
        pop     af
        jp      retA

; forall: calls (fop) with HL = entry for every directory entry matching the
; FCB's user, name and type (all extents), writing each record back.
; A = FFh if nothing matched.
forall: ld      a, 0FFh
        ld      (fret), a
        ld      c, 12
        call    search
fa1:    cp      0FFh
        jr      z, fa2
        ld      (fret), a
        ld      hl, (srchent)
        call    fopcall
        call    wrdir
        call    srnext
        jr      fa1
fa2:    ld      a, (fret)
        jp      retA
fopcall:
        push    hl
        ld      hl, (fop)
        ex      (sp), hl
        ret

; chkall: FILE R/O error if any entry the FCB names is R/O.
chkall: ld      c, 12
        call    search
ca1:    cp      0FFh
        ret     z
        ld      hl, (srchent)
        call    chkrof
        call    srnext
        jr      ca1

f19:    call    fcbsel
        call    chkrodsk
        call    chkall
        ld      hl, opdel
        ld      (fop), hl
        jr      forall
opdel:  ld      (hl), 0E5h
        ld      c, 0
        jp      markblks

f23:    call    fcbsel
        call    chkrodsk
        call    chkall
        ld      hl, opren
        ld      (fop), hl
        jr      forall
opren:  ld      de, (info)      ; the new name is at FCB+17
        ex      de, hl
        ld      bc, 17
        add     hl, bc
        ex      de, hl
        inc     hl
        ld      b, 11
opr1:   ld      a, (de)
        and     7Fh
        ld      c, a
        ld      a, (hl)
        and     80h             ; keep the entry's attributes
        or      c
        ld      (hl), a
        inc     hl
        inc     de
        djnz    opr1
        ret

f30:    call    fcbsel
        call    chkrodsk
        ld      hl, opatt
        ld      (fop), hl
        jp      forall
opatt:  ld      de, (info)      ; name and type with their attribute bits
        ex      de, hl
        inc     hl
        inc     de
        ld      bc, 11
        ldir
        ret

f22:    call    fcbsel
        call    chkrodsk
        jp      make

f24:    ld      hl, (loginv)
        ld      (aret), hl
        ret

f25:    ld      a, (curdsk)
        jp      retA

f26:    ld      (dmaad), de
        ret

f27:    ld      a, (curdsk)
        call    seldisk
        ld      hl, (alvadr)
        ld      (aret), hl
        ret

f28:    ld      a, (curdsk)
        call    seldisk
        jp      setro

f29:    ld      hl, (rovec)
        ld      (aret), hl
        ret

f31:    ld      a, (curdsk)
        call    seldisk
        ld      hl, (dpbadr)
        ld      (aret), hl
        ret

f32:    ld      a, c
        cp      0FFh
        jr      nz, f32s
        ld      a, (userno)
        jp      retA
f32s:   and     1Fh
        ld      (userno), a
        ret

; extrec: AHL = the record number (S2*32 + EX)*128 + B of the entry or
; FCB at HL (EX in its low 5 bits, S2 in its low 6 bits).
extrec: ld      de, FEX
        add     hl, de
        ld      a, (hl)
        and     1Fh
        ld      e, a
        inc     hl
        inc     hl
        ld      a, (hl)
        and     3Fh
        ld      d, a            ; DE = S2*256 + EX; want (S2*32 + EX) * 128
        ld      h, 0
        ld      l, d            ; HL = S2
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        ld      d, 0
        add     hl, de          ; HL = extent number (up to 2047)
        xor     a
        srl     h
        rr      l
        rra                     ; H:L:A = HL * 128 (24 bits)
        ld      e, b
        add     a, e
        ld      e, a
        ld      a, l
        adc     a, 0
        ld      l, a
        ld      a, h
        adc     a, 0
        ld      h, e            ; result: A = high, L = middle, H = low
        ret

; putrr: stores A (high), L (middle), H (low) into R2, R1, R0.
putrr:  push    af
        push    hl
        ld      hl, (info)
        ld      de, FR0
        add     hl, de
        pop     de
        ld      (hl), d
        inc     hl
        ld      (hl), e
        inc     hl
        pop     af
        ld      (hl), a
        ret

f35:    call    fcbsel
        xor     a
        ld      h, a
        ld      l, a
        call    putrr
        ld      c, 12
        call    search
f35l:   cp      0FFh
        ret     z
        ld      hl, (srchent)
        push    hl
        ld      de, FRC
        add     hl, de
        ld      b, (hl)
        pop     hl
        call    extrec          ; A:L:H = this entry's end
        ld      (size), a
        ld      (size+1), hl
        ld      hl, (info)
        ld      de, FR0+2
        add     hl, de
        ld      a, (size)
        cp      (hl)
        jr      c, f35n
        jr      nz, f35s
        dec     hl
        ld      a, (size+1)
        cp      (hl)
        jr      c, f35n
        jr      nz, f35s
        dec     hl
        ld      a, (size+2)
        cp      (hl)
        jr      c, f35n
f35s:   ld      a, (size)
        ld      hl, (size+1)
        call    putrr
f35n:   call    srnext
        jr      f35l

f36:    call    fcbcr
        ld      b, (hl)
        ld      hl, (info)
        call    extrec
        jr      putrr

f37:    ld      hl, (loginv)
        call    clrbits
        ld      (loginv), hl
        ld      hl, (rovec)
        call    clrbits
        ld      (rovec), hl
        ld      a, 0FFh
        ld      (biosdsk), a
        jp      retz
clrbits:
        ld      de, (info)
        ld      a, d
        cpl
        and     h
        ld      h, a
        ld      a, e
        cpl
        and     l
        ld      l, a
        ret

; ---------------------------------------------------------------- data
curdsk: db      0       ; the current (default) disk
seldsk: db      0       ; the disk this call works on
biosdsk: db     0FFh    ; the disk the BIOS has selected and xlt..off describe
userno: db      0
dmaad:  dw      PZ_DMA
loginv: dw      0
rovec:  dw      0
kbchar: db      0
column: db      0
strtcol: db     0
listcp: db      0

info:   dw      0
aret:   dw      0
resel:  db      0
fcbdr:  db      0
zfill:  db      0
logging: db     0
usersp: dw      0

xlt:    dw      0
dirbuf: dw      0
dpbadr: dw      0
csvadr: dw      0
alvadr: dw      0
dpb:
spt:    dw      0
bsh:    db      0
blm:    db      0
exm:    db      0
dsm:    dw      0
drm:    dw      0
al0:    db      0
al1:    db      0
cks:    dw      0
off:    dw      0
big:    db      0

dcnt:   dw      0
dirrec: dw      0
srchn:  db      0
srchfcb: dw     0
srchent: dw     0
srchdsk: db     0
mapptr: dw      0
vrec:   dw      0
svex:   db      0
svs2:   db      0
svcr:   db      0
fop:    dw      0
fret:   db      0
size:   db      0, 0, 0

codeend equ     $
        if      BDOSBASE+BDOSSIZE-codeend < 96
        .error  "BDOS too large: it needs 96 bytes of stack below 0E00h"
        endif
        ds      BDOSBASE+BDOSSIZE-$, 0
bdstack equ     $               ; the stack grows down over the padding
        end
