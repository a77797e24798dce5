; The T-state cursor test's program: READ(6) of block 0 from SCSI target
; 0, the selection, the CDB, STATUS and MESSAGE IN by programmed I/O
; through the 5380's ICR, DATA IN by pseudo-DMA: two INIRs from the DACK
; port 28h, started as soon as the CDB is sent, while the target still
; reads the disk. On a board with WAIT on DRQ (hypothesis B) the first
; port 28h read waits until the target's first REQ brings the 5380's DRQ.

CSD     equ 20h         ; 5380 current data (read) / output data (write)
ICR     equ 21h         ; initiator command
MR      equ 22h         ; mode
TCR     equ 23h         ; target command: the expected phase
CSB     equ 24h         ; current bus status
SDI     equ 27h         ; start DMA initiator receive (write)
DACK    equ 28h         ; the pseudo-DMA port
I_DBUS  equ 01h
I_SEL   equ 04h
I_ACK   equ 10h
M_DMA   equ 02h
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
        cp 1            ; DATA IN: by DMA
        jr z,dmain
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
inbyte: in a,(CSD)      ; STATUS, MESSAGE IN
        ld a,I_ACK
        out (ICR),a
ackoff: in a,(CSB)      ; the target drops REQ
        and C_REQ
        jr nz,ackoff
        xor a
        out (ICR),a
        ld a,l          ; the CDB's last byte sent: DATA IN comes next
        cp cdbend AND 0FFh
        jr nz,next
        ld a,1          ; DATA IN into the TCR before its first REQ
        out (TCR),a
dmain:  ld a,M_DMA      ; DMA mode, initiator receive: the 5380 answers
        out (MR),a      ; each REQ with DRQ and each DACK read with ACK
        out (SDI),a
        ld hl,buffer
        ld bc,DACK      ; B = 0: 256 bytes an INIR
        inir
        inir
        xor a
        out (MR),a
        ld hl,0         ; the CDB is done
        jr next
done:   halt

cdb:    db 08h, 0, 0, 0, 1, 0   ; READ(6) LUN 0, LBA 0, 1 block
cdbend:
buffer: ds 512
        end start
