; The window tests' program: READ(6) of block 0 from SCSI target 0 by
; programmed I/O, one REQ/ACK handshake through the 5380's ICR per byte,
; selection without arbitration. It is the tests' own, so the screenshots
; do not change when the boot ROM does.

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

        org 0100h
start:  ld sp,0F000h
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
done:   halt

cdb:    db 08h, 0, 0, 0, 1, 0   ; READ(6) LUN 0, LBA 0, 1 block
buffer: ds 514
        end start
