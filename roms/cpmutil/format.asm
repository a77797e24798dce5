; format.asm: FORMAT d: fmt formats the floppy disk in drive d: in one of
; the four Ampro formats (AMP1-AMP4, docs/FLOPPY.md "Formats") through the
; WD1772's Write Track, verifies every sector with Read Sector and leaves
; an empty CP/M directory (every data byte E5h). docs/CPM.md tells the use.
;
; It needs lbplus's BIOS 1.2 or later: the "LB" signature at BIOS+33h, then
; "DM" and the address of the BIOS's drive map at BIOS+3Bh (entries: 0-4 a
; hard disk partition, 80h + n floppy unit n, 0FFh no drive), which says
; which letter is which floppy unit. It refuses A: when A: is a floppy (the
; system disk warm boot reloads from), asks for Y first, and ^C stops it
; between tracks.
;
; Per cylinder: Seek (6 ms steps, as the BIOS, no verify: the disk has no
; IDs yet); per side: port 00 selects the drive and the side, the ID fields
; of the track image get the cylinder and head, Write Track (with the 15 ms
; settle after a step) takes the image from a polled loop with interrupts
; off, then each sector is read back in physical order. The end is a warm
; boot: the BIOS drops its host buffer (which may hold a sector of the old
; disk) and the CCP resets the disk system, so every drive is logged in
; again and the BIOS finds each head's cylinder from the ID it reads.

        org     100h
        jp      start

        include "cpmlib.inc"

FDCMD   equ     0C0h            ; WD1772 (docs/FLOPPY.md): command, write
FDSECW  equ     0C2h
FDDATW  equ     0C3h
FDSTAT  equ     0C4h            ; status, read
FDDATR  equ     0C7h
LATCH   equ     00h             ; drive select latch: bits 0-3 drive,
ROMOFF  equ     40h             ; bit 4 side 1, bit 5 FM (0: MFM), bit 6
SIDE1   equ     10h             ; ROM off (always set)

RESTORE equ     00h             ; spin-up (h = 0), 6 ms steps, no verify
SEEK    equ     10h             ; the same, to the data register's cylinder
WTRACK  equ     0F0h            ; Write Track, spin-up
WTRACKE equ     0F4h            ; Write Track after the 15 ms settle (E)
RSECTOR equ     80h             ; Read Sector, spin-up
FORCE   equ     0D0h            ; Force Interrupt

STWP    equ     40h             ; status: write protect
STRNF   equ     10h             ; record not found (type I: seek error)
STCRC   equ     08h
STLOST  equ     04h
UNITS   equ     4               ; a command gets 4 x 65536 polls (3-4 s)

TRKLEN  equ     8192            ; image room: a track is 6250 bytes at
                                ; 300 rpm; 4Eh beyond the image

start:  ld      (ccpsp), sp     ; the CCP's stack, for the return
        ld      sp, stack
        ld      a, (FCB)        ; d: is given, with no name after it
        or      a
        jp      z, usage
        ld      (drive), a
        ld      a, (FCB+1)
        cp      ' '
        jp      nz, usage
        ld      hl, FCB2+1      ; "AMPn" then blanks
        ld      de, ampname
        ld      b, 3
st1:    ld      a, (de)
        cp      (hl)
        jp      nz, usage
        inc     hl
        inc     de
        djnz    st1
        ld      a, (hl)
        sub     '1'
        cp      4
        jp      nc, usage
        ld      (fmtno), a
        inc     hl
        ld      b, 7
st2:    ld      a, (hl)
        cp      ' '
        jp      nz, usage
        inc     hl
        djnz    st2

        call    sig             ; lbplus BIOS 1.2 or later
        jr      z, st3
        call    pmsg
        db      "FORMAT needs lbplus's BIOS 1.2 or later", CR, LF, "$"
        jp      exit
st3:    ld      a, (drive)      ; the drive map's entry for d:
        dec     a
        ld      e, a
        ld      d, 0
        add     hl, de
        ld      a, (hl)
        cp      0FFh
        jr      nz, st4
        call    pdrive
        call    pmsg
        db      " is not a drive of this system", CR, LF, "$"
        jp      exit
st4:    bit     7, a
        jr      nz, st5
        call    pdrive
        call    pmsg
        db      " is a hard disk partition, not a floppy drive", CR, LF, "$"
        jp      exit
st5:    and     3               ; unit n: port 00 bit n
        ld      b, a
        inc     b
        ld      a, 80h
st6:    rlca
        djnz    st6
        or      ROMOFF
        ld      (seldrv), a
        ld      a, (drive)
        dec     a
        jr      nz, st7
        call    pmsg
        db      "A: holds the system (warm boot reloads it from there):", CR, LF
        db      "put the disk to format in another drive", CR, LF, "$"
        jp      exit

st7:    ld      a, (fmtno)      ; copy the format's parameters
        add     a, a
        add     a, a
        add     a, a
        ld      e, a
        ld      d, 0
        ld      hl, fmts
        add     hl, de
        ld      de, cyls
        ld      bc, 8
        ldir
        ld      a, (sizec)      ; 128 << N bytes a sector
        ld      hl, 128
        ld      b, a
st8:    add     hl, hl
        djnz    st8
        ld      (secsize), hl

        call    pmsg            ; what it will do; Y to go on
        db      "FORMAT $"
        call    pdrive
        call    pmsg
        db      " as AMP$"
        ld      a, (fmtno)
        add     a, '1'
        call    putc
        call    pmsg
        db      ": $"
        ld      a, (cyls)
        call    pdeca
        call    pmsg
        db      " cylinders x $"
        ld      a, (heads)
        call    pdeca
        call    pmsg
        db      " side(s) x $"
        ld      a, (nsec)
        call    pdeca
        call    pmsg
        db      " sectors of $"
        ld      hl, (secsize)
        call    pdec
        call    pmsg
        db      " bytes", CR, LF, "All data on the disk in $"
        call    pdrive
        call    pmsg
        db      " will be lost. Format it (Y/N)? $"
        ld      c, 1
        call    BDOS
        and     5Fh
        cp      'Y'
        jr      z, go
        call    pmsg
        db      CR, LF, "Nothing changed", CR, LF, "$"
        jp      exit

go:     call    crlf
        call    build
        xor     a
        ld      (written), a
        ld      (cyl), a
        ld      a, (seldrv)     ; the drive, side 0
        out     (LATCH), a
        ld      a, RESTORE      ; start the motor, find cylinder 0
        call    type1
        jp      nz, nodisk
        ld      a, WTRACKE
        ld      (wcmd), a

cylloop:
        xor     a
        ld      (head), a
hdloop: ld      a, (head)       ; the side
        or      a
        ld      a, (seldrv)
        jr      z, hd1
        or      SIDE1
hd1:    out     (LATCH), a
        call    patch
        ld      a, (wcmd)
        call    wtrack
        jp      nz, werr
        ld      a, 1
        ld      (written), a
        ld      a, WTRACK       ; the other side: no step, no settle
        ld      (wcmd), a
        call    verify
        jp      nz, verr
        ld      e, 0FFh         ; ^C stops it
        ld      c, 6
        call    BDOS
        cp      3
        jp      z, abort
        ld      a, (heads)
        ld      b, a
        ld      a, (head)
        inc     a
        ld      (head), a
        cp      b
        jr      c, hdloop
        ld      a, '.'
        call    putc
        ld      a, (cyls)
        ld      b, a
        ld      a, (cyl)
        inc     a
        ld      (cyl), a
        cp      b
        jr      nc, done
        out     (FDDATW), a     ; the next cylinder
        ld      a, SEEK
        call    type1
        jp      nz, nodisk
        ld      a, WTRACKE
        ld      (wcmd), a
        jr      cylloop

done:   call    crlf
        call    pdrive
        call    pmsg
        db      " formatted and verified; its directory is empty", CR, LF, "$"
        jp      finish

; --- errors: say what and where, then the warm boot ------------------------

nodisk: call    pmsg
        db      CR, LF, "No disk in $"
        call    pdrive
        call    pmsg
        db      ", or the drive does not answer$"
        jp      stopped

werr:   cp      0FFh
        jr      z, nodisk
        and     STWP
        jr      z, wer1
        call    pmsg
        db      CR, LF, "The disk in $"
        call    pdrive
        call    pmsg
        db      " is write protected$"
        jr      stopped
wer1:   ld      a, 1            ; the track was written, badly
        ld      (written), a
        call    pmsg
        db      CR, LF, "Write error$"
        call    where
        call    what
        jr      stopped

verr:   cp      0FFh
        jp      z, nodisk
        call    pmsg
        db      CR, LF, "Verify error$"
        call    where
        call    pmsg
        db      " sector $"
        ld      a, (sect)
        call    pdeca
        call    what
        jr      stopped

abort:  call    pmsg
        db      CR, LF, "^C: stopped$"
        call    where

stopped:
        call    crlf
        ld      a, (written)
        or      a
        jr      nz, stp1
        call    pmsg
        db      "Nothing was written", CR, LF, "$"
        jr      finish
stp1:   call    pmsg
        db      "The disk in $"
        call    pdrive
        call    pmsg
        db      " is only partly formatted", CR, LF, "$"

; finish: deselect the drives and warm boot (see the head of the file).
finish: ld      a, ROMOFF
        out     (LATCH), a
        jp      0

; where: " at cylinder c side h".
where:  call    pmsg
        db      " at cylinder $"
        ld      a, (cyl)
        call    pdeca
        call    pmsg
        db      " side $"
        ld      a, (head)
        jp      pdeca

; what: ": what the status means, status XXh".
what:   call    pmsg
        db      ": $"
        ld      a, (status)
        ld      b, a
        ld      hl, stnames
wh1:    ld      a, (hl)         ; mask, then the '$'-ended name
        inc     hl
        or      a
        jr      z, wh3
        and     b
        jr      z, wh2
        call    pstr
        call    pmsg
        db      ", $"
        jr      wh1
wh2:    ld      a, (hl)         ; skip the name
        inc     hl
        cp      '$'
        jr      nz, wh2
        jr      wh1
wh3:    call    pmsg
        db      "status $"
        ld      a, b
        call    phex
        ld      a, 'h'
        jp      putc

stnames:
        db      STWP, "write protected$"
        db      STRNF, "record not found$"
        db      STCRC, "CRC error$"
        db      STLOST, "lost data$"
        db      0

usage:  call    pmsg
        db      "FORMAT d: fmt  formats the floppy disk in drive d: (all its data is lost)", CR, LF
        db      "  AMP1  SS 48 tpi, 40 cylinders x 1 side x 10 x 512 bytes", CR, LF
        db      "  AMP2  DS 48 tpi, 40 cylinders x 2 sides x 10 x 512 bytes", CR, LF
        db      "  AMP3  SS 96 tpi, 80 cylinders x 1 side x 5 x 1024 bytes", CR, LF
        db      "  AMP4  DS 96 tpi, 80 cylinders x 2 sides x 5 x 1024 bytes", CR, LF
        db      "It asks for Y first, refuses A: when A: is the system floppy,", CR, LF
        db      "verifies every sector and leaves an empty directory; ^C stops it.", CR, LF, "$"
        jp      exit

; exit: back to the CCP (nothing was touched).
exit:   ld      sp, (ccpsp)
        ret

; pdrive: the drive letter and its colon.
pdrive: ld      a, (drive)
        add     a, 'A'-1
        call    putc
        ld      a, ':'
        jp      putc

; pdeca: A in decimal.
pdeca:  push    hl
        ld      l, a
        ld      h, 0
        call    pdec
        pop     hl
        ret

; sig: Z with HL = the BIOS's drive map when the BIOS is lbplus's 1.2 or
; later ("LB" at BIOS+33h, "DM" at BIOS+3Bh, the map's address after it).
sig:    ld      hl, (1)         ; BIOS+3
        ld      de, 33h-3
        add     hl, de
        ld      a, (hl)
        cp      'L'
        ret     nz
        inc     hl
        ld      a, (hl)
        cp      'B'
        ret     nz
        ld      de, 3Bh-34h
        add     hl, de
        ld      a, (hl)
        cp      'D'
        ret     nz
        inc     hl
        ld      a, (hl)
        cp      'M'
        ret     nz
        inc     hl
        ld      a, (hl)
        inc     hl
        ld      h, (hl)
        ld      l, a
        xor     a
        ret

; --- the track image --------------------------------------------------------

; build: the track in MFM as the WD1772 data sheet's formatting example
; lays it (docs/FLOPPY.md "Track layout"): gap 4a 80 x 4Eh, 12 x 00, the
; index mark (F6 writes C2 with a missing clock), gap 1 50 x 4Eh; per
; sector 12 x 00, F5 F5 F5 (A1 with a missing clock, CRC preset) FE, C H R
; N, F7 (the two CRC bytes), gap 2 22 x 4Eh, 12 x 00, F5 F5 F5 FB, the data
; (E5h), F7, gap 3; 4Eh to the index. Sectors in the format's physical
; order (interleave 2); idpos keeps where each C H pair is.
build:  ld      hl, trkbuf
        ld      de, trkbuf+1
        ld      bc, TRKLEN-1
        ld      (hl), 4Eh
        ldir
        ld      hl, trkbuf+80   ; after gap 4a
        ld      b, 12
        call    zeros
        ld      (hl), 0F6h
        inc     hl
        ld      (hl), 0F6h
        inc     hl
        ld      (hl), 0F6h
        inc     hl
        ld      (hl), 0FCh
        inc     hl
        ld      de, 50          ; gap 1
        add     hl, de
        ld      ix, idpos
        ld      de, (order)
        ld      a, (nsec)
        ld      b, a
bu1:    push    bc
        ld      b, 12
        call    zeros
        ld      c, 0FEh         ; ID address mark
        call    mark
        ld      (ix+0), l
        ld      (ix+1), h
        inc     ix
        inc     ix
        ld      (hl), 0         ; C, H: patch puts them in
        inc     hl
        ld      (hl), 0
        inc     hl
        ld      a, (de)         ; R
        inc     de
        ld      c, a
        ld      a, (first)
        add     a, c
        ld      (hl), a
        inc     hl
        ld      a, (sizec)      ; N
        ld      (hl), a
        inc     hl
        ld      (hl), 0F7h
        inc     hl
        ld      bc, 22          ; gap 2
        add     hl, bc
        ld      b, 12
        call    zeros
        ld      c, 0FBh         ; data address mark
        call    mark
        ld      bc, (secsize)
bu2:    ld      (hl), 0E5h
        inc     hl
        dec     bc
        ld      a, b
        or      c
        jr      nz, bu2
        ld      (hl), 0F7h
        inc     hl
        ld      a, (gap3)
        ld      c, a
        ld      b, 0
        add     hl, bc
        pop     bc
        djnz    bu1
        ret

zeros:  ld      (hl), 0
        inc     hl
        djnz    zeros
        ret

mark:   ld      b, 3
mk1:    ld      (hl), 0F5h
        inc     hl
        djnz    mk1
        ld      (hl), c
        inc     hl
        ret

; patch: the ID fields get this track's cylinder and head.
patch:  ld      ix, idpos
        ld      a, (nsec)
        ld      b, a
pa1:    ld      l, (ix+0)
        ld      h, (ix+1)
        ld      a, (cyl)
        ld      (hl), a
        inc     hl
        ld      a, (head)
        ld      (hl), a
        inc     ix
        inc     ix
        djnz    pa1
        ret

; --- the WD1772 -------------------------------------------------------------

; wtrack: Write Track A from the image. A byte waits at most one 62 T poll
; and goes out 38 T after its status read, inside the 128 T (32 us) a byte
; lasts on the disk, so interrupts are off for the command; the time-out's
; slower path (tick) never comes within a track: a whole command makes
; at most about 20 000 empty polls (19 679 seen in an AMP2 format) of the
; 65536 a unit. Z, or NZ with A = status
; (0FFh: it never ended: no disk, no index).
wtrack: ld      hl, trkbuf
        ld      c, FDDATW
        di
        out     (FDCMD), a
        call    settle
wt1:    in      a, (FDSTAT)     ; 11
        rrca                    ; 4  busy
        jr      nc, cmdend      ; 7
        rrca                    ; 4  DRQ
        jr      nc, wt2         ; 7
        outi                    ; 16
        jp      wt1             ; 10
wt2:    dec     de              ; 6
        ld      a, d            ; 4
        or      e               ; 4
        jp      nz, wt1         ; 10
        call    tick
        jp      nz, wt1
        jr      timeout

; rsector: Read Sector A into secbuf, the same way.
rsector:
        ld      hl, secbuf
        ld      c, FDDATR
        di
        out     (FDCMD), a
        call    settle
rs1:    in      a, (FDSTAT)
        rrca
        jr      nc, cmdend
        rrca
        jr      nc, rs2
        ini
        jp      rs1
rs2:    dec     de
        ld      a, d
        or      e
        jp      nz, rs1
        call    tick
        jp      nz, rs1
        jr      timeout

cmdend: ei
        in      a, (FDSTAT)
        and     STWP+STRNF+STCRC+STLOST
        ld      (status), a
        ret

; type1: Restore or Seek A, waited for. Z, or NZ with A = 0FFh (timed out:
; no disk, the motor never came up to speed).
type1:  out     (FDCMD), a
        call    settle
ty1:    in      a, (FDSTAT)
        rrca
        jr      nc, ty2
        dec     de
        ld      a, d
        or      e
        jr      nz, ty1
        call    tick
        jr      nz, ty1
        jr      timeout
ty2:    xor     a               ; no verify: no seek error
        ret

; timeout: end the command with Force Interrupt. NZ, A = 0FFh.
timeout:
        ei
        ld      a, FORCE
        out     (FDCMD), a
        ld      b, 20
to1:    djnz    to1
        in      a, (FDSTAT)
        xor     a
        ld      (status), a
        dec     a
        ret

; settle: the status is valid about 30 us after a command (the chip takes
; it 24 us after the write); the time-out starts: DE = 0, UNITS units.
settle: ld      a, UNITS
        ld      (units), a
        ld      de, 0
        ld      b, 14
se1:    djnz    se1
        ret

; tick: 65536 polls went by: NZ while units are left.
tick:   ld      a, (units)
        dec     a
        ld      (units), a
        ret

; verify: read every sector of the track in physical order (one turn:
; the next ID comes 41 bytes after a sector's data). Z, or NZ with A =
; status (0FFh timed out) and sect the sector.
verify: ld      hl, (order)
        ld      a, (nsec)
        ld      b, a
ve1:    push    bc
        push    hl
        ld      a, (first)
        add     a, (hl)
        ld      (sect), a
        out     (FDSECW), a
        ld      a, RSECTOR
        call    rsector
        pop     hl
        pop     bc
        ret     nz
        inc     hl
        djnz    ve1
        ret

; --- data -------------------------------------------------------------------

ampname: db     "AMP"

; The formats (docs/FLOPPY.md): cylinders, heads, sectors, size code N,
; first sector ID, gap 3 (docs/FLOPPY.md: the largest up to 84 that leaves
; 1.5 % of the turn free), the physical order (offsets from the first ID).
fmts:   db      40, 1, 10, 2, 1, 27
        dw      ord10
        db      40, 2, 10, 2, 17, 27
        dw      ord10
        db      80, 1, 5, 3, 1, 84
        dw      ord5
        db      80, 2, 5, 3, 17, 84
        dw      ord5
ord10:  db      0, 5, 1, 6, 2, 7, 3, 8, 4, 9
ord5:   db      0, 3, 1, 4, 2

cyls:   db      0               ; the chosen format (8 bytes, as fmts)
heads:  db      0
nsec:   db      0
sizec:  db      0
first:  db      0
gap3:   db      0
order:  dw      0
secsize: dw     0
drive:  db      0               ; 1 = A:
fmtno:  db      0               ; 0-3 = AMP1-AMP4
seldrv: db      0               ; port 00: ROM off, the drive's bit
cyl:    db      0
head:   db      0
sect:   db      0
wcmd:   db      0
status: db      0
written: db     0
units:  db      0
ccpsp:  dw      0
idpos:  ds      20, 0           ; where each sector's C H lie in the image
        ds      64, 0
stack:

trkbuf  equ     ($ + 0FFh) AND 0FF00h
secbuf  equ     trkbuf + TRKLEN
        end
