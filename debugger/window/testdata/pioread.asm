; The window tests' program: READ(6) of block 0 from SCSI target 0 by
; programmed I/O, one REQ/ACK handshake through the 5380's ICR per byte,
; selection without arbitration, after a line on the console. It is the
; tests' own, so the screenshots do not change when the boot ROM does.

CSD     equ 20h         ; 5380 current data (read) / output data (write)
ICR     equ 21h         ; initiator command
TCR     equ 23h         ; target command: the expected phase
CSB     equ 24h         ; current bus status
I_DBUS  equ 01h
I_SEL   equ 04h
I_ACK   equ 10h
C_BSY   equ 40h
C_REQ   equ 20h
C_PHASE equ 1Ch         ; MSG, C/D, I/O in CSB bits 4, 3, 2

CTC0    equ 40h         ; CTC channel 0: the baud clock of DART channel A
DARTAD  equ 80h         ; DART A data (the console)
DARTAC  equ 84h         ; DART A control
CR      equ 0Dh
LF      equ 0Ah

        org 0100h
start:  ld sp,0F000h
        ld hl,iotab     ; the console at 9600 baud, 8N1, no interrupts
        ld b,IOTABN
init:   ld c,(hl)
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        djnz init
        ld hl,hello
        call puts
        ld a,81h        ; initiator ID 7 and target ID 0 on the data bus
        out (CSD),a
        ld a,I_DBUS+I_SEL
        out (ICR),a
select: in a,(CSB)      ; the target answers with BSY
        and C_BSY
        jr z,select
        xor a
        out (ICR),a     ; release SEL and the data bus
        ld hl,cdb
        ld de,buffer
next:   in a,(CSB)
        and C_BSY
        jr z,done       ; bus free: the command is over
        in a,(CSB)
        and C_REQ
        jr z,next
        in a,(CSB)      ; the phase the target asks for, into the TCR
        and C_PHASE
        rrca
        rrca
        out (TCR),a
        bit 0,a         ; I/O: a byte to the initiator
        jr nz,inbyte
outbyte: ld a,(hl)      ; COMMAND: the next CDB byte
        inc hl
        out (CSD),a
        ld a,I_DBUS
        out (ICR),a
        ld a,I_DBUS+I_ACK
        out (ICR),a
        jr ackoff
inbyte: in a,(CSD)      ; DATA IN, STATUS, MESSAGE IN
        ld (de),a
        inc de
        ld a,I_ACK
        out (ICR),a
ackoff: in a,(CSB)      ; the target drops REQ
        and C_REQ
        jr nz,ackoff
        xor a
        out (ICR),a
        jr next
done:   ld hl,bye
        call puts
        halt

; puts sends the zero-terminated string at HL to the console.
puts:   ld a,(hl)
        or a
        ret z
putw:   in a,(DARTAC)   ; RR0 bit 2: the transmit buffer is empty
        and 4
        jr z,putw
        ld a,(hl)
        out (DARTAD),a
        inc hl
        jr puts

; CTC channel 0 in counter mode with time constant 13 (2 MHz / 13 / 16:
; 9615 baud); DART A reset, x16 clock and one stop bit, 8-bit receiver
; and transmitter enabled, DTR and RTS on, no interrupts.
iotab:  db CTC0,57h, CTC0,13
        db DARTAC,18h, DARTAC,4, DARTAC,44h, DARTAC,3, DARTAC,0C1h
        db DARTAC,5, DARTAC,0EAh, DARTAC,1, DARTAC,0
IOTABN  equ ($-iotab)/2

hello:  db "pioread: READ(6) of block 0 from target 0,",CR,LF
        db "one handshake through the 5380's ICR a byte",CR,LF,0
bye:    db "block 0 read",CR,LF,0
cdb:    db 08h, 0, 0, 0, 1, 0   ; READ(6) LUN 0, LBA 0, 1 block
buffer: ds 514
        end start
