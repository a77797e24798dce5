; xfer.asm: XFER moves a file between CP/M and the host over the board's
; second serial port (DART channel B) by XMODEM (docs/CPM.md, XFER).
;
;   XFER R NAME.TYP     receive a file from the host's XMODEM sender
;   XFER S NAME.TYP     send a file to the host's XMODEM receiver
;
; The protocol, as docs/CPM.md describes it [F XMODEM]: blocks of SOH,
; block number, its complement, 128 data bytes and a checksum, or STX and
; 1024 data bytes; with CRC-16 (polynomial 1021h, high byte first) when
; the receiver asks for it with 'C' instead of NAK. ACK takes a block,
; NAK asks for it again, EOT ends the file, two CANs abandon it.
;
; Receiving, XFER asks for CRC ('C' every 3 s, ten times, then NAK for
; the checksum), takes 128- and 1024-byte blocks, ACKs a repeated block
; without storing it again, and writes each block when the next one has
; come. The last block loses its trailing records made only of ^Z (1Ah):
; the sender's padding; a partial record keeps its ^Z, CP/M's end of text.
; A failed receive deletes the partial file. Sending, XFER waits up to
; 60 s for 'C' (CRC, 1K blocks while eight records remain, then 128-byte
; blocks) or NAK (checksum, 128-byte blocks), tries a block ten times,
; and ends with EOT. Time-outs are counted by polling loops (0.1 s a
; TICK of 46 T-state passes at 4 MHz); ^C on the console gives up.
;
; DART B is used as the ROM and BIOS set it up (9600 baud, 8 bits, no
; parity, polled): data at 88h, control at 8Ch (docs/HARDWARE.md 1.3).

        org     100h
        jp      start

        include "cpmlib.inc"

DARTBD  equ     88h
DARTBC  equ     8Ch
SOH     equ     01h
STX     equ     02h
EOT     equ     04h
ACK     equ     06h
NAK     equ     15h
CAN     equ     18h
CPMEOF  equ     1Ah
TICK    equ     8696            ; 46 T-state passes in 0.1 s at 4 MHz

start:  ld      (oldsp), sp
        ld      sp, stack
        ld      a, (FCB2+1)     ; a file name, without wildcards
        cp      ' '
        jp      z, usage
        ld      hl, FCB2+1
        ld      b, 11
st1:    ld      a, (hl)
        cp      '?'
        jp      z, usage
        inc     hl
        djnz    st1
        ld      a, (FCB+2)      ; R or S, one letter
        cp      ' '
        jp      nz, usage
        ld      hl, FCB2
        ld      de, fcb
        ld      bc, 12
        ldir
        call    fcbclr
        ld      a, 30h          ; DART B: error reset
        out     (DARTBC), a
        call    drain
        ld      a, (FCB+1)
        ld      (mode), a
        cp      'R'
        jp      z, receive
        cp      'S'
        jp      z, send
usage:  call    pmsg
        db      "XFER R NAME.TYP receives a file over DART B (XMODEM, CRC, 1K)",CR,LF
        db      "XFER S NAME.TYP sends one$"
        call    crlf
finish: ld      sp, (oldsp)
        ret

; fcbclr: the FCB's extent, record counts and map to zero.
fcbclr: ld      hl, fcb+12
        ld      b, 24
        xor     a
fc1:    ld      (hl), a
        inc     hl
        djnz    fc1
        ret

; ---------------------------------------------------------------------------
; Receiving.
receive:
        ld      de, fcb         ; an existing file is replaced
        ld      c, 19
        call    BDOS
        call    fcbclr
        ld      de, fcb
        ld      c, 22
        call    BDOS
        inc     a
        ld      hl, mdir
        jp      z, fatal
        ld      a, 1
        ld      (opened), a
        ld      (crcm), a
        ld      (expect), a
        call    pmsg
        db      "XFER: receiving $"
        call    pname
        call    pmsg
        db      ": start the XMODEM sender (^C gives up)$"
        call    crlf
        ld      b, 20           ; 10 'C' then 10 NAK, 3 s apart
rs1:    ld      a, b
        cp      10
        jr      nz, rs2
        xor     a               ; no answer to 'C': checksum
        ld      (crcm), a
        ld      a, NAK
        ld      (ask), a
rs2:    ld      a, (ask)
        call    sendc
        ld      e, 30
        call    recv
        jr      nc, rgot
        djnz    rs1
        ld      hl, mnost
        jp      abort

rnext:  ld      e, 100          ; 10 s for the next block
        call    recv
        jr      nc, rgot
rbad:   call    purge           ; a time-out, noise or a damaged block
        ld      hl, errs
        inc     (hl)
        ld      a, (hl)
        cp      10
        ld      hl, merrs
        jp      nc, abort
        ld      a, (ask)
        call    sendc
        jr      rnext
rgot:   cp      SOH
        jr      z, r128
        cp      STX
        jr      z, r1k
        cp      EOT
        jp      z, reot
        cp      CAN
        jr      nz, rbad
        ld      e, 10           ; CAN: a second one abandons
        call    recv
        jr      c, rnext
        cp      CAN
        jp      z, cancelled
        jr      rgot
r128:   ld      hl, 128
        ld      a, 1
        jr      rblk
r1k:    ld      hl, 1024
        ld      a, 8
rblk:   ld      (blen), hl
        ld      (brecs), a
        call    getblk
        jr      c, rbad
        ld      b, a
        ld      a, (expect)
        cp      b
        jr      z, rnew
        dec     a
        cp      b
        ld      hl, mseq
        jp      nz, abort       ; neither this block nor the last one
        ld      a, ACK          ; the last one again: our ACK was lost
        call    sendc
        jr      rnext
rnew:   call    wrheld          ; the block before this one to the disk
        ld      hl, (rbuf)      ; this one is held
        ld      de, (hbuf)
        ld      (hbuf), hl
        ld      (rbuf), de
        ld      a, (brecs)
        ld      (hrecs), a
        ld      hl, expect
        inc     (hl)
        ld      hl, (blocks)
        inc     hl
        ld      (blocks), hl
        xor     a
        ld      (errs), a
        ld      a, NAK
        ld      (ask), a
        ld      a, ACK
        call    sendc
        jp      rnext

; EOT: the held block without its trailing all-^Z records, then close.
reot:   ld      a, (hrecs)
        ld      b, a
rz1:    ld      a, b
        or      a
        jr      z, rz4          ; all padding
        dec     a               ; HL = the record B-1 of the held block
        ld      h, 0
        ld      l, a
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        add     hl, hl
        ld      de, (hbuf)
        add     hl, de
        ld      c, 128
rz2:    ld      a, (hl)
        cp      CPMEOF
        jr      nz, rz3
        inc     hl
        dec     c
        jr      nz, rz2
        dec     b               ; only ^Z: padding
        jr      rz1
rz3:    ld      a, b
        ld      (hrecs), a
        call    wrheld
rz4:    ld      de, fcb
        ld      c, 16
        call    BDOS
        inc     a
        ld      hl, mclose
        jp      z, abort
        xor     a
        ld      (opened), a
        ld      a, ACK
        call    sendc
        call    pmsg
        db      "XFER: received $"
        ld      hl, (blocks)
        call    pdec
        call    pmsg
        db      " blocks, $"
        ld      hl, (nrecs)
        call    pdec
        call    pmsg
        db      " records written$"
        call    crlf
        jp      finish

; wrheld: the held block's (hrecs) records to the file.
wrheld: ld      a, (hrecs)
        or      a
        ret     z
        ld      b, a
        ld      hl, (hbuf)
wh1:    push    bc
        push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, fcb
        ld      c, 21
        call    BDOS
        pop     hl
        pop     bc
        or      a
        jr      nz, whfull
        ld      de, 128
        add     hl, de
        push    hl
        ld      hl, (nrecs)
        inc     hl
        ld      (nrecs), hl
        pop     hl
        djnz    wh1
        xor     a
        ld      (hrecs), a
        ret
whfull: ld      hl, mfull
        jp      abort

; getblk: the rest of a block after its first byte, its (blen) data bytes
; into (rbuf). Carry set when a byte did not come within 1 s, or the
; number and its complement disagree, or the CRC or checksum is wrong;
; else A = the block number.
getblk: call    getb1
        ret     c
        ld      (bnum), a
        call    getb1
        ret     c
        ld      b, a
        ld      a, (bnum)
        add     a, b
        inc     a               ; number + complement = FFh
        ld      (bcomp), a
        ld      hl, 0
        ld      (crc), hl
        xor     a
        ld      (sum), a
        ld      hl, (rbuf)
        ld      bc, (blen)
gb1:    call    getb1
        ret     c
        ld      (hl), a
        call    crcup
        inc     hl
        dec     bc
        ld      a, b
        or      c
        jr      nz, gb1
        ld      a, (crcm)
        or      a
        jr      z, gb2
        call    getb1
        ret     c
        ld      d, a
        call    getb1
        ret     c
        ld      e, a
        ld      hl, (crc)
        or      a
        sbc     hl, de
        jr      nz, gbbad
        jr      gb3
gb2:    call    getb1
        ret     c
        ld      d, a
        ld      a, (sum)
        cp      d
        jr      nz, gbbad
gb3:    ld      a, (bcomp)
        or      a
        jr      nz, gbbad
        ld      a, (bnum)
        ret                     ; carry clear (OR A above)
gbbad:  scf
        ret
getb1:  ld      e, 10
        jp      recv

; ---------------------------------------------------------------------------
; Sending.
send:   ld      de, fcb
        ld      c, 15
        call    BDOS
        inc     a
        ld      hl, mnofile
        jp      z, fatal
        call    pmsg
        db      "XFER: sending $"
        call    pname
        call    pmsg
        db      ": start the XMODEM receiver (^C gives up)$"
        call    crlf
        ld      b, 60           ; 60 s for 'C' or NAK
ss1:    ld      e, 10
        call    recv
        jr      c, ss2
        cp      'C'
        jr      z, ss3
        cp      NAK
        jr      z, ss4
        cp      CAN
        jr      nz, ss1
        ld      e, 10
        call    recv
        jr      c, ss2
        cp      CAN
        jp      z, cancelled
        jr      ss1
ss2:    djnz    ss1
        ld      hl, mnost
        jp      abort
ss3:    ld      a, 1            ; CRC and 1K blocks
        jr      ss5
ss4:    xor     a               ; checksum, 128-byte blocks
ss5:    ld      (crcm), a
        ld      a, 1
        ld      (bnum), a
snext:  ld      a, (crcm)       ; up to 8 records (CRC) or 1
        or      a
        ld      b, 1
        jr      z, sn1
        ld      b, 8
sn1:    call    rdrecs
        or      a
        jr      z, seot
        cp      8
        jr      nz, sn2
        ld      hl, 1024
        ld      de, buf1
        ld      a, STX
        call    sblock
        jr      snext
sn2:    ld      b, a            ; the last records, 128 bytes a block
        ld      de, buf1
sn3:    push    bc
        push    de
        ld      hl, 128
        ld      a, SOH
        call    sblock
        pop     hl
        ld      de, 128
        add     hl, de
        ex      de, hl
        pop     bc
        djnz    sn3
        jr      snext

seot:   ld      b, 10
se1:    ld      a, EOT
        call    sendc
        ld      e, 100
        call    recv
        jr      c, se2
        cp      ACK
        jr      z, se3
se2:    djnz    se1
        ld      hl, meot
        jp      abort
se3:    call    pmsg
        db      "XFER: sent $"
        ld      hl, (blocks)
        call    pdec
        call    pmsg
        db      " blocks$"
        call    crlf
        jp      finish

; rdrecs: up to B records of the file into buf1; A = how many.
rdrecs: ld      hl, buf1
        ld      c, 0
rr1:    push    bc
        push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, fcb
        ld      c, 20
        call    BDOS
        pop     hl
        pop     bc
        or      a
        jr      nz, rr2         ; the end of the file
        inc     c
        ld      de, 128
        add     hl, de
        djnz    rr1
rr2:    ld      a, c
        ret

; sblock: send block number (bnum) with header A and HL bytes from DE,
; until the receiver ACKs it (ten tries); then the next number.
sblock: ld      (shdr), a
        ld      (slen), hl
        ld      (sdat), de
        ld      a, 10
        ld      (tries), a
sb1:    call    drain
        ld      a, (shdr)
        call    sendc
        ld      a, (bnum)
        call    sendc
        cpl
        call    sendc
        ld      hl, 0
        ld      (crc), hl
        xor     a
        ld      (sum), a
        ld      hl, (sdat)
        ld      bc, (slen)
sb2:    ld      a, (hl)
        call    sendc
        call    crcup           ; while the byte goes out
        inc     hl
        dec     bc
        ld      a, b
        or      c
        jr      nz, sb2
        ld      a, (crcm)
        or      a
        jr      z, sb3
        ld      a, (crc+1)
        call    sendc
        ld      a, (crc)
        call    sendc
        jr      sb4
sb3:    ld      a, (sum)
        call    sendc
sb4:    ld      e, 100          ; 10 s for the answer
        call    recv
        jr      c, sb6
        cp      ACK
        jr      z, sb7
        cp      NAK
        jr      z, sb6
        cp      CAN
        jr      z, sb5
        cp      'C'             ; on the first block: as NAK
        jr      nz, sb4
        ld      a, (bnum)
        cp      1
        jr      nz, sb4
        ld      a, (blocks)
        or      a
        jr      nz, sb4
        jr      sb6
sb5:    ld      e, 10
        call    recv
        jr      c, sb4
        cp      CAN
        jp      z, cancelled
        jr      sb4
sb6:    ld      hl, tries
        dec     (hl)
        jp      nz, sb1
        ld      hl, merrs
        jp      abort
sb7:    ld      hl, bnum
        inc     (hl)
        ld      hl, (blocks)
        inc     hl
        ld      (blocks), hl
        ret

; ---------------------------------------------------------------------------
; DART B.

; sendc: A out on DART B when its transmit buffer is empty (keeps all
; registers but F).
sendc:  push    af
sc1:    in      a, (DARTBC)
        and     4
        jr      z, sc1
        pop     af
        out     (DARTBD), a
        ret

; recv: the next byte from DART B within E tenths of a second (E > 0):
; carry clear and A = the byte, or carry set at the time-out. ^C on the
; console gives up. Keeps BC, DE, HL.
recv:   push    hl
        push    de
rv1:    ld      hl, TICK
rv2:    in      a, (DARTBC)     ; 11 T
        rra                     ; 4
        jr      c, rv3          ; 7
        dec     hl              ; 6
        ld      a, h            ; 4
        or      l               ; 4
        jp      nz, rv2         ; 10: 46 T a pass
        call    chkbrk
        dec     e
        jr      nz, rv1
        pop     de
        pop     hl
        scf
        ret
rv3:    in      a, (DARTBD)
        pop     de
        pop     hl
        or      a
        ret

; purge: read until the line has been quiet for 1 s.
purge:  ld      e, 10
        call    recv
        jr      nc, purge
        ret

; drain: drop what the receiver holds now.
drain:  in      a, (DARTBC)
        rra
        ret     nc
        in      a, (DARTBD)
        jr      drain

; chkbrk: a key on the console, if ^C, gives up (keeps all but A, F).
chkbrk: push    bc
        push    de
        push    hl
        ld      c, 6
        ld      e, 0FFh
        call    BDOS
        pop     hl
        pop     de
        pop     bc
        cp      3
        ret     nz
        ld      hl, mbrk
        jr      abort

; crcup: A into the CRC-16 at (crc) (polynomial 1021h, XMODEM's) and into
; the checksum at (sum). Keeps all registers.
crcup:  push    af
        push    bc
        push    hl
        ld      c, a
        ld      a, (sum)
        add     a, c
        ld      (sum), a
        ld      hl, (crc)
        ld      a, c
        xor     h
        ld      h, a
        ld      b, 8
cu1:    add     hl, hl
        jr      nc, cu2
        ld      a, h
        xor     10h
        ld      h, a
        ld      a, l
        xor     21h
        ld      l, a
cu2:    djnz    cu1
        ld      (crc), hl
        pop     hl
        pop     bc
        pop     af
        ret

; ---------------------------------------------------------------------------
; Endings.

cancelled:
        ld      hl, mcan
        jr      fatal
; abort: tell the host with CANs, then as fatal.
abort:  ld      sp, stack
        ld      b, 3
ab1:    ld      a, CAN
        call    sendc
        djnz    ab1
; fatal: the message at HL; a file being received is deleted.
fatal:  ld      sp, stack
        push    hl
        ld      a, (opened)
        or      a
        jr      z, fa1
        xor     a
        ld      (opened), a
        ld      de, fcb
        ld      c, 16
        call    BDOS
        call    fcbclr
        ld      de, fcb
        ld      c, 19
        call    BDOS
fa1:    call    pmsg
        db      "XFER: $"
        pop     hl
        call    pstr
        call    crlf
        jp      finish

; pname: the file's name.
pname:  ld      hl, fcb+1
        ld      b, 8
        call    pn1
        ld      a, '.'
        call    putc
        ld      b, 3
pn1:    ld      a, (hl)
        inc     hl
        cp      ' '
        call    nz, putc
        djnz    pn1
        ret

mdir:   db      "no directory space$"
mnost:  db      "the host did not start$"
merrs:  db      "too many errors, given up$"
mseq:   db      "a block out of sequence, given up$"
mfull:  db      "disk full, given up$"
mclose: db      "cannot close the file$"
mnofile: db     "no such file$"
meot:   db      "the end (EOT) was not acknowledged$"
mcan:   db      "cancelled by the host$"
mbrk:   db      "given up (^C)$"

oldsp:  dw      0
mode:   db      0
opened: db      0               ; 1 while a received file is open
crcm:   db      0               ; 1: CRC-16, 0: checksum
ask:    db      'C'             ; sent for a block again: 'C' until one came, then NAK
expect: db      1               ; the next block's number
errs:   db      0
bnum:   db      0
bcomp:  db      0
blen:   dw      0
brecs:  db      0
hrecs:  db      0               ; records in the held block (0: none)
rbuf:   dw      buf1
hbuf:   dw      buf2
blocks: dw      0
nrecs:  dw      0
crc:    dw      0
sum:    db      0
shdr:   db      0
slen:   dw      0
sdat:   dw      0
tries:  db      0
fcb:    ds      36
        ds      96
stack   equ     $
buf1    equ     stack
buf2    equ     buf1+1024
