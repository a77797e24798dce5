; lbplus CP/M 2.2 BIOS for the Ampro Little Board/PLUS (docs/CPM.md).
;
; Our own code, written from the CP/M 2.2 interface (the 17 BIOS entries)
; and the board's hardware facts (docs/BOOT.md, docs/CPM.md, docs/FLOPPY.md).
; It sits at BIOSBASE (EA00h in the 60K system, a page boundary as NZ-COM
; needs) under DR's layout from layout.inc, so any CCP+BDOS for that origin
; runs on it.
;
;   console   DART A: input by interrupt (IM 2, daisy chain) into a ring
;             buffer, output polled; AUX (reader/punch) on DART B, polled;
;             the printer on the parallel port (ports 01-03, BUSY on DART
;             RIB); IOBYTE chooses among them.
;   hard disk SCSI target 0 LUN 0 (an ACB-4000 or any SCSI disk), cut into
;             up to 5 partitions of 4 MB (512 tracks of 16 blocks) with
;             their own DPBs; READ(6)/WRITE(6) of one 512-byte block,
;             byte-by-byte or 256-byte bursts (the disk's configuration
;             block says which); REQUEST SENSE and three tries on an error.
;   floppies  WD1772 drives 0 and 1; the four Ampro formats (cpmtools amp1-
;             amp4) sensed by Read Address when a drive is logged in: sector
;             size 512 or 1024, IDs from 17 = double-sided (CP/M track t is
;             cylinder t/2, side t AND 1); three tries, a Restore before the
;             last; a drive with no disk (no index pulses: the command times
;             out) is reported and waits for a key, ^C gives up.
;   both      128-byte records deblocked in a 1 KB host buffer; a changed
;             host sector is written back before another is read, at once
;             for directory writes, and at warm boot.
;   warm boot reloads CCP+BDOS from the system tracks of A:, through the
;             same read path.
;   clock     seconds since cold boot in the 32-bit word at BIOSBASE+35h:
;             CTC channel 2 (prescaler 256, time constant 125) cascaded
;             into channel 3 (counter, 125) when the ZC/TO2 -> CLK/TRG3
;             jumper is fitted, one interrupt a second; otherwise channel
;             3 alone as a 125 Hz timer.
;   interrupts the handlers save what they use and never touch the
;             alternate registers or the SCSI chip, so a program may keep
;             interrupts on around SCSI commands whose routines count in
;             HL' (BACKUP and RESTORE do, under the "LB" signature).
;
; Drive letters: the boot device first. Booted from the hard disk (the
; loader passes A = 0): A:-E: are its partitions, then the floppies; booted
; from a floppy (A = 1): A: and B: are the floppies, then the partitions.
;
; Memory above the BIOS image (F800h-FFFFh) is its uninitialised data: host
; buffer, directory buffer, allocation and checksum vectors.

        INCLUDE "layout.inc"
        INCLUDE "sl_hw.inc"

CR      equ 0Dh
LF      equ 0Ah
CTRLC   equ 03h

IMGEND  equ BIOSBASE+0E00h      ; the image ends here (system tracks' room)
HSTBUF  equ IMGEND              ; 1024-byte host buffer
DIRBUF  equ HSTBUF+1024         ; BDOS directory buffer (128)
ALVHD   equ DIRBUF+128          ; hard disk allocation vectors, HDALV each
HDALV   equ 128                 ; DSM 1023 / 8 + 1
MAXPART equ 5
FDVEC   equ ALVHD+MAXPART*HDALV ; floppy ALV (50) and CSV (64) per unit
FDALV   equ 50                  ; DSM 394 / 8 + 1 (amp4, the largest)
FDCSV   equ 64                  ; (DRM 255 + 1) / 4
NFD     equ 2                   ; floppy units the BIOS serves
RXMASK  equ 1Fh                 ; console ring buffer: 32 bytes

HDTGT   equ 0                   ; the hard disk's SCSI ID and LUN
HDLUN   equ 0
TRKBLK  equ 16                  ; 512-byte blocks per CP/M track (64 records)
PARTTRK equ 512                 ; tracks per partition: 4 MB
SYSREC  equ SYSSIZE/128         ; records warm boot reloads (44)
CFGBLK  equ 31                  ; the configuration block
TRIES   equ 3

; WD1772 (docs/FLOPPY.md): written at C0h-C3h, read at C4h-C7h.
NODRIVE equ 0FEh                ; fdhome's A: Restore found no TR00
FDCMD   equ 0C0h
FDSTAT  equ 0C4h
FDTRKW  equ 0C1h
FDTRKR  equ 0C5h
FDSECW  equ 0C2h
FDSECR  equ 0C6h
FDDATW  equ 0C3h
FDDATR  equ 0C7h
FRESTORE equ 00h                ; Restore, spin-up if the motor is off, 6 ms
FSEEK   equ 14h                 ; Seek with verify, spin-up, 6 ms
FREAD   equ 80h                 ; Read Sector, spin-up
FWRITE  equ 0A0h                ; Write Sector, spin-up
FREADID equ 0C0h                ; Read Address, spin-up
FFORCE  equ 0D0h                ; Force Interrupt
FDERR   equ 1Ch                 ; RNF, CRC, lost data
FDWP    equ 40h                 ; write protect (Write Sector)
FDUNITS equ 3                   ; a command gets 3 x 0.97 s: spin-up (6
                                ; revolutions), a long seek and RNF's 5

ROMOFF  equ 40h                 ; port 00: RAM over the boot EPROM
SIDE1   equ 10h                 ; port 00: side 1
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
ticks:  db 0                    ; interrupts since the last second
tickrate: db 125                ; interrupts a second: 1 (cascade) or 125
; BIOS+3Bh: "DM", then the address of the drive map (dmap below), for a
; program that drives a floppy itself (FORMAT: docs/CPM.md).
        db "DM"
        dw dmap

; ---------------------------------------------------------------------------
; Cold start: the loader jumped here with the ROM off; A = 0 after a hard
; disk boot, 1 after a floppy boot.
boot:   di
        ld sp,0100h
        ld (bootdev),a
        ld a,ROMOFF
        out (0),a
        call hwinit
        call clkinit
        xor a
        ld (PZ_CDISK),a
        ld (hstact),a
        ld (hstwrt),a
        ld a,DEFIOB
        ld (PZ_IOBYTE),a
        ld hl,signon
        call puts
        call hdprobe            ; partitions from the configuration block
        call fdprobe            ; floppy units if a WD1772 answers
        call mkmap
        ld a,(nparts)
        add a,'0'
        call cout
        ld hl,partmsg
        call puts
        ld a,(nfd)
        add a,'0'
        call cout
        ld hl,fdmsg
        call puts
        jp gocpm

; Warm start: write back what is pending, reload CCP+BDOS from the system
; tracks of A: (the boot device), enter the CCP.
wboot:  ld sp,0100h
        call flush
        xor a
        ld (hstact),a
wb0:    ld c,0
        ld e,0
        call seldsk
        ld a,h
        or l
        jr z,wberr
        ld de,10                ; DPH+10: the DPB, whose first word is SPT
        add hl,de
        ld a,(hl)
        inc hl
        ld h,(hl)
        ld l,a
        ld e,(hl)
        inc hl
        ld d,(hl)
        ld (wbspt),de
        ld a,(sekdev)           ; the CCP's first record: 1, after the
        or a                    ; loader (floppy, Ampro's layout), or
        ld a,40                 ; block 10 (hard disk)
        jp p,wb1
        ld a,1
wb1:    ld c,a
        ld b,0
        ld (wbrec),bc
        ld hl,CCPBASE
        ld (wbdma),hl
        ld b,SYSREC
wb2:    push bc
        ld hl,(wbrec)           ; track = record / SPT, sector = the rest
        ld de,(wbspt)
        ld bc,0
wb3:    or a
        sbc hl,de
        jr c,wb4
        inc bc
        jr wb3
wb4:    add hl,de
        push hl
        call settrk
        pop bc
        call setsec
        ld bc,(wbdma)
        call setdma
        call read
        pop bc
        or a
        jr nz,wberr
        ld hl,(wbrec)
        inc hl
        ld (wbrec),hl
        ld hl,(wbdma)
        ld de,128
        add hl,de
        ld (wbdma),hl
        djnz wb2
        jr gocpm
wberr:  ld hl,wbmsg
        call puts
        call conin              ; wait for a key, then try again
        jp wb0

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
        ld e,a
        ld d,0
        ld hl,dmap
        add hl,de
        ld a,(hl)
        inc a
        jr nz,gocpm1
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
        db CTC2,27h, CTC2,125               ; timer, /256, TC 125: 125 Hz on ZC/TO2
        db CTC3,0C7h, CTC3,125              ; counter of ZC/TO2 (the cascade
        db 0FFh                             ; jumper), TC 125, interrupt: 1 Hz

; clkinit: with the ZC/TO2 -> CLK/TRG3 jumper channel 3 counts channel 2's
; 125 Hz and interrupts once a second, so no second is lost while
; interrupts are off [F AMBIOS]. Without it channel 3's count never moves:
; then channel 3 runs as a 125 Hz timer itself and the interrupt counts
; 125ths (a tick is lost only when interrupts stay off over 8 ms).
clkinit:
        in a,(CTC3)
        ld c,a
        ld hl,2000              ; 2000 x 26 T = 13 ms: more than one 8 ms period
clki1:  dec hl
        ld a,h
        or l
        jr nz,clki1
        in a,(CTC3)
        cp c
        ld a,1
        jr nz,clki2             ; it counted: the cascade is there
        ld a,03h                ; channel 2 off
        out (CTC2),a
        ld a,0A7h               ; channel 3: timer, /256, TC 125, interrupt
        out (CTC3),a
        ld a,125
        out (CTC3),a
clki2:  ld (tickrate),a
        ret

; mkmap: the drive map, boot device first. Entries: 0-4 a partition,
; 80h + unit a floppy, 0FFh no drive.
mkmap:  ld hl,dmap
        ld b,16
mkm0:   ld (hl),0FFh
        inc hl
        djnz mkm0
        ld hl,dmap
        ld a,(bootdev)
        or a
        jr z,mkm1
        call mkfd
        jr mkhd
mkm1:   call mkhd
mkfd:   ld a,(nfd)
        or a
        ret z
        ld b,a
        ld a,80h
mkf1:   ld (hl),a
        inc hl
        inc a
        djnz mkf1
        ret
mkhd:   ld a,(nparts)
        or a
        ret z
        ld b,a
        xor a
mkh1:   ld (hl),a
        inc hl
        inc a
        djnz mkh1
        ret

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

; CTC channel 3: tickrate interrupts a second (1 with the cascade, 125 without).
clock:  push af
        push hl
        ld hl,ticks
        inc (hl)
        ld a,(tickrate)
        dec a
        cp (hl)
        jr nc,clk2
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
; Disks. sekdev/hstdev: the drive map entry (partition, or 80h + floppy
; unit); rshift: records per host sector as a shift (2: 512 bytes, 3: 1024).

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

; seldsk: C = drive, E bit 0 = 0 when the BDOS logs it in. HL = its DPH,
; or 0 if there is no such drive (BDOS: SELECT error).
seldsk: ld hl,0
        ld a,c
        cp 16
        ret nc
        push de
        ld e,c
        ld d,0
        ld hl,dmap
        add hl,de
        pop de
        ld a,(hl)
        ld hl,0
        cp 0FFh
        ret z
        ld (sekdev),a
        or a
        jp m,selfd
        add a,a                 ; DPH = dphs + 16 * partition
        add a,a
        add a,a
        add a,a
        ld l,a
        ld bc,dphs
        add hl,bc
        ld a,2
        ld (rshift),a
        ret
selfd:  and 3
        ld (fdunit),a
        bit 0,e
        jr nz,selfd1
        call fdsense            ; log-in: which of the four formats?
        ld hl,0
        ret nz
selfd1: ld a,(fdunit)
        ld e,a
        ld d,0
        ld hl,fdfmt
        add hl,de
        ld a,(hl)               ; format 0-3 = amp1-amp4
        cp 4
        ld hl,0
        ret nc                  ; never sensed
        push af
        cp 2
        ld a,2                  ; amp3, amp4: 1024-byte sectors
        jr c,selfd2
        inc a
selfd2: ld (rshift),a
        ld a,e                  ; DPH = fdphs + 16 * unit
        add a,a
        add a,a
        add a,a
        add a,a
        ld l,a
        ld h,0
        ld bc,fdphs
        add hl,bc
        pop af                  ; its DPB: fdpbs + 15 * format
        push hl
        ld l,a
        ld h,0
        ld b,h
        ld c,l
        add hl,hl               ; x 15 = x 16 - x 1
        add hl,hl
        add hl,hl
        add hl,hl
        or a
        sbc hl,bc
        ld bc,fdpbs
        add hl,bc
        ex de,hl
        pop hl
        push hl
        ld bc,10
        add hl,bc
        ld (hl),e
        inc hl
        ld (hl),d
        pop hl
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

; locate: make the host buffer hold the host sector with the requested
; record. Z and HL = the record in the buffer; NZ and A = 1 on an error.
locate: ld a,(rshift)           ; host sector = record >> rshift
        ld b,a
        ld a,(seksec)
loc0:   srl a
        djnz loc0
        ld b,a
        ld a,(hstact)
        or a
        jr z,loc1
        ld a,(sekdev)
        ld hl,hstdev
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
        ld a,(sekdev)
        ld (hstdev),a
        ld a,(fdunit)
        ld (hstunit),a
        ld hl,(sektrk)
        ld (hsttrk),hl
        ld a,b
        ld (hstsec),a
        xor a                   ; read
        call hstio
        ret nz
        ld a,1
        ld (hstact),a
loc2:   ld a,(rshift)           ; HL = HSTBUF + 128 * (record AND mask)
        ld b,a
        ld a,1
loc3:   add a,a
        djnz loc3
        dec a
        ld hl,seksec
        and (hl)
        ld h,a                  ; x 128 = x 256 / 2
        ld l,0
        srl h
        rr l
        ld bc,HSTBUF
        add hl,bc
        xor a
        ret

; flush: write the host buffer back if it was changed. Z, or NZ and A = 1.
flush:  ld a,(hstwrt)
        or a
        ret z
        ld a,1                  ; write
        call hstio
        ret nz
        xor a
        ld (hstwrt),a
        ret

; hstio: read (A = 0) or write (A = 1) the host sector hstdev/hsttrk/
; hstsec. Z on success; NZ and A = 1 (the buffer is then invalid) when it
; failed.
hstio:  ld (hstop),a
        ld a,(hstdev)
        or a
        jp m,fdio
        ld a,(hstop)            ; READ(6) 08h or WRITE(6) 0Ah
        add a,a
        add a,08h
        ld hl,(hsttrk)          ; LBA = track * 16 + block
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld b,a
        ld a,(hstsec)
        or l
        ld l,a
        ld a,b
        call hdxfer
        ret z
hsterr: xor a
        ld (hstact),a
        ld (hstwrt),a
        inc a
        ret

; hdxfer: opcode A (READ(6) or WRITE(6)) of one block, block number HL;
; hdxfern: the same with C tries. Z when the target said GOOD.
hdxfer: ld c,TRIES
hdxfern:
        ld (cdb),a
        ld a,c
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
        and 2                   ; bursts run with interrupts off, so
        jr z,hdx4               ; nothing stretches them [A] (a slower
        di                      ; host overruns no target, docs/HARDWARE.md 1.5)
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
        call sl_init
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

; --- floppy ----------------------------------------------------------------

; fdprobe: a WD1772 answers if its sector register reads back [F AMPROM].
fdprobe:
        xor a
        ld (nfd),a
        ld hl,fdfmt
        ld (hl),0FFh
        inc hl
        ld (hl),0FFh
        ld hl,fdcyl
        ld (hl),0FFh            ; cylinder unknown: Restore first
        inc hl
        ld (hl),0FFh
        ld a,0FFh
        ld (fdlast),a
        ld a,5Ah
        out (FDSECW),a
        ex (sp),hl
        ex (sp),hl
        in a,(FDSECR)
        cp 5Ah
        ret nz
        ld a,NFD
        ld (nfd),a
        ret

; fdsense: Read Address on side 0 of unit fdunit: IDs from 17 mean two
; sides, size code 3 means 1024-byte sectors; fdfmt[unit] = 0-3 (amp1-
; amp4). Z on success; NZ when the drive gave up (no disk: reported).
fdsense:
        ld a,(fdunit)
        ld (hstunit),a
        ld hl,fdfmt             ; forget the old format
        ld e,a
        ld d,0
        add hl,de
        ld (hl),0FFh
        xor a
        ld (fdhead),a
        call fdsel
        ld a,TRIES
        ld (tries),a
fds1:   call fdhome
        jr nz,fds2
        ld hl,fdid
        ld a,FREADID
        call fdcmdr
        jr z,fds3
fds2:   cp 0FFh                 ; timed out: no disk
        jr z,fdnodisk
        cp NODRIVE              ; no drive: NZ, the BDOS's SELECT error,
        jr nz,fds2a             ; at once (no retries, no key to wait for)
        or a
        ret
fds2a:
        ld hl,tries
        dec (hl)
        jr nz,fds1
        or 1
        ret
fdnodisk:
        call fdwait             ; report, wait for a key (^C gives up)
        jr z,fdsense
        or 1
        ret
fds3:   ld a,(fdid)             ; the head's cylinder as the ID says: a
        out (FDTRKW),a          ; program that moved the head itself
                                ; (FORMAT) left our idea of it stale
        ld a,(fdid+2)           ; sector number
        cp 17
        ld b,0
        jr c,fds4
        inc b
fds4:   ld a,(fdid+3)           ; size code: 2 = 512, 3 = 1024
        cp 3
        ld a,b
        jr nz,fds5
        add a,2
fds5:   ld b,a
        ld a,(fdunit)
        ld e,a
        ld d,0
        ld hl,fdfmt
        add hl,de
        ld (hl),b
        xor a
        ret

; fdwait: unit hstunit has no disk: say so and wait for a key. Z: try
; again; NZ: ^C, give up.
fdwait: ld hl,nodisk1
        call puts
        ld a,(hstunit)
        add a,'0'
        call cout
        ld hl,nodisk2
        call puts
        call conin
        cp CTRLC
        push af
        ld hl,crlf
        call puts
        pop af
        jr z,fdwt1
        xor a
        ret
fdwt1:  or 1
        ret

; fdsel: select hstunit and side fdhead on port 00, and give the WD1772
; the unit's cylinder in its track register (one register, two drives).
fdsel:  ld a,(hstunit)
        ld hl,fdlast
        cp (hl)
        jr z,fdsel1
        ld b,a
        ld a,(hl)               ; keep the old unit's cylinder
        ld (hl),b
        cp 0FFh
        jr z,fdsel0
        ld e,a
        ld d,0
        ld hl,fdcyl
        add hl,de
        in a,(FDTRKR)
        ld (hl),a
fdsel0: ld a,(hstunit)
        ld e,a
        ld d,0
        ld hl,fdcyl
        add hl,de
        ld a,(hl)
        out (FDTRKW),a
fdsel1: ld a,(hstunit)
        ld b,a
        inc b
        ld a,80h                ; one-hot select bit
fdsel2: rlca
        djnz fdsel2
        or ROMOFF
        ld b,a
        ld a,(fdhead)
        or a
        ld a,b
        jr z,fdsel3
        or SIDE1
fdsel3: out (0),a
        ret

; fdhome: Restore if the unit's cylinder is unknown. Z, or NZ with A =
; status (0FFh: timed out).
fdhome: ld a,(hstunit)
        ld e,a
        ld d,0
        ld hl,fdcyl
        add hl,de
        ld a,(hl)
        cp 0FFh
        jr z,fdh1
        xor a                   ; known
        ret
fdh1:   push hl
        ld a,FRESTORE
        call fdcmd1
        pop hl
        ret nz
        in a,(FDSTAT)           ; no TR00 after 255 steps: no drive is
        and 4                   ; cabled (an empty drive still has TR00,
        jr nz,fdh2              ; docs/FLOPPY.md)
        ld a,NODRIVE
        or a
        ret
fdh2:   ld (hl),0
        xor a
        ret

; fdio: read (hstop 0) or write (1) host sector hstsec of CP/M track
; hsttrk on unit hstunit, three tries (a Restore before the last). A drive
; with no disk is reported and waited for. Z on success; NZ, A = 1 else.
fdio:   ld a,(hstunit)          ; the format of the unit
        ld e,a
        ld d,0
        ld hl,fdfmt
        add hl,de
        ld a,(hl)
        and 1                   ; DS: cylinder = track / 2, side = track AND 1
        ld hl,(hsttrk)
        ld b,0
        jr z,fdio1
        srl h
        rr l
        rl b
fdio1:  ld a,l
        ld (fdwant),a
        ld a,b
        ld (fdhead),a
        ld a,(hstsec)           ; sector ID: bias 16 on double-sided media
        inc a
        ld b,a
        ld hl,fdfmt
        add hl,de
        ld a,(hl)
        and 1
        ld a,b
        jr z,fdio2
        add a,16
fdio2:  ld (fdsec),a
        ld a,TRIES
        ld (tries),a
fdio3:  call fdsel
        call fdhome
        jr nz,fdfail
        ld a,(fdwant)           ; seek when the cylinder differs
        ld b,a
        in a,(FDTRKR)
        cp b
        jr z,fdio4
        ld a,b
        out (FDDATW),a
        ld a,FSEEK
        call fdcmd1
        jr nz,fdfail
fdio4:  ld a,(fdsec)
        out (FDSECW),a
        ld hl,HSTBUF
        ld a,(hstop)
        or a
        ld a,FREAD
        jr z,fdio5
        ld a,FWRITE
fdio5:  call fdcmdr
        jr nz,fdfail
        xor a
        ret
fdfail: cp 0FFh                 ; timed out: no disk (or no index)
        jr z,fdnone
        and FDWP
        jr nz,fdwprot
        ld hl,tries
        dec (hl)
        jp z,hsterr
        ld a,(hl)
        dec a
        jr nz,fdio3
        ld a,(hstunit)          ; before the last try: Restore
        ld e,a
        ld d,0
        ld hl,fdcyl
        add hl,de
        ld (hl),0FFh
        jr fdio3
fdnone: call fdwait
        jr z,fdio3
        jp hsterr
fdwprot:
        ld hl,wpmsg
        call puts
        jp hsterr

; fdcmd1: a type I command A (Restore, Seek), waited for. Z, or NZ and
; A = status (0FFh: timed out).
fdcmd1: out (FDCMD),a
        call fdsettle
fdc1:   in a,(FDSTAT)
        rrca
        jr nc,fdc2
        dec de
        ld a,d
        or e
        jr nz,fdc1
        call fdtick
        jr nz,fdc1
        jr fdtmo
fdc2:   in a,(FDSTAT)
        and 18h                 ; seek error, CRC
        ret

; fdcmdr: a type II/III command A moving data at HL: Read Address,
; Read Sector (into HL), Write Sector (from HL). Z, or NZ and A = status
; (0FFh: timed out). A byte waits at most one 59 T poll and moves in 36 T,
; well inside the 128 T a byte takes on the disk (lost data otherwise); so
; no interrupt may come in between: interrupts are off for the command
; (the DART's FIFO holds what the console sends meanwhile).
fdcmdr: di
        cp FWRITE
        jr z,fdw
        out (FDCMD),a
        call fdsettle
fdr1:   in a,(FDSTAT)           ; 11
        rrca                    ; 4  busy
        jr nc,fdend             ; 7
        rrca                    ; 4  DRQ
        jr c,fdrb               ; 7
        dec de                  ; 6
        ld a,d                  ; 4
        or e                    ; 4
        jr nz,fdr1              ; 12
        call fdtick
        jr nz,fdr1
        jr fdtmo
fdrb:   in a,(FDDATR)
        ld (hl),a
        inc hl
        jr fdr1
fdw:    out (FDCMD),a
        call fdsettle
fdw1:   in a,(FDSTAT)
        rrca
        jr nc,fdend
        rrca
        jr c,fdwb
        dec de
        ld a,d
        or e
        jr nz,fdw1
        call fdtick
        jr nz,fdw1
        jr fdtmo
fdwb:   ld a,(hl)
        out (FDDATW),a
        inc hl
        jr fdw1
fdend:  ei
        in a,(FDSTAT)
        and FDERR+FDWP
        ret z
        in a,(FDSTAT)
        ret

; fdtick: 65536 polls (0.97 s) went unanswered: use up one of FDUNITS.
; NZ while time is left.
fdtick: ld a,(fdtmoc)
        dec a
        ld (fdtmoc),a
        ret

; fdtmo: the command never ended (no disk: no index pulses): stop it.
fdtmo:  ei
        ld a,FFORCE
        out (FDCMD),a
        ld b,10
fdt1:   djnz fdt1
        in a,(FDSTAT)
        ld a,(hstunit)          ; the cylinder is no longer known
        ld e,a
        ld d,0
        ld hl,fdcyl
        add hl,de
        ld (hl),0FFh
        ld a,0FFh
        or a
        ret

; fdsettle: the status is valid 32 us (at 8 MHz) after a command; the
; timeout starts. DE = 0 (65536 polls a unit).
fdsettle:
        ld a,FDUNITS
        ld (fdtmoc),a
        ld de,0
        ld b,12
fds0:   djnz fds0
        ret

; The SCSI request blocks (scsilib's RQ_* layout) and the CDBs.
rq:     db HDTGT                ; RQ_TGT
rqmode: db 0                    ; RQ_MODE
        db 0                    ; RQ_BURST: 256
        db 6                    ; RQ_CDBL
        dw cdb                  ; RQ_CDB
        dw HSTBUF               ; RQ_BUF
        dw 512                  ; RQ_LEN
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
; the DPB, the checksum and allocation vectors. Hard disk partitions are
; fixed (no checksum vector, CKS 0).
dphs:
        dw 0,0,0,0,DIRBUF,dpb0,0,ALVHD+0*HDALV
        dw 0,0,0,0,DIRBUF,dpb1,0,ALVHD+1*HDALV
        dw 0,0,0,0,DIRBUF,dpb2,0,ALVHD+2*HDALV
        dw 0,0,0,0,DIRBUF,dpb3,0,ALVHD+3*HDALV
        dw 0,0,0,0,DIRBUF,dpb4,0,ALVHD+4*HDALV
; Floppy units: the DPB word is set by SELDSK to the sensed format's.
fdphs:
        dw 0,0,0,0,DIRBUF,fdpbs,FDVEC+FDALV,FDVEC
        dw 0,0,0,0,DIRBUF,fdpbs,FDVEC+FDALV+FDCSV+FDALV,FDVEC+FDALV+FDCSV

DPB     MACRO spt,bsh,blm,exm,dsm,drm,al0,al1,cks,offs
        dw spt
        db bsh,blm,exm
        dw dsm,drm
        db al0,al1
        dw cks,offs
        ENDM

; Hard disk partitions: 64 records a track, 4 KB blocks, 512 directory
; entries (4 blocks). Partition k starts at track 512k; OFF counts those
; tracks (plus the 2 system tracks of the first), so the BIOS's track
; number is the disk's. cpmtools: lbplus-hd0 ... lbplus-hd4 (docs/diskdefs).
dpb0:   DPB 64,5,31,1,1019,511,0F0h,0,0,2
dpb1:   DPB 64,5,31,1,1023,511,0F0h,0,0,1*PARTTRK
dpb2:   DPB 64,5,31,1,1023,511,0F0h,0,0,2*PARTTRK
dpb3:   DPB 64,5,31,1,1023,511,0F0h,0,0,3*PARTTRK
dpb4:   DPB 64,5,31,1,1023,511,0F0h,0,0,4*PARTTRK

; The Ampro floppy formats [F AMBIOS, CPMTOOLS amp1-amp4; docs/CPM.md]:
; 40 records a track, 2 KB blocks, 2 system tracks.
fdpbs:  DPB 40,4,15,1,94,63,80h,0,16,2          ; amp1 SS 48 tpi 10 x 512
        DPB 40,4,15,1,194,127,0C0h,0,32,2       ; amp2 DS 48 tpi 10 x 512
        DPB 40,4,15,1,194,127,0C0h,0,32,2       ; amp3 SS 96 tpi 5 x 1024
        DPB 40,4,15,0,394,255,0F0h,0,64,2       ; amp4 DS 96 tpi 5 x 1024

signon: db CR,LF,"lbplus CP/M 2.2 BIOS 1.2 - ",MSIZE/10+'0',MSIZE MOD 10+'0',"K",CR,LF,0
partmsg: db " hard disk partition(s), ",0
fdmsg:  db " floppy drive(s)",CR,LF,0
wbmsg:  db CR,LF,"Warm boot: cannot read the system tracks of A:; any key retries",CR,LF,0
nodisk1: db CR,LF,"Floppy drive ",0
nodisk2: db ": no disk. Insert one and press a key, or ^C",0
crlf:   db CR,LF,0
wpmsg:  db CR,LF,"Disk write protected",0

; Variables.
bootdev: db 0                   ; 0 hard disk, 1 floppy
nparts: db 0                    ; hard disk partitions
nfd:    db 0                    ; floppy units (0 without a WD1772)
dmap:   ds 16,0FFh              ; drive letter -> device
xmode:  db 0                    ; RQ_MODE bit 1: 256-byte bursts
sekdev: db 0
rshift: db 2
sektrk: dw 0
seksec: db 0
dmaadr: dw PZ_DMA
hstact: db 0
hstwrt: db 0
hstdev: db 0
hstunit: db 0
hsttrk: dw 0
hstsec: db 0
hstop:  db 0
wrtype: db 0
tries:  db 0
fdunit: db 0
fdfmt:  db 0FFh,0FFh            ; sensed format per unit (0FFh: none)
fdcyl:  db 0FFh,0FFh            ; cylinder per unit (0FFh: unknown)
fdlast: db 0FFh                 ; the unit whose cylinder the FDC holds
fdhead: db 0
fdwant: db 0
fdsec:  db 0
fdtmoc: db 0
fdid:   ds 6,0
wbspt:  dw 0
wbrec:  dw 0
wbdma:  dw 0
rxin:   db 0
rxout:  db 0

        INCLUDE "sl_scsi.inc"

; IM 2 vectors on a page boundary: CTC channels at +0 (channel 3 is the
; clock), the DART's status-affects-vector codes at +10h; the console
; ring buffer after them (32 bytes that never cross the page).
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
RXBUF:  ds 32,0

biosend:                        ; cpmbios.go checks biosend <= IMGEND
        end
