; lbplus CP/M 2.2 BIOS for the Ampro Little Board/PLUS (docs/CPM.md).
;
; Our own code, written from the CP/M 2.2 interface (the 17 BIOS entries)
; and the board's hardware facts (docs/BOOT.md, docs/CPM.md). It sits at
; BIOSBASE (EA00h in the 60K system, a page boundary as NZ-COM needs) under
; DR's layout from layout.inc, so any CCP+BDOS for that origin runs on it.
;
;   console   DART A: input by interrupt (IM 2, daisy chain) into a ring
;             buffer, output polled; AUX (reader/punch) on DART B, polled;
;             the printer on the parallel port (ports 01-03, BUSY on DART
;             RIB); IOBYTE chooses among them.
;   disks     SCSI hard disk (ACB-4000 or any SCSI disk) at target 0 LUN 0,
;             cut into up to 5 partitions of 4 MB (512 tracks of 16 blocks)
;             with their own DPBs; READ(6)/WRITE(6) of one 512-byte block,
;             byte-by-byte or 256-byte bursts (the disk's configuration
;             block says which); 128-byte records deblocked in a host
;             buffer; REQUEST SENSE and three tries on an error.
;   warm boot reloads CCP+BDOS from the system blocks of the hard disk.
;   clock     CTC channel 3 as a timer (prescaler 256, time constant 125:
;             125 interrupts a second) counts seconds since cold boot in
;             the 32-bit word at BIOSBASE+35h.
;
; The disk (lbplus disk create --system, lbplus sysgen) holds:
;   block 0       the boot loader (bootstrap.asm), loaded to 9000h by the ROM
;   blocks 10-20  CCP+BDOS (1600h bytes), loaded to CCPBASE
;   blocks 21-30  this BIOS (at most 0E00h bytes used)
;   block 31      the configuration block: "LBPLUSHD", version, number of
;                 partitions, transfer mode (as Ampro's HGEN keeps its
;                 configuration in block 31 [F HGEN])
;
; Memory above the BIOS image (F800h-FFFFh) is its uninitialised data: host
; buffer, directory buffer, allocation vectors, console ring buffer.

        INCLUDE "layout.inc"
        INCLUDE "sl_hw.inc"

CR      equ 0Dh
LF      equ 0Ah

IMGEND  equ BIOSBASE+0E00h      ; the image ends here (system tracks' room)
HSTBUF  equ IMGEND              ; 512-byte host buffer
DIRBUF  equ HSTBUF+512          ; BDOS directory buffer (128)
ALVHD   equ DIRBUF+128          ; allocation vectors, HDALV bytes each
HDALV   equ 128                 ; DSM 1023 / 8 + 1
MAXPART equ 5
RXBUF   equ 0FFC0h              ; console ring buffer (32 bytes, aligned)
RXMASK  equ 1Fh

HDTGT   equ 0                   ; the hard disk's SCSI ID and LUN
HDLUN   equ 0
TRKBLK  equ 16                  ; 512-byte blocks per CP/M track (64 records)
PARTTRK equ 512                 ; tracks per partition: 4 MB
SYSBLK  equ 10                  ; first block of CCP+BDOS
SYSN    equ SYSSIZE/512         ; its blocks (11)
CFGBLK  equ 31                  ; the configuration block
TRIES   equ 3

ROMOFF  equ 40h                 ; port 00: RAM over the boot EPROM
DEFIOB  equ 95h                 ; LST=LPT, PUN=PTP, RDR=PTR, CON=CRT

        org BIOSBASE
        jp boot                 ; 00 cold start
wbootv: jp wboot                ; 03 warm start
        jp const                ; 06
        jp conin                ; 09
        jp conout               ; 0C
        jp list                 ; 0F
        jp punch                ; 12
        jp reader               ; 15
        jp home                 ; 18
        jp seldsk               ; 1B
        jp settrk               ; 1E
        jp setsec               ; 21
        jp setdma               ; 24
        jp read                 ; 27
        jp write                ; 2A
        jp listst               ; 2D
        jp sectran              ; 30

; BIOS+33h: our signature and the clock (documented in docs/CPM.md).
        db "LB"
seconds: db 0,0,0,0             ; BIOS+35h: seconds since cold boot
ticks:  db 0                    ; 125ths of a second

; ---------------------------------------------------------------------------
; Cold start: the loader jumped here with the ROM off.
boot:   di
        ld sp,0100h
        ld a,ROMOFF
        out (SYSLATCH),a
        call hwinit
        xor a
        ld (PZ_CDISK),a
        ld a,DEFIOB
        ld (PZ_IOBYTE),a
        ld hl,signon
        call puts
        call hdprobe            ; partitions from the configuration block
        ld a,(nparts)
        add a,'0'
        call cout
        ld hl,partmsg
        call puts
        jr gocpm

; Warm start: write back what is pending, reload CCP+BDOS, enter the CCP.
wboot:  ld sp,0100h
        call flush
        xor a
        ld (hstact),a
wb1:    ld hl,CCPBASE
        ld (rqbuf),hl
        ld hl,SYSN*512
        ld (rqlen),hl
        ld hl,SYSBLK
        ld a,SYSN
        call hdxfer0            ; READ(6) of 11 blocks
        jr z,gocpm
        ld hl,wbmsg
        call puts
        call conin              ; wait for a key, then try again
        jr wb1

gocpm:  ld a,0C3h               ; JP at 0000h and 0005h
        ld (PZ_WBOOT),a
        ld (PZ_BDOS),a
        ld hl,wbootv
        ld (PZ_WBOOT+1),hl
        ld hl,BDOSENT
        ld (PZ_BDOS+1),hl
        ld bc,PZ_DMA
        call setdma
        ld a,(PZ_CDISK)         ; a drive that is gone: back to A:
        and 0Fh
        ld hl,nparts
        cp (hl)
        jr c,gocpm1
        ld a,(PZ_CDISK)
        and 0F0h
        ld (PZ_CDISK),a
gocpm1: ei
        ld a,(PZ_CDISK)
        ld c,a
        jp CCPBASE

; hwinit: interrupt vectors, DART A receive interrupts, the CTC clock.
hwinit: ld a,HIGH vectors
        ld i,a
        im 2
        xor a
        ld (rxin),a
        ld (rxout),a
        ld hl,hwtab
hwi1:   ld c,(hl)
        inc c
        ret z                   ; port 0FFh ends the table
        dec c
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        jr hwi1

; Port, value pairs. The DART keeps the ROM's 9600 baud; the CTC keeps
; channels 0 and 1 as baud clocks.
hwtab:  db DART_BC,2, DART_BC,LOW vecdart   ; WR2 (B): vector base
        db DART_BC,1, DART_BC,04h           ; WR1 (B): status affects vector
        db DART_AC,1, DART_AC,18h           ; WR1 (A): interrupt on every Rx char
        db CTC0,LOW vecctc                  ; CTC vector base (channel 0 word)
        db CTC3,0A7h, CTC3,125              ; timer, /256, TC 125, interrupt
        db 0FFh

; ---------------------------------------------------------------------------
; Character devices. IOBYTE fields: CON bits 0-1, RDR 2-3, PUN 4-5, LST 6-7.
; CON: 0 TTY, 1 CRT = DART A; 2 BAT = reader in, list out; 3 UC1 = DART B.
; RDR: 0 TTY = DART A, else DART B.  PUN: 0 TTY = DART A, else DART B.
; LST: 0 TTY, 1 CRT = DART A; 2 LPT = parallel; 3 UL1 = DART B.

const:  ld a,(PZ_IOBYTE)
        and 3
        cp 2
        jr c,ast
        jr bst

conin:  ld a,(PZ_IOBYTE)
        and 3
        cp 2
        jr c,ain
        jr z,reader
        jr bin

conout: ld a,(PZ_IOBYTE)
        and 3
        cp 2
        jr c,aout
        jr z,list
        jr bout

reader: ld a,(PZ_IOBYTE)
        and 0Ch
        jr z,ain
        jr bin

punch:  ld a,(PZ_IOBYTE)
        and 30h
        jr z,aout
        jr bout

list:   ld a,(PZ_IOBYTE)
        and 0C0h
        cp 80h
        jr c,aout
        jr z,pout
        jr bout

listst: ld a,(PZ_IOBYTE)
        and 0C0h
        cp 80h
        jr c,atxst
        jr z,pst
        jr btxst

; DART A: the interrupt fills the ring buffer.
ast:    ld a,(rxout)
        ld hl,rxin
        sub (hl)
        ret z                   ; A = 0: nothing
        ld a,0FFh
        ret
ain:    call ast
        jr z,ain
        ld hl,rxout
        ld a,(hl)
        inc (hl)
        and RXMASK
        ld l,a
        ld h,HIGH RXBUF
        ld a,l
        add a,LOW RXBUF
        ld l,a
        ld a,(hl)
        ret
aout:   in a,(DART_AC)
        and 4
        jr z,aout
        ld a,c
        out (DART_AD),a
        ret
atxst:  in a,(DART_AC)
        jr txst

; DART B: polled.
bst:    in a,(DART_BC)
        and 1
        ret z
        ld a,0FFh
        ret
bin:    call bst
        jr z,bin
        in a,(DART_BD)
        ret
bout:   in a,(DART_BC)
        and 4
        jr z,bout
        ld a,c
        out (DART_BD),a
        ret
btxst:  in a,(DART_BC)
txst:   and 4
        ret z
        ld a,0FFh
        ret

; Parallel printer: data on port 01, STROBE on 02 / off 03; BUSY reaches
; DART B's RI input (RR0 bit 4 set while busy) [F MAME-ampro].
pst:    in a,(DART_BC)
        and 10h
        ld a,0
        ret nz
        dec a
        ret
pout:   call pst
        jr z,pout
        ld a,c
        out (1),a
        out (2),a               ; STROBE on
        out (3),a               ; STROBE off
        ret

; Console output of a string (HL, zero-terminated) and of A.
puts:   ld a,(hl)
        or a
        ret z
        push hl
        call cout
        pop hl
        inc hl
        jr puts
cout:   ld c,a
        jp conout

; ---------------------------------------------------------------------------
; Interrupt handlers (interrupts are enabled outside the boot paths).

; DART A received a character: into the ring buffer (a full buffer drops it).
rxa:    push af
        push hl
        in a,(DART_AD)
        push af
        ld a,(rxin)
        ld hl,rxout
        sub (hl)
        cp RXMASK
        jr nc,rxa1              ; full
        ld a,(rxin)
        and RXMASK
        add a,LOW RXBUF
        ld l,a
        ld h,HIGH RXBUF
        pop af
        ld (hl),a
        ld hl,rxin
        inc (hl)
        jr rxa2
rxa1:   pop af
rxa2:   pop hl
        pop af
        ei
        reti

; A special receive condition (overrun, framing) or a source we did not
; enable: reset the error latch and carry on.
dartx:  push af
        ld a,30h                ; WR0: error reset
        out (DART_AC),a
        in a,(DART_AD)
        pop af
        ei
        reti

; CTC channel 3: 125 ticks a second.
clock:  push af
        push hl
        ld hl,ticks
        inc (hl)
        ld a,(hl)
        cp 125
        jr c,clk2
        ld (hl),0
        ld hl,seconds
        ld a,4
clk1:   inc (hl)
        jr nz,clk2
        inc hl
        dec a
        jr nz,clk1
clk2:   pop hl
        pop af
        ei
        reti

noint:  ei
        reti

; ---------------------------------------------------------------------------
; Disks.

home:   ld bc,0
settrk: ld (sektrk),bc
        ret

setsec: ld a,c
        ld (seksec),a
        ret

setdma: ld (dmaadr),bc
        ret

sectran:
        ld h,b                  ; no skew: the record number as it is
        ld l,c
        ret

; seldsk: C = drive. HL = its DPH, or 0 if there is no such drive.
seldsk: ld hl,0
        ld a,(nparts)
        dec a
        cp c
        ret c
        ld a,c
        ld (sekdsk),a
        add a,a                 ; DPH = dphs + 16 * drive
        add a,a
        add a,a
        add a,a
        ld l,a
        ld de,dphs
        add hl,de
        ret

; read: one 128-byte record to the DMA address. A = 0, or 1 on an error.
read:   call locate
        ret nz
        ex de,hl                ; DE = the record in the host buffer
        ld hl,(dmaadr)
        ex de,hl
        ld bc,128
        ldir
        xor a
        ret

; write: C = 0 normal, 1 directory (written through at once), 2 first
; record of an unallocated block. A = 0, or 1 on an error.
write:  ld a,c
        ld (wrtype),a
        call locate
        ret nz
        ld de,(dmaadr)
        ex de,hl
        ld bc,128
        ldir
        ld a,1
        ld (hstwrt),a
        ld a,(wrtype)
        dec a
        jr z,flush
        xor a
        ret

; locate: make the host buffer hold the block with the requested record.
; Z and HL = the record in the buffer; NZ and A = 1 on an error.
locate: ld a,(seksec)           ; block within the track = record / 4
        rrca
        rrca
        and 3Fh
        ld b,a
        ld a,(hstact)
        or a
        jr z,loc1
        ld a,(sekdsk)
        ld hl,hstdsk
        cp (hl)
        jr nz,loc1
        ld hl,(sektrk)
        ld de,(hsttrk)
        or a
        sbc hl,de
        jr nz,loc1
        ld a,(hstsec)
        cp b
        jr z,loc2
loc1:   push bc
        call flush
        pop bc
        ret nz
        ld a,(sekdsk)
        ld (hstdsk),a
        ld hl,(sektrk)
        ld (hsttrk),hl
        ld a,b
        ld (hstsec),a
        ld a,08h                ; READ(6)
        call hstio
        ret nz
        ld a,1
        ld (hstact),a
loc2:   ld a,(seksec)           ; HL = HSTBUF + 128 * (record AND 3)
        and 3
        rrca                    ; bit 0 -> bit 7 (x 128), bit 1 -> bit 0 (x 256)
        ld l,a
        and 1
        add a,HIGH HSTBUF
        ld h,a
        ld a,l
        and 80h
        ld l,a
        xor a
        ret

; flush: write the host buffer back if it was changed. Z, or NZ and A = 1.
flush:  ld a,(hstwrt)
        or a
        ret z
        ld a,0Ah                ; WRITE(6)
        call hstio
        ret nz
        xor a
        ld (hstwrt),a
        ret

; hstio: READ(6) or WRITE(6) (opcode A) of the block hstdsk/hsttrk/hstsec
; to or from HSTBUF. Z on success; NZ and A = 1 (the buffer is then
; invalid) after TRIES tries.
hstio:  ld (cdb),a
        ld hl,HSTBUF
        ld (rqbuf),hl
        ld hl,512
        ld (rqlen),hl
        ld hl,(hsttrk)          ; LBA = track * 16 + block
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld a,(hstsec)
        or l
        ld l,a
        ld a,(cdb)
        call hdxfer
        ret z
        xor a
        ld (hstact),a
        ld (hstwrt),a
        inc a
        ret

; hdxfer0: READ(6) of A blocks from block HL (below 65536), TRIES tries.
hdxfer0:
        ld (cdb+4),a
        ld a,08h
        ld (cdb),a
        ld c,TRIES
        jr hdx0
; hdxfer: opcode A (READ(6) or WRITE(6)) of one block, block number HL;
; hdxfern: the same with C tries. Z when the target said GOOD.
hdxfer: ld c,TRIES
hdxfern:
        ld (cdb),a
        ld a,1
        ld (cdb+4),a
hdx0:   ld a,c
        ld (tries),a
        ld a,HDLUN*32
        ld (cdb+1),a
        ld a,h
        ld (cdb+2),a
        ld a,l
        ld (cdb+3),a
hdx1:   ld a,(cdb)
        cp 0Ah
        ld a,(xmode)            ; bit 1: bursts
        jr nz,hdx2
        or 1                    ; bit 0: DATA OUT
hdx2:   ld (rqmode),a
        ld ix,rq
        and 2                   ; an interrupt inside an INIR/OTIR burst
        jr z,hdx4               ; would let the target overrun it
        di
hdx4:   call sl_exec
        ei
        jr c,hdx3               ; the bus failed (it was reset): try again
        or a
        ret z                   ; GOOD
        ld ix,rqs               ; CHECK CONDITION and the rest: sense first
        call sl_exec
hdx3:   ld hl,tries
        dec (hl)
        jr nz,hdx1
        or 1
        ret

; hdprobe: read the configuration block of the hard disk; nparts = its
; partition count (0 without a disk or a valid block), xmode its mode.
hdprobe:
        xor a
        ld (nparts),a
        ld (xmode),a
        ld (hstact),a
        ld (hstwrt),a
        call sl_init
        ld hl,HSTBUF
        ld (rqbuf),hl
        ld hl,512
        ld (rqlen),hl
        ld a,08h                ; a missing disk: one try, no retries
        ld hl,CFGBLK
        ld c,1
        call hdxfern
        ret nz
        ld hl,HSTBUF
        ld de,cfgsig
        ld b,8
hdp1:   ld a,(de)
        cp (hl)
        ret nz
        inc hl
        inc de
        djnz hdp1
        inc hl                  ; version
        ld a,(hl)               ; partitions
        or a
        ret z
        cp MAXPART+1
        ret nc
        ld (nparts),a
        inc hl
        ld a,(hl)               ; transfer mode: 1 = 256-byte bursts
        and 1
        add a,a
        ld (xmode),a
        ret

cfgsig: db "LBPLUSHD"

; The SCSI request blocks (scsilib's RQ_* layout) and the CDBs.
rq:     db HDTGT                ; RQ_TGT
rqmode: db 0                    ; RQ_MODE
        db 0                    ; RQ_BURST: 256
        db 6                    ; RQ_CDBL
        dw cdb                  ; RQ_CDB
rqbuf:  dw HSTBUF               ; RQ_BUF
rqlen:  dw 512                  ; RQ_LEN
        ds 6,0                  ; results
cdb:    db 08h,0,0,0,1,0

rqs:    db HDTGT,0,0,6
        dw sensecdb
        dw sense
        dw 4
        ds 6,0
sensecdb: db 03h,HDLUN*32,0,0,4,0
sense:  ds 4,0

; Disk parameter headers: no translation, the shared directory buffer,
; each partition's DPB and allocation vector; no checksum vector (fixed
; disks, CKS 0).
dphs:
        dw 0,0,0,0,DIRBUF,dpb0,0,ALVHD+0*HDALV
        dw 0,0,0,0,DIRBUF,dpb1,0,ALVHD+1*HDALV
        dw 0,0,0,0,DIRBUF,dpb2,0,ALVHD+2*HDALV
        dw 0,0,0,0,DIRBUF,dpb3,0,ALVHD+3*HDALV
        dw 0,0,0,0,DIRBUF,dpb4,0,ALVHD+4*HDALV

; DPBs of the partitions: 64 records a track, 4 KB blocks (BSH 5, BLM 31,
; EXM 1), 512 directory entries (4 blocks, AL0 F0h). Partition k starts at
; track 512k; OFF counts those tracks (plus the 2 system tracks of the
; first), so the BIOS's track number is the disk's. cpmtools names them
; lbplus-hd0 ... lbplus-hd4 (docs/diskdefs).
DPB     MACRO dsm,offs
        dw 64
        db 5,31,1
        dw dsm,511
        db 0F0h,0
        dw 0,offs
        ENDM
dpb0:   DPB 1019,2
dpb1:   DPB 1023,1*PARTTRK
dpb2:   DPB 1023,2*PARTTRK
dpb3:   DPB 1023,3*PARTTRK
dpb4:   DPB 1023,4*PARTTRK

signon: db CR,LF,"lbplus CP/M 2.2 BIOS 1.0 - ",MSIZE/10+'0',MSIZE MOD 10+'0',"K",CR,LF,0
partmsg: db " hard disk partition(s)",CR,LF,0
wbmsg:  db CR,LF,"Warm boot: cannot read the system blocks; any key retries",CR,LF,0

; Variables.
nparts: db 0
xmode:  db 0                    ; RQ_MODE bit 1: 256-byte bursts
sekdsk: db 0
sektrk: dw 0
seksec: db 0
dmaadr: dw PZ_DMA
hstact: db 0
hstwrt: db 0
hstdsk: db 0
hsttrk: dw 0
hstsec: db 0
wrtype: db 0
tries:  db 0
rxin:   db 0
rxout:  db 0

        INCLUDE "sl_scsi.inc"

; IM 2 vectors on a page boundary: CTC channels at +0 (channel 3 is the
; clock), the DART's status-affects-vector codes at +10h.
        ds (($+255) AND 0FF00h)-$,0
vectors:
vecctc: dw noint,noint,noint,clock
        ds 8,0
vecdart:
        dw noint                ; B transmit
        dw noint                ; B external/status
        dw noint                ; B receive
        dw dartx                ; B special receive
        dw noint                ; A transmit
        dw noint                ; A external/status
        dw rxa                  ; A receive
        dw dartx                ; A special receive

biosend:                        ; cpmbios.go checks biosend <= IMGEND
        end
