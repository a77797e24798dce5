; NCR 5380 polled SCSI READ(6) of one sector, pseudo-DMA style handshake.
NCR     equ     20h
CSD     equ     NCR+0           ; current SCSI data
ICR     equ     NCR+1           ; initiator command
MR      equ     NCR+2           ; mode
TCR     equ     NCR+3           ; target command
CSBS    equ     NCR+4           ; current bus status
BSR     equ     NCR+5           ; bus and status
ODR     equ     NCR+0           ; output data (write)
SELEN   equ     NCR+4           ; select enable (write)
DMAIO   equ     28h

B_BSY   equ     40h
B_REQ   equ     20h
B_MSG   equ     10h
B_CD    equ     08h
B_IO    equ     04h
B_SEL   equ     02h
I_ACK   equ     10h
I_SEL   equ     04h
I_DBUS  equ     01h
I_ATN   equ     02h

TARGET  equ     0
        org     0C000h
read6:  ; select
        ld      a,1 SHL TARGET
        out     (ODR),a
        ld      a,I_DBUS OR I_SEL
        out     (ICR),a
sel_w:  in      a,(CSBS)
        and     B_BSY
        jr      z,sel_w
        ld      a,I_DBUS
        out     (ICR),a
        xor     a
        out     (ICR),a
        ; command phase: send 6 bytes
        ld      hl,cdb
        ld      b,6
cmd:    call    waitreq
        ld      a,(hl)
        out     (ODR),a
        ld      a,I_DBUS
        out     (ICR),a
        call    ack
        inc     hl
        djnz    cmd
        ; data in phase: 256 bytes
        ld      hl,buffer
        ld      bc,256
data:   call    waitreq
        in      a,(CSD)
        ld      (hl),a
        call    ack
        inc     hl
        dec     bc
        ld      a,b
        or      c
        jr      nz,data
        ; status and message
        call    waitreq
        in      a,(CSD)
        ld      (status),a
        call    ack
        call    waitreq
        in      a,(CSD)
        call    ack
        ld      a,(status)
        and     1Eh
        ret

waitreq:
        in      a,(CSBS)
        and     B_REQ
        jr      z,waitreq
        ret
ack:    in      a,(ICR)
        or      I_ACK
        out     (ICR),a
ack_w:  in      a,(CSBS)
        and     B_REQ
        jr      nz,ack_w
        in      a,(ICR)
        and     NOT I_ACK AND 0FFh
        out     (ICR),a
        ret

cdb:    db      08h, 0, 0, 1, 1, 0
status: db      0
buffer: ds      256
        end
