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
;   B [id]              boot from SCSI target id (default 0), see scsiboot
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
bid:    ld a,e
        and 7
        jp scsiboot

; scsiboot: boot from SCSI (hook for the SCSI issue).
; Entry: A = target ID 0-7. Protocol: select target A (initiator ID from
; port 29h), send READ(6) of logical block 0, LUN 0, one block; store the
; DATA IN bytes at BOOTADR; take STATUS and MESSAGE IN; if the status is
; GOOD jump to BOOTADR with A = target ID and the ROM still mapped (the boot
; block switches it out with port 00 bit 6). On any failure print a message
; and return to the prompt. Until the 5380 code is here it reports that.
scsiboot:
        ld hl,nobootmsg
        call puts
        jp prompt

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
nobootmsg:
        db "SCSI boot not available",CR,LF,0
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
