; lbplus boot monitor for the Ampro Little Board/PLUS (4 KB ROM at 0000h).
;
; Sets the CTC for 9600 baud on both DART channels, polls DART channel A
; (the console) and offers, one command per line (hex numbers, any case):
;
;   D addr [count]      dump memory (whole lines of 16 bytes, default 80h)
;   S addr bb bb ...    store bytes from addr on
;   I port              read an I/O port (16-bit: high byte goes on A8-A15)
;   O port bb           write an I/O port
;   G addr              call addr; a RET comes back to the monitor
;   B [id]              boot from SCSI target id 0-7 (default 0), see scsiboot
;   H                   help
;   :llaaaatt...cc      an Intel HEX record, typed or pasted
;
; Intel HEX: data records (type 00) are stored as they arrive; the other
; record types are checked and ignored, and the end record (01) reports the
; byte count. A record line is echoed with a bare CR and no prompt follows
; it, so the monitor never sends more than it receives and a paste at full
; line speed cannot overrun the DART's three-byte receive FIFO.
;
; Memory use: stack below 0000h (top of RAM), line buffer and variables at
; FD00h-FEFFh. The ROM overlays 0000h-0FFFh; writes there reach the RAM
; beneath, so a program can be loaded anywhere.

CTC0    equ 40h             ; CTC channel 0: ZC/TO0 clocks DART A
CTC1    equ 50h             ; CTC channel 1: ZC/TO1 clocks DART B
DARTAD  equ 80h             ; DART A data
DARTAC  equ 84h             ; DART A control
DARTBD  equ 88h             ; DART B data
DARTBC  equ 8Ch             ; DART B control
CTCCNT  equ 57h             ; counter mode, rising edge, TC follows, reset
BAUDTC  equ 13              ; 2 MHz / 13 / 16 = 9615 baud

STACK   equ 0               ; first push lands at FFFEh
SCRATCH equ 0FD00h          ; payload of non-data HEX records (<= 255 bytes)
VARS    equ 0FE00h
hexcnt  equ VARS            ; bytes stored by HEX data records (2 bytes)
hextmp  equ VARS+2          ; hbyte's high nibble
hexlen  equ VARS+3          ; length byte of the current record
LINE    equ 0FE80h          ; command line buffer
LINELEN equ 78

BOOTADR equ 8000h           ; where scsiboot loads block 0
BLKSIZE equ 512             ; the one block size scsiboot boots from

; SCSI variables (scmd, scsiboot)
ssp     equ VARS+8          ; SP at scmd entry: errors return from there
scdb    equ VARS+10         ; next CDB byte
sbuf    equ VARS+12         ; next DATA IN store address
slim    equ VARS+14         ; room left in the buffer
scnt    equ VARS+16         ; DATA IN bytes the target sent
sstat   equ VARS+18         ; status byte (0FFh: none)
btgt    equ VARS+19         ; boot target ID
SENSE   equ VARS+20         ; REQUEST SENSE data (SENSELEN bytes)
SENSELEN equ 4              ; the ACB-4000's non-extended sense

; NCR 5380 (REFERENCE.md 1.3, 3.1). The monitor drives it by programmed
; I/O only, so booting needs no code outside this ROM.
NCRDATA equ 20h             ; r: current SCSI data   w: output data
NCRICR  equ 21h             ; initiator command
NCRMR   equ 22h             ; mode
NCRTCR  equ 23h             ; target command (expected phase)
NCRCSB  equ 24h             ; r: current bus status  w: select enable
NCRRPI  equ 27h             ; r: reset parity/interrupt
NCRID   equ 29h             ; r: bits 0-2 our SCSI ID (J9 jumpers)
ICRRST  equ 80h
ICRACK  equ 10h
ICRSEL  equ 04h
ICRDBUS equ 01h
CSBBSY  equ 40h
CSBREQ  equ 20h
CSBSEL  equ 02h
PHDIN   equ 1               ; phases as MSG C/D I/O
PHCMD   equ 2
PHSTAT  equ 3
PHMIN   equ 7
; Selection waits SELPOLLS polls of 51 T: 19600 x 12.75 us = 250 ms, the
; SCSI-1 selection timeout [F SCSI-T].
SELPOLLS equ 19600
; Any other wait for the target gives up after REQUNITS x 65536 polls of
; 70 T (1.15 s each) [A]: far beyond a seek and a rotation of the ST-125.
REQUNITS equ 5

CR      equ 0Dh
LF      equ 0Ah
BS      equ 08h
DEL     equ 7Fh

        org 0
reset:  di
        ld sp,STACK
        jp init

        ds 38h-$,0FFh
rst38:  ei                  ; stray IM 1 interrupt: ignore it
        reti

        ds 66h-$,0FFh
nmi:    retn

init:   ld hl,iotab
        ld b,IOTABN
initio: ld c,(hl)
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        djnz initio
        ld hl,0
        ld (hexcnt),hl
        ld hl,banner
        call puts

prompt: ld hl,promptmsg
        call puts
cmdline:
        ld sp,STACK
        call getline
        call skipsp
        ld a,(hl)
        or a
        jr z,prompt
        cp ':'
        jp z,hexrec
        inc hl
        ld c,a
        ld de,cmdtab
lookup: ld a,(de)
        or a
        jr z,badcmd
        cp c
        jr z,found
        inc de
        inc de
        inc de
        jr lookup
found:  inc de
        ld a,(de)
        ld c,a
        inc de
        ld a,(de)
        ld b,a
        push bc             ; the handler's address; HL = rest of the line
        ret

badcmd: ld hl,whatmsg
        call puts
        jr prompt

synerr: ld hl,synmsg
        call puts
        jr prompt

; Each entry: command letter, handler address. Entry 'B' is the SCSI boot
; slot (see scsiboot).
cmdtab: db 'D'
        dw cmd_d
        db 'S'
        dw cmd_s
        db 'I'
        dw cmd_i
        db 'O'
        dw cmd_o
        db 'G'
        dw cmd_g
        db 'B'
        dw cmd_b
        db 'H'
        dw cmd_h
        db '?'
        dw cmd_h
        db 0

; D addr [count]
cmd_d:  call gethex
        jr c,synerr
        push de
        call gethex
        jr nc,dcount
        ld de,80h
dcount: ld hl,15
        add hl,de
        ld b,4
dshift: srl h
        rr l
        djnz dshift
        ld b,h
        ld c,l
        pop hl
        ld a,b
        or c
        jp z,prompt
dline:  call phex16
        ld a,':'
        call putc
        push hl
        ld e,16
dbyte:  ld a,' '
        call putc
        ld a,(hl)
        call phex8
        inc hl
        dec e
        jr nz,dbyte
        ld a,' '
        call putc
        call putc
        pop hl
        ld e,16
dascii: ld a,(hl)
        cp ' '
        jr c,ddot
        cp DEL
        jr c,dshow
ddot:   ld a,'.'
dshow:  call putc
        inc hl
        dec e
        jr nz,dascii
        call crlf
        dec bc
        ld a,b
        or c
        jr nz,dline
        jp prompt

; S addr bb bb ...
cmd_s:  call gethex
        jp c,synerr
        push de             ; destination, swapped with the line pointer
sbyte:  call gethex
        jr c,send
        ld a,e
        ex (sp),hl
        ld (hl),a
        inc hl
        ex (sp),hl
        jr sbyte
send:   pop de
        ld a,(hl)
        or a
        jp nz,synerr
        jp prompt

; I port
cmd_i:  call gethex
        jp c,synerr
        ld b,d
        ld c,e
        in a,(c)
        call phex8
        call crlf
        jp prompt

; O port bb
cmd_o:  call gethex
        jp c,synerr
        push de
        call gethex
        pop bc
        jp c,synerr
        ld a,e
        out (c),a
        jp prompt

; G addr
cmd_g:  call gethex
        jp c,synerr
        ex de,hl
        call jphl
        jp prompt
jphl:   jp (hl)

; B [id]
cmd_b:  call gethex
        jr nc,bid
        ld e,0
bid:    ld a,d
        or a
        jp nz,synerr
        ld a,e
        cp 8
        jp nc,synerr
        jp scsiboot

; scsiboot: boot from SCSI (the protocol is docs/BOOT.md).
; Entry: A = target ID 0-7. Select target A (initiator ID from port 29h),
; send READ(6) of logical block 0, LUN 0, one block; store the DATA IN bytes
; at BOOTADR; take STATUS and MESSAGE IN. If the status is GOOD, exactly
; BLKSIZE bytes came and the block is not blank (all one byte value, as a
; freshly formatted disk), jump to BOOTADR with A = target ID, interrupts
; off, the ROM still mapped (the boot program switches it out with port 00
; bit 6) and SP = 0FFFEh holding the address of the monitor prompt, so a RET
; comes back here. On any failure print why and return to the prompt.
scsiboot:
        ld (btgt),a
        ld hl,bootmsg
        call puts
        ld a,(btgt)
        call phexn
        call crlf
        ld a,(btgt)
        ld hl,readcdb
        ld de,BOOTADR
        ld bc,BLKSIZE
        call scmd
        jr c,berr
        and 1Eh             ; status code (bits 1-4; the rest vendor/reserved)
        jr z,bgood
        cp 2
        jr z,bcheck
        ld hl,statmsg
        call bfail
        ld a,(sstat)
        call phex8
        jp bnl
bcheck: ld a,(btgt)         ; CHECK CONDITION: ask why
        ld hl,sensecdb
        ld de,SENSE
        ld bc,SENSELEN
        call scmd
        push af
        ld hl,checkmsg
        call bfail
        pop af
        jr c,bnl            ; no sense to show
        ld hl,sensemsg
        call puts
        ld hl,(scnt)        ; show what came, at most SENSELEN bytes
        ld a,h
        or a
        jr nz,bsall
        ld a,l
        cp SENSELEN+1
        jr c,bsn
bsall:  ld a,SENSELEN
bsn:    or a
        jr z,bnl
        ld b,a
        ld hl,SENSE
bsloop: ld a,' '
        call putc
        ld a,(hl)
        call phex8
        inc hl
        djnz bsloop
bnl:    call crlf
        jp prompt
berr:   call bfail          ; HL = scmd's message
        jr bnl
bgood:  ld hl,(scnt)
        ld de,-BLKSIZE
        add hl,de
        ld a,h
        or l
        jr z,bfull
        ld hl,shortmsg
        call bfail
        ld hl,(scnt)
        call phex16
        ld hl,wantmsg
        call puts
        jr bnl
bfull:  ld hl,BOOTADR       ; blank block: nothing to run
        ld a,(hl)
        ld b,0              ; 256 x 2 bytes = BLKSIZE
bblank: cp (hl)
        jr nz,bgo
        inc hl
        cp (hl)
        jr nz,bgo
        inc hl
        djnz bblank
        ld hl,blankmsg
        call bfail
        jr bnl
bgo:    ld sp,STACK
        ld hl,prompt
        push hl
        ld a,(btgt)
        jp BOOTADR

; bfail: print "SCSI n: " and the message at HL (no line end).
bfail:  push hl
        ld hl,scsimsg
        call puts
        ld a,(btgt)
        call phexn
        ld a,':'
        call putc
        ld a,' '
        call putc
        pop hl
        jp puts

readcdb:
        db 08h,0,0,0,1,0    ; READ(6) LUN 0, block 0, one block
sensecdb:
        db 03h,0,0,0,SENSELEN,0 ; REQUEST SENSE LUN 0

; scmd: run one 6-byte SCSI command as initiator by programmed I/O: no
; arbitration and no ATN/IDENTIFY (single initiator, SASI style, as FUZIX
; drives this board and the ACB-4000 accepts).
; In:  A = target ID, HL = CDB, DE = buffer, BC = buffer size.
; Out: CF=0: the target went bus free after COMMAND COMPLETE; A = (sstat) =
;      status byte, (scnt) = DATA IN bytes sent (only BC of them stored).
;      CF=1: HL = error message; after a timeout or a phase the monitor
;      cannot serve the bus has been reset (RST) so the target lets go.
; Clobbers everything but IX and IY.
scmd:   ld (ssp),sp
        ld (scdb),hl
        ld (sbuf),de
        ld (slim),bc
        ld hl,0
        ld (scnt),hl
        ld c,a              ; C = target ID
        ld a,0FFh
        ld (sstat),a
        xor a
        out (NCRMR),a
        out (NCRTCR),a
        out (NCRICR),a
        out (NCRCSB),a      ; select enable off: no reselection
        in a,(NCRMR)        ; a 5380 reads its mode back
        or a
        ld hl,no5380msg
        jp nz,serr
        in a,(NCRRPI)       ; clear a pending interrupt
        in a,(NCRID)
        and 7
        cp c
        ld hl,ownidmsg
        jp z,serr
        call idbit
        ld b,a
        ld a,c
        call idbit
        or b
        ld b,a              ; B = our ID bit + the target's
        ld hl,0             ; 65536 polls for bus free
sfree:  in a,(NCRCSB)
        and CSBBSY+CSBSEL
        jr z,ssel
        dec hl
        ld a,h
        or l
        jr nz,sfree
        ld hl,busymsg
        jp serr
ssel:   ld a,b
        out (NCRDATA),a
        ld a,ICRDBUS
        out (NCRICR),a
        ld a,ICRDBUS+ICRSEL
        out (NCRICR),a
        ld hl,SELPOLLS
ssel1:  in a,(NCRCSB)       ; 11
        and CSBBSY          ; 7
        jr nz,ssel2         ; 7
        dec hl              ; 6
        ld a,h              ; 4
        or l                ; 4
        jr nz,ssel1         ; 12
        xor a               ; nobody: take SEL and the IDs off the bus
        out (NCRICR),a
        ld hl,noselmsg
        jp serr
ssel2:  xor a               ; the target holds BSY: release SEL and data
        out (NCRICR),a

; Information phases, as the target asks for them.
sphase: call swreq          ; A = CSB with REQ
        rrca
        rrca
        and 7               ; MSG C/D I/O
        out (NCRTCR),a      ; match it, so the 5380 drives data when it should
        cp PHCMD
        jr z,spcmd
        cp PHDIN
        jr z,spdin
        cp PHSTAT
        jr z,spstat
        cp PHMIN
        jr z,spmin
        ld hl,phasemsg      ; DATA OUT, MESSAGE OUT: nothing to send
        jp sabort
spcmd:  ld hl,(scdb)
        ld a,(hl)
        inc hl
        ld (scdb),hl
        call sout
        jr sphase
spdin:  call sin
        ld hl,(scnt)
        inc hl
        ld (scnt),hl
        ld hl,(slim)
        ld a,h
        or l
        jr z,sphase         ; buffer full: count the byte, drop it
        dec hl
        ld (slim),hl
        ld hl,(sbuf)
        ld (hl),c
        inc hl
        ld (sbuf),hl
        jr sphase
spstat: call sin
        ld (sstat),a
        jr sphase
spmin:  call sin
        or a
        jr nz,sphase        ; not COMMAND COMPLETE: keep serving the target
        ld hl,0             ; the target goes bus free
spmin1: in a,(NCRCSB)
        and CSBBSY
        jr z,spdone
        dec hl
        ld a,h
        or l
        jr nz,spmin1
        ld hl,tmomsg
        jp sabort
spdone: ld a,(sstat)        ; CF=0 from AND
        ret

; swreq: wait for REQ while the target holds BSY. A = CSB.
swreq:  ld b,REQUNITS
        ld hl,0
swreq1: in a,(NCRCSB)       ; 11
        ld c,a              ; 4
        and CSBREQ          ; 7
        jr nz,swreq2        ; 7
        bit 6,c             ; 8  CSBBSY
        jr z,swlost         ; 7
        dec hl              ; 6
        ld a,h              ; 4
        or l                ; 4
        jr nz,swreq1        ; 12
        djnz swreq1
        ld hl,tmomsg
        jr sabort
swreq2: ld a,c
        ret
swlost: ld hl,lostmsg
        jr serr

; sin: take the byte the target offers (REQ seen, TCR set): A = C = byte.
sin:    in a,(NCRDATA)
        ld c,a
        ld a,ICRACK
        out (NCRICR),a
        call swnreq
        xor a
        out (NCRICR),a
        ld a,c
        ret

; sout: give the target A (REQ seen, TCR set).
sout:   out (NCRDATA),a
        ld a,ICRDBUS
        out (NCRICR),a
        ld a,ICRDBUS+ICRACK
        out (NCRICR),a
        call swnreq
        xor a
        out (NCRICR),a
        ret

; swnreq: wait for REQ to fall after our ACK. Keeps C.
swnreq: ld hl,0
swnrq1: in a,(NCRCSB)
        and CSBREQ
        ret z
        dec hl
        ld a,h
        or l
        jr nz,swnrq1
        ld hl,tmomsg
        ; fall through to sabort

; sabort: reset the SCSI bus (RST for at least the 25 us reset hold time
; [F SCSI-T]), then fail with the message at HL.
sabort: ld a,ICRRST
        out (NCRICR),a
        ld b,20             ; 20 x 13 T = 65 us
sabrt1: djnz sabrt1
        xor a
        out (NCRICR),a
        out (NCRTCR),a
        in a,(NCRRPI)
; serr: fail with the message at HL, from scmd's own level.
serr:   ld sp,(ssp)
        scf
        ret

; idbit: A = 1 << (A & 7). Clobbers E.
idbit:  and 7
        ld e,a
        ld a,1
        inc e
idbit1: dec e
        ret z
        add a,a
        jr idbit1

cmd_h:  ld hl,helpmsg
        call puts
        jp prompt

; Intel HEX record at HL (':' already seen). B count, C checksum, DE address.
hexrec: inc hl
        ld c,0
        call hbyte
        ld b,a
        ld (hexlen),a
        call hbyte
        ld d,a
        call hbyte
        ld e,a
        call hbyte
        or a
        jr z,hdata
        ld de,SCRATCH       ; other record types: check, then ignore
hdata:  push af
hloop:  ld a,b
        or a
        jr z,hsum
        call hbyte
        ld (de),a
        inc de
        dec b
        jr hloop
hsum:   call hbyte          ; checksum: the sum of all bytes is zero
        ld a,c
        or a
        jr nz,herr
        ld a,(hl)
        or a
        jr nz,herr
        pop af              ; record type
        or a
        jr nz,hnotdata
        ld hl,(hexcnt)
        ld a,(hexlen)
        ld e,a
        ld d,0
        add hl,de
        ld (hexcnt),hl
        jp cmdline          ; no prompt: keep pace with a paste
hnotdata:
        cp 1
        jp nz,cmdline
        call crlf
        ld hl,(hexcnt)
        call phex16
        ld hl,loadedmsg
        call puts
        ld hl,0
        ld (hexcnt),hl
        jp prompt
herr:   ld hl,hexerrmsg
        call puts
        ld hl,0
        ld (hexcnt),hl
        jp prompt

; hbyte: A = the byte whose two hex digits are at HL; HL += 2; C += A.
hbyte:  call hexdig
        jr c,hbad
        add a,a
        add a,a
        add a,a
        add a,a
        ld (hextmp),a
        inc hl
        call hexdig
        jr c,hbad
        inc hl
        push hl
        ld hl,hextmp
        or (hl)
        pop hl
        push af
        add a,c
        ld c,a
        pop af
        ret
hbad:   jr herr             ; prompt resets the stack

; getline: read a line into LINE (upper-cased, zero-terminated), echoing;
; BS/DEL erase. Returns HL = LINE.
getline:
        ld hl,LINE
        ld b,0
glnext: call getc
        cp CR
        jr z,glend
        cp BS
        jr z,glerase
        cp DEL
        jr z,glerase
        cp ' '
        jr c,glnext         ; other control characters (and LF) ignored
        ld c,a
        ld a,b
        cp LINELEN
        jr nc,glnext        ; line full
        ld a,c
        call putc
        cp 'a'
        jr c,glstore
        cp 'z'+1
        jr nc,glstore
        sub 20h
glstore:
        ld (hl),a
        inc hl
        inc b
        jr glnext
glerase:
        ld a,b
        or a
        jr z,glnext
        dec hl
        dec b
        ld a,BS
        call putc
        ld a,' '
        call putc
        ld a,BS
        call putc
        jr glnext
glend:  ld (hl),0
        call putc           ; A = CR
        ld a,(LINE)
        cp ':'
        jr z,glret          ; HEX record: bare CR
        ld a,LF
        call putc
glret:  ld hl,LINE
        ret

; skipsp: advance HL past spaces.
skipsp: ld a,(hl)
        cp ' '
        ret nz
        inc hl
        jr skipsp

; gethex: DE = hex number at HL (after spaces), HL past it. Carry if none.
gethex: call skipsp
        ld de,0
        call hexdig
        ret c
ghnext: ex de,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        or l
        ld l,a
        ex de,hl
        inc hl
        call hexdig
        jr nc,ghnext
        or a
        ret

; hexdig: A = value of the hex digit at HL, no carry; carry if not a digit.
hexdig: ld a,(hl)
        cp '0'
        ret c
        cp '9'+1
        jr c,hd09
        cp 'A'
        ret c
        cp 'F'+1
        ccf
        ret c
        sub 'A'-10
        ret
hd09:   sub '0'
        ret

; Console I/O by polling DART channel A.
putc:   push af
putcw:  in a,(DARTAC)       ; RR0 bit 2: transmit buffer empty
        and 4
        jr z,putcw
        pop af
        out (DARTAD),a
        ret

getc:   in a,(DARTAC)       ; RR0 bit 0: character available
        rrca
        jr nc,getc
        in a,(DARTAD)
        ret

puts:   ld a,(hl)
        or a
        ret z
        call putc
        inc hl
        jr puts

crlf:   ld a,CR
        call putc
        ld a,LF
        jp putc

phex16: ld a,h
        call phex8
        ld a,l
phex8:  push af
        rrca
        rrca
        rrca
        rrca
        call phexn
        pop af
phexn:  and 0Fh
        add a,90h
        daa
        adc a,40h
        daa
        jp putc

; Port, value pairs sent at reset: CTC channels 0 and 1 as x16 baud clocks,
; then each DART channel reset and set to 8 data bits, no parity, 1 stop
; bit, x16 clock, receiver and transmitter enabled, DTR and RTS on, no
; interrupts.
iotab:  db CTC0,CTCCNT, CTC0,BAUDTC
        db CTC1,CTCCNT, CTC1,BAUDTC
        db DARTAC,18h, DARTAC,4, DARTAC,44h, DARTAC,3, DARTAC,0C1h
        db DARTAC,5, DARTAC,0EAh, DARTAC,1, DARTAC,0
        db DARTBC,18h, DARTBC,4, DARTBC,44h, DARTBC,3, DARTBC,0C1h
        db DARTBC,5, DARTBC,0EAh, DARTBC,1, DARTBC,0
IOTABN  equ ($-iotab)/2

banner: db CR,LF,"lbplus monitor 1.0 - Ampro Little Board/PLUS",CR,LF
        db "H for help",CR,LF,0
promptmsg:
        db "> ",0
whatmsg:
        db "?",CR,LF,0
synmsg: db "syntax?",CR,LF,0
hexerrmsg:
        db CR,LF,"HEX record error",CR,LF,0
loadedmsg:
        db " bytes loaded",CR,LF,0
bootmsg:
        db "Boot SCSI target ",0
scsimsg:
        db "SCSI ",0
no5380msg:
        db "no NCR 5380 at 20h",0
ownidmsg:
        db "that is the initiator's own ID (port 29h)",0
busymsg:
        db "bus busy (BSY or SEL stuck)",0
noselmsg:
        db "no answer to selection",0
tmomsg: db "timeout, bus reset",0
lostmsg:
        db "target dropped BSY mid-command",0
phasemsg:
        db "unexpected phase, bus reset",0
statmsg:
        db "status ",0
checkmsg:
        db "CHECK CONDITION",0
sensemsg:
        db ", sense",0
shortmsg:
        db "block 0 is ",0
wantmsg:
        db " bytes, want 0200",0
blankmsg:
        db "block 0 is blank: not a boot block",0
helpmsg:
        db "D addr [count]    dump memory",CR,LF
        db "S addr bb bb ...  store bytes",CR,LF
        db "I port            read port",CR,LF
        db "O port bb         write port",CR,LF
        db "G addr            call addr",CR,LF
        db "B [id]            boot SCSI target id",CR,LF
        db ":llaaaatt..cc     Intel HEX record",CR,LF,0

        ds 1000h-$,0FFh
        end
