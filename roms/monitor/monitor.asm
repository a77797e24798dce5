; lbplus boot ROM for the Ampro Little Board/PLUS (4 KB EPROM at 0000h).
;
; At reset it does what Ampro's SCSI/floppy boot ROM does (docs/BOOT.md,
; the protocol; our own code): it copies itself to 8000h-8FFFh, runs the
; copy with the ROM switched off (port 00 bit 6), sets both DART channels to
; 9600 baud, and boots:
;
;   1. floppy drive A, if a WD1772 answers: one Restore, then up to five
;      Read Address tries (each timed out in software after about 1 s: an
;      empty drive gives no index pulses), double-sided media known by
;      sector IDs >= 17, sector 1 (or 17) of cylinder 0 read to 9000h;
;   2. SCSI, after 5 s: initiator ID 7 on the J9 jumpers makes the board the
;      master (1 s after reset it pulses SCSI RST and boots target 0); any
;      other ID boots target 7. READ(6) of block 0 to 9000h.
;
; A sector is bootable when its first byte is 21h (LD HL,nn) or 3Eh
; (LD A,n); the ROM then jumps to 9000h. When neither device boots it
; starts over. The jump table and variables at 8000h-802Bh are the entry
; points original boot sectors and HGEN hard-disk loaders call.
;
; A key typed while it boots enters the monitor; one command per line (hex
; numbers, any case):
;
;   D addr [count]      dump memory (whole lines of 16 bytes, default 80h)
;   S addr bb bb ...    store bytes from addr on
;   I port              read an I/O port (16-bit: high byte goes on A8-A15)
;   O port bb           write an I/O port
;   G addr              call addr; a RET comes back to the monitor
;   B [id]              boot: no id = floppy A then SCSI as at reset;
;                       id 0-7 = that SCSI target only
;   F                   boot floppy drive A only
;   H                   help
;   :llaaaatt...cc      an Intel HEX record, typed or pasted
;
; Intel HEX: data records (type 00) are stored as they arrive; the other
; record types are checked and ignored, and the end record (01) reports the
; byte count. A record line is echoed with a bare CR and no prompt follows
; it, so the monitor never sends more than it receives and a paste at full
; line speed cannot overrun the DART's three-byte receive FIFO.
;
; Memory: the ROM's copy at 8000h-8FFFh holds code, variables (8D00h-8E8Fh)
; and the stack (below 9000h); boot sectors load at 9000h. The rest of RAM
; is free for the monitor's commands.

ROMOFF  equ 40h             ; port 00: bit 6 maps RAM over the ROM
SIDE1   equ 10h             ; port 00: bit 4 selects side 1
DRIVEA  equ 01h             ; port 00: bit 0 selects drive A (one-hot)

CTC0    equ 40h             ; CTC channel 0: ZC/TO0 clocks DART A
CTC1    equ 50h             ; CTC channel 1: ZC/TO1 clocks DART B
DARTAD  equ 80h             ; DART A data
DARTAC  equ 84h             ; DART A control
DARTBD  equ 88h             ; DART B data
DARTBC  equ 8Ch             ; DART B control
CTCCNT  equ 57h             ; counter mode, rising edge, TC follows, reset
BAUDTC  equ 13              ; 2 MHz / 13 / 16 = 9615 baud

; WD1772 (docs/HARDWARE.md 1.3, docs/FLOPPY.md): written at C0h-C3h, read at C4h-C7h.
FDCMD   equ 0C0h            ; w: command
FDSTAT  equ 0C4h            ; r: status
FDTRKW  equ 0C1h
FDSECW  equ 0C2h            ; w: sector register
FDSECR  equ 0C6h            ; r: sector register
FDDATR  equ 0C7h            ; r: data
FRESTORE equ 08h            ; Restore, no spin-up wait (h=1), 6 ms steps
FSTEPIN equ 58h             ; Step In, update track register, h=1
FREADID equ 0C8h            ; Read Address, h=1
FREADSEC equ 88h            ; Read Sector, h=1, single sector
FFORCE  equ 0D0h            ; Force Interrupt, no condition
FERRMASK equ 1Ch            ; RNF, CRC error, lost data (type II/III)

BOOTSEC equ 9000h           ; where a boot sector is loaded and entered
STACK   equ 9000h           ; the ROM's stack, just below the boot sector
SCRATCH equ 8D00h           ; payload of non-data HEX records (<= 255 bytes)
VARS    equ 8E00h
hexcnt  equ VARS            ; bytes stored by HEX data records (2 bytes)
hextmp  equ VARS+2          ; hbyte's high nibble
hexlen  equ VARS+3          ; length byte of the current record
LINE    equ 8E40h           ; command line buffer
LINELEN equ 78

BLKSIZE equ 512             ; the one SCSI block size the ROM boots from
TRKBLKS equ 16              ; SCSI blocks per READTRK call (one Ampro track)

; SCSI variables (scmd, hdboot)
ssp     equ VARS+8          ; SP at scmd entry: errors return from there
scdb    equ VARS+10         ; next CDB byte
sbuf    equ VARS+12         ; next DATA IN store address
slim    equ VARS+14         ; room left in the buffer
scnt    equ VARS+16         ; DATA IN bytes the target sent
sstat   equ VARS+18         ; status byte (0FFh: none)
btgt    equ VARS+19         ; boot target ID
SENSE   equ VARS+20         ; REQUEST SENSE data (SENSELEN bytes)
SENSELEN equ 4              ; the ACB-4000's non-extended sense
sdout   equ VARS+24         ; next DATA OUT byte (801Bh only)
sdolen  equ VARS+26         ; DATA OUT bytes left (0: DATA OUT is an error)
hlba    equ VARS+28         ; next block READTRK reads in SCSI mode
bdev    equ VARS+29         ; what READTRK reads: 0 floppy, 1 SCSI
tries   equ VARS+30         ; floppy retry counter
fdtmo   equ VARS+31         ; floppy wait: outer timeout count
has5380 equ VARS+32         ; 0: a 5380 answered at reset
quiet   equ VARS+33         ; 1: the automatic boot already said it failed
ldma    equ VARS+34         ; DMA address at the start of a sector (retries)
fdcmd   equ VARS+36         ; the floppy command fdrun issues
sarbn   equ VARS+37         ; arbitration tries left

; NCR 5380 (docs/HARDWARE.md 1.3, 3.1), driven by programmed I/O only, so
; booting needs no code outside this ROM.
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
ICRBSY  equ 08h
ICRAIP  equ 40h             ; read: arbitration in progress
ICRLA   equ 20h             ; read: lost arbitration
MRARB   equ 01h             ; mode: arbitrate
CSBBSY  equ 40h
CSBREQ  equ 20h
CSBSEL  equ 02h
PHDOUT  equ 0               ; phases as MSG C/D I/O
PHDIN   equ 1
PHCMD   equ 2
PHSTAT  equ 3
PHMIN   equ 7
; Selection waits SELPOLLS polls of 51 T: 19600 x 12.75 us = 250 ms, the
; SCSI-1 selection timeout [F SCSI-T].
SELPOLLS equ 19600
; Any other wait for the target gives up after REQUNITS x 65536 polls of
; 70 T (1.15 s each) [A]: far beyond a seek and a rotation of the ST-125.
REQUNITS equ 5
; Delays poll the console: one poll is 48 T, so 20833 polls are 250 ms.
Q250MS  equ 20833
; A floppy command is given FDUNITS x 65536 status polls before the ROM
; forces an interrupt: 59 T a poll while data may move (0.97 s each), 48 T
; during Restore or Step In (0.79 s). Ampro's ROM allows about 1 s
; [F AMPROM; docs/BOOT.md].
FDUNITS equ 1

CR      equ 0Dh
LF      equ 0Ah
BS      equ 08h
DEL     equ 7Fh

        org 8000h
; The jump table and variables original boot sectors use [F AMPROM, HGEN;
; docs/BOOT.md]. Entry 8000h is a relative jump, so the same bytes
; restart the ROM at reset (PC = 0000h, running in the EPROM) and when a
; program calls 8000h in the RAM copy.
restart:
        jr reset0           ; 8000 restart
        db 0
        jp fdsetup          ; 8003 select drive A, Restore
        jp fdstepin         ; 8006 next track (side 1 first on DS media)
        jp fdside1          ; 8009 select side 1
        jp fdclear          ; 800C Force Interrupt
        jp setdma           ; 800F DMA address = HL
        jp readtrk          ; 8012 read a track (16 blocks in SCSI boot)
        jp readsec          ; 8015 read the sector in the FDC's register
        jp readid           ; 8018 Read Address into idsv
        jp inithdc          ; 801B run a SCSI command: HL = CDB, DE = data
dmaadr: dw BOOTSEC          ; 801E where the next sector goes
idsv:   db 0,0,0,0,0,0      ; 8020 last ID: track, side, sector, size, CRC
selbyt: db 0                ; 8026 port 00 value for the floppy
track:  db 0                ; 8027 track
sector: db 0                ; 8028 sector
status: db 0                ; 8029 status of the last floppy command
twosid: db 0                ; 802A 1: double-sided media
sbias:  db 0                ; 802B sector number bias (0 or 16)

; Runs at 00xxh in the EPROM at reset: position independent until the JP.
reset0: di
        xor a
        out (0),a           ; ROM on, no drive selected
        ld hl,0
        ld de,restart
        ld bc,1000h
        ldir
        jp init

init:   ld sp,STACK
        ld a,ROMOFF
        out (0),a
        ld hl,VARS          ; variables start at 0
        ld b,0
iniv:   ld (hl),0
        inc hl
        djnz iniv
        ld hl,iotab
        ld b,IOTABN
initio: ld c,(hl)
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        djnz initio
        ld hl,bootbanner
        call puts

; autoboot: the power-on sequence. Returns to the prompt never: it loops
; until something boots or a key is typed.
autoboot:
        ld sp,STACK
        call scsiid         ; master (ID 7): 1 s, then SCSI RST
        call fdboot         ; boots, or returns when the floppy fails
        ld a,(has5380)
        or a
        jr nz,abfail
        ld a,20             ; 5 s before the bus is tried [F AMPROM]
        call delay
        call hdauto         ; boots, or returns CF=1 and HL = why
abfail: ld a,(quiet)
        or a
        jr nz,abagain
        inc a
        ld (quiet),a
        ld hl,nobootmsg
        call puts
abagain:
        xor a               ; start over [F AMPROM]
        out (0),a
        ld a,ROMOFF
        out (0),a
        jr autoboot

; scsiid: read the J9 ID, choose the boot target (0 when we are 7, else 7),
; reset the bus when we are the master, and see whether a 5380 answers.
scsiid: in a,(NCRID)
        and 7
        cp 7
        ld a,7
        jr nz,sid1
        ld a,4              ; 1 s for the devices to power up [F AMPROM]
        call delay
        call busreset
        xor a
sid1:   ld (btgt),a
        xor a
        out (NCRICR),a
        out (NCRMR),a
        out (NCRTCR),a
        out (NCRCSB),a
        in a,(NCRMR)        ; a 5380 reads its mode back (0)
        ld (has5380),a
        ret

; busreset: SCSI RST for at least the 25 us reset hold time [F SCSI-T].
busreset:
        ld a,ICRRST
        out (NCRICR),a
        ld b,20             ; 20 x 13 T = 65 us
busrs1: djnz busrs1
        xor a
        out (NCRICR),a
        out (NCRTCR),a
        in a,(NCRRPI)
        ret

; delay: wait A x 250 ms; a key typed meanwhile enters the monitor.
delay:  ld b,a
dly0:   ld hl,Q250MS
dly1:   in a,(DARTAC)       ; 11
        rrca                ; 4
        jr c,keyhit         ; 7
        dec hl              ; 6
        ld a,h              ; 4
        or l                ; 4
        jr nz,dly1          ; 12
        djnz dly0
        ret

; keyhit: a key during the boot: leave the hardware quiet, enter the monitor.
keyhit: in a,(DARTAD)       ; the key itself is not a command
        ld sp,STACK
        ld a,(bdev)
        or a
        jr nz,kh1
        call fdc_ok
        jr nz,kh1
        ld a,FFORCE
        out (FDCMD),a
kh1:    ld a,ROMOFF         ; no drive selected
        out (0),a
        ld hl,monbanner
        call puts
        jp prompt

; --- floppy -------------------------------------------------------------

; fdc_ok: Z if a WD1772 answers: its sector register reads back [F AMPROM].
fdc_ok: ld a,0A5h
        out (FDSECW),a
        ex (sp),hl          ; a few us for the register to settle
        ex (sp),hl
        in a,(FDSECR)
        cp 0A5h
        ret

; fdboot: boot from floppy drive A, or return (CF=1, HL = why) if it fails.
; Drive A is selected and restored once; then Read Address is tried up to
; five times, each given about 1 s (a timed-out one ends with Force
; Interrupt, which leaves the drive ready for the next). With no drive
; cabled the Restore never sees TR00 and runs into its own timeout, once.
fdboot: xor a
        ld (bdev),a
        call fdc_ok
        ld hl,nofdcmsg
        scf
        ret nz
        call fdsetup        ; one Restore, not one a try [F AMPROM]
        ld a,5              ; Read Address: five tries [F AMPROM]
        ld (tries),a
fdb1:   call readid
        jr z,fdb2
        ld hl,tries
        dec (hl)
        jr nz,fdb1
        call fdquiet
        ld hl,nodiskmsg
        scf
        ret
fdb2:   xor a
        ld (twosid),a
        ld (sbias),a
        ld a,(idsv+2)       ; sector IDs from 17 on: double-sided [F AMPROM]
        cp 17
        jr c,fdb3
        ld a,1
        ld (twosid),a
        ld a,16
        ld (sbias),a
fdb3:   ld hl,BOOTSEC
        ld (dmaadr),hl
        ld a,(sbias)
        inc a
        ld (sector),a
        call rdretry
        jr z,fdb4
        call fdquiet
        ld hl,fdreadmsg
        scf
        ret
fdb4:   ld a,(BOOTSEC)
        call bootable
        jr z,fdgo
        call fdquiet
        ld hl,fdnotmsg
        scf
        ret
fdgo:   ld a,0FFh           ; A = FFh: booted from floppy
        jp bootgo

; fdquiet: deselect the drive after a failed floppy boot.
fdquiet:
        ld a,ROMOFF
        out (0),a
        ret

; fdsetup (8003h): select drive A, side 0, Restore.
fdsetup:
        ld a,ROMOFF+DRIVEA
        ld (selbyt),a
        out (0),a
        xor a
        ld (track),a
        call fdclear
        ld a,FRESTORE
        jp fdrun

; fdclear (800Ch): Force Interrupt, then clear status and data.
fdclear:
        ld a,FFORCE
        out (FDCMD),a
        ld a,20             ; > 16 us for the 1772 to take it
fdcl1:  dec a
        jr nz,fdcl1
        in a,(FDSTAT)
        in a,(FDDATR)
        ret

; fdside1 (8009h): select side 1 of the drive selected.
fdside1:
        ld a,(selbyt)
        or SIDE1
        ld (selbyt),a
        out (0),a
        ret

; fdstepin (8006h): the next boot track. On double-sided media the track
; after side 0 is side 1 of the same cylinder [F AMPROM]; otherwise step in
; one cylinder (and go back to side 0).
fdstepin:
        ld a,(twosid)
        or a
        jr z,fdsi1
        ld a,(selbyt)
        and SIDE1
        jr z,fdside1
        ld a,(selbyt)
        and ~SIDE1
        ld (selbyt),a
        out (0),a
fdsi1:  ld a,(selbyt)        ; the drive again, in case the caller
        out (0),a           ; deselected it (see rdretry)
        ld hl,track
        inc (hl)
        ld a,FSTEPIN
        jp fdrun

; setdma (800Fh): the next sector goes to HL.
setdma: ld (dmaadr),hl
        ret

; readid (8018h): Read Address into idsv. A = status, Z if it worked.
readid: ld hl,idsv
        ld a,FREADID
        call fdxfer
        ret

; readsec (8015h): Read Sector (the sector the FDC's sector register
; names) to the DMA address, which moves past it. A = status, Z if good.
readsec:
        ld hl,(dmaadr)
        ld a,FREADSEC
        call fdxfer
        ld (dmaadr),hl
        ret

; rdretry: read sector (sector) with five tries, each from the same DMA
; address. A = status, Z if good. It selects the drive from selbyt first:
; boot sectors write 40h (ROM off, no drive) to port 00 before they call
; READTRK (docs/BOOT.md) [A: why the ROM keeps SELBYT].
rdretry:
        ld a,(selbyt)
        out (0),a
        ld a,5
        ld (tries),a
        ld hl,(dmaadr)
        ld (ldma),hl
rdr1:   ld hl,(ldma)
        ld (dmaadr),hl
        ld a,(sector)
        out (FDSECW),a
        call readsec
        ret z
        ld hl,tries
        dec (hl)
        jr nz,rdr1
        or 1                ; NZ
        ret

; readtrk (8012h): read every sector of the track (floppy: sectors 1-10 or
; 1-5 plus the bias, by the size code of the last ID; SCSI boot: the next
; 16 blocks) to the DMA address. A = 0 and Z when all were read.
readtrk:
        ld a,(bdev)
        or a
        jp nz,hdtrack
        ld a,(idsv+3)       ; size code 3 = 1024 bytes: 5 a track
        cp 3
        ld b,10
        jr nz,rt1
        ld b,5
rt1:    ld a,(sbias)
        inc a
        ld (sector),a
rt2:    push bc
        call rdretry
        pop bc
        ret nz
        ld hl,sector
        inc (hl)
        djnz rt2
        xor a
        ret

; fdxfer: issue command A and move the bytes it offers to (HL) until it
; ends or about a second passes (then Force Interrupt: an empty drive gives
; no index pulses, so the 1772 would wait forever [docs/FLOPPY.md]).
; Out: HL past the data, A = (status) = final status (0FFh on timeout),
; Z if no RNF/CRC/lost-data error and no timeout.
fdxfer: ld (fdcmd),a
        in a,(FDSTAT)       ; clear INTRQ and a stale data byte
        in a,(FDDATR)
        ld a,(fdcmd)
        out (FDCMD),a
        ld a,12             ; > 32 us before status is valid [F WD1772]
fdx0:   dec a
        jr nz,fdx0
        ld a,FDUNITS
        ld (fdtmo),a
        ld de,0
fdx1:   in a,(FDSTAT)       ; 11
        rrca                ; 4  busy
        jr nc,fdxend        ; 7
        rrca                ; 4  DRQ
        jr c,fdxbyte        ; 7
        dec de              ; 6
        ld a,d              ; 4
        or e                ; 4
        jr nz,fdx1          ; 10 (jp)
        call fdtick
        jr nz,fdx1
        jr fdtimeout
fdxbyte:
        in a,(FDDATR)
        ld (hl),a
        inc hl
        jr fdx1
fdxend: in a,(FDSTAT)
        ld (status),a
        and FERRMASK
        ld a,(status)
        ret

; fdrun: issue type I command A and wait for it to end, with the same
; timeout (type I status bit 1 is the index pulse, not DRQ: no data moves).
; A = (status), Z unless it timed out or the seek failed.
fdrun:  ld (fdcmd),a
        in a,(FDSTAT)
        ld a,(fdcmd)
        out (FDCMD),a
        ld a,12
fdr0:   dec a
        jr nz,fdr0
        ld a,FDUNITS
        ld (fdtmo),a
        ld de,0
fdr1:   in a,(FDSTAT)
        rrca
        jr nc,fdrend
        dec de
        ld a,d
        or e
        jr nz,fdr1
        call fdtick
        jr nz,fdr1
        jr fdtimeout
fdrend: in a,(FDSTAT)
        ld (status),a
        and 10h             ; seek error
        ld a,(status)
        ret

; fdtick: one timeout unit has passed: look for a key, count the unit.
; NZ while time is left.
fdtick: in a,(DARTAC)
        rrca
        jp c,keyhit
        ld a,(fdtmo)
        dec a
        ld (fdtmo),a
        ret

; fdtimeout: the command never ended: Force Interrupt, status 0FFh, NZ.
fdtimeout:
        call fdclear
        ld a,0FFh
        ld (status),a
        or a
        ret

; --- SCSI boot ------------------------------------------------------------

; hdauto: the automatic SCSI boot of the boot target: returns CF=1, HL = why.
hdauto: ld a,(btgt)
        call hdread0
        ret c
        jr hdgo

; hdread0: read block 0 of target A to BOOTSEC, with a second try after
; CHECK CONDITION [F AMPROM]. CF=0: block read and bootable. CF=1: HL = why.
hdread0:
        ld (btgt),a
        ld a,2
        ld (tries),a
hr0:    ld hl,BOOTSEC
        ld (hl),0
        ld a,(btgt)
        ld hl,readcdb
        ld de,BOOTSEC
        ld bc,BLKSIZE
        call scmd
        ret c
        and 1Eh             ; status code (bits 1-4; the rest vendor/reserved)
        jr z,hrgood
        cp 2
        jr z,hrcheck
        ld hl,statmsg
        scf
        ret
hrcheck:
        ld a,(btgt)         ; CHECK CONDITION: ask why, then try again
        ld hl,sensecdb
        ld de,SENSE
        ld bc,SENSELEN
        call scmd
        ld hl,checkmsg
        ret c
        ld hl,tries
        dec (hl)
        jr nz,hr0
        ld hl,checkmsg
        scf
        ret
hrgood: ld hl,(scnt)
        ld de,-BLKSIZE
        add hl,de
        ld a,h
        or l
        ld hl,shortmsg
        scf
        ret nz
        ld a,(BOOTSEC)
        call bootable
        ld hl,notbootmsg
        scf
        ret nz
        or a
        ret

; hdgo: start block 0 in SCSI mode: READTRK reads blocks from 0 on.
hdgo:   ld a,1
        ld (bdev),a
        xor a
        ld (hlba),a
        ld a,(btgt)
        ; fall through

; bootgo: enter the boot sector at 9000h with A = the SCSI target it came
; from (FFh: floppy), interrupts off and a return address to the monitor
; prompt on the stack.
bootgo: ld sp,STACK
        ld hl,prompt
        push hl
        jp BOOTSEC

; bootable: Z if A, a boot sector's first byte, is LD HL,nn or LD A,n.
bootable:
        cp 21h
        ret z
        cp 3Eh
        ret

; hdtrack: READTRK in SCSI boot: the next 16 blocks to the DMA address,
; one READ(6) each [F AMPROM], two tries each. A failure starts the boot
; over, as Ampro's ROM does.
hdtrack:
        ld b,TRKBLKS
hdt1:   push bc
        ld a,2
        ld (tries),a
hdt2:   ld a,(hlba)
        ld (rwcdb+3),a
        ld a,(btgt)
        ld hl,rwcdb
        ld de,(dmaadr)
        ld bc,BLKSIZE
        call scmd
        jr c,hdterr
        and 1Eh
        jr z,hdt3
        ld a,(btgt)
        ld hl,sensecdb
        ld de,SENSE
        ld bc,SENSELEN
        call scmd
        ld hl,tries
        dec (hl)
        jr nz,hdt2
        ld hl,checkmsg
hdterr: call bfail
        call crlf
        jp abagain
hdt3:   ld hl,(dmaadr)
        ld de,BLKSIZE
        add hl,de
        ld (dmaadr),hl
        ld hl,hlba
        inc (hl)
        pop bc
        djnz hdt1
        xor a
        ret

; inithdc (801Bh): run one 6-byte command on the boot target with DATA OUT
; from DE (at most 16 bytes), for controllers that need drive parameters
; [F HGEN]. A = status, Z if GOOD; a failure the bus cannot finish is NZ.
inithdc:
        ld (sdout),de
        ld a,16
        ld (sdolen),a
        ld a,(btgt)
        ld de,SENSE
        ld bc,0
        call scmd
        push af
        xor a
        ld (sdolen),a
        pop af
        jr c,ihc1
        and 1Eh
        ret
ihc1:   or 1
        ret

; B [id]: no id: the power-on sequence; id 0-7: boot that SCSI target.
cmd_b:  call gethex
        jr c,bauto
        ld a,d
        or a
        jp nz,synerr
        ld a,e
        cp 8
        jp nc,synerr
        ld (btgt),a
        ld hl,bootmsg
        call puts
        ld a,(btgt)
        call phexn
        call crlf
        ld a,(btgt)
        call hdread0
        jp nc,hdgo
        call bfail
        ld de,statmsg       ; status and sense are worth seeing
        or a
        sbc hl,de
        jr nz,bnotst
        ld a,(sstat)
        call phex8
        jr bnl
bnotst: add hl,de
        ld de,checkmsg
        or a
        sbc hl,de
        jr nz,bnl
        ld a,(scnt)         ; show what came, at most SENSELEN bytes
        or a
        jr z,bnl
        cp SENSELEN+1
        jr c,bsn
        ld a,SENSELEN
bsn:    ld b,a
        ld hl,sensemsg
        call puts
        ld hl,SENSE
bsloop: ld a,' '
        call putc
        ld a,(hl)
        call phex8
        inc hl
        djnz bsloop
bnl:    call crlf
        jp prompt
bauto:  ld a,(hl)
        or a
        jp nz,synerr
        xor a
        ld (quiet),a
        jp autoboot

; F: boot floppy drive A.
cmd_f:  ld hl,fbootmsg
        call puts
        call fdboot         ; returns only on failure
        push hl
        ld hl,floppymsg
        call puts
        pop hl
        call puts
        jr bnl

; bfail: print "SCSI n: " and the message at HL (no line end). Keeps HL.
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
        push hl
        call puts
        pop hl
        ret

readcdb:
        db 08h,0,0,0,1,0    ; READ(6) LUN 0, block 0, one block
rwcdb:  db 08h,0,0,0,1,0    ; READTRK's READ(6); byte 3 = block
sensecdb:
        db 03h,0,0,0,SENSELEN,0 ; REQUEST SENSE LUN 0

; --- monitor --------------------------------------------------------------

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

; Each entry: command letter, handler address.
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
        db 'F'
        dw cmd_f
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

; scmd: run one 6-byte SCSI command as initiator by programmed I/O:
; arbitration, as Ampro's ROM does, then selection without ATN/IDENTIFY
; (SASI style, as the ACB-4000 accepts).
; In:  A = target ID, HL = CDB, DE = buffer, BC = buffer size; DATA OUT
;      takes (sdolen) bytes from (sdout) (none: DATA OUT is an error).
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
        ld d,a              ; D = our ID bit
        ld a,c
        call idbit
        or d
        ld b,a              ; B = our ID bit + the target's
        ld a,4              ; arbitration lost: try again, a few times
        ld (sarbn),a
; Arbitration [F AMPROM; docs/HARDWARE.md 3.2]: the 5380 waits for bus free,
; then drives BSY and our ID and sets AIP; after the arbitration delay we
; have won unless it lost (LA) or a higher ID is on the bus.
sarb:   ld a,d
        out (NCRDATA),a
        ld a,MRARB
        out (NCRMR),a
        ld hl,0             ; 65536 polls for the bus to go free
sarb1:  in a,(NCRICR)
        and ICRAIP
        jr nz,sarb2
        dec hl
        ld a,h
        or l
        jr nz,sarb1
        xor a
        out (NCRMR),a
        ld hl,busymsg
        jp serr
sarb2:  ex (sp),hl          ; 38 T = 9.5 us: the 2.2 us arbitration delay
        ex (sp),hl
        in a,(NCRICR)
        and ICRLA
        jr nz,slost
        ld a,d              ; bits above ours: -(our bit x 2)
        add a,a
        neg
        ld e,a
        in a,(NCRDATA)
        and e
        jr nz,slost
        ld a,ICRBSY+ICRSEL  ; won: SEL while we still hold BSY
        out (NCRICR),a
        xor a
        out (NCRMR),a
        ld a,b              ; both IDs on the bus (1.2 us after SEL: the
        out (NCRDATA),a     ; OUT takes 2.75 us)
        ld a,ICRBSY+ICRSEL+ICRDBUS
        out (NCRICR),a
        ld a,ICRDBUS+ICRSEL ; release BSY: the target answers with its own
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
        jr sphase
slost:  xor a               ; another initiator won: let go, try again
        out (NCRMR),a
        out (NCRICR),a
        ld hl,sarbn
        dec (hl)
        jr nz,sarb
        ld hl,busymsg
        jp serr

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
        cp PHDOUT
        jr z,spdout
spbad:  ld hl,phasemsg      ; MESSAGE OUT, or DATA OUT with nothing to send
        jp sabort
spdout: ld a,(sdolen)
        or a
        jr z,spbad
        dec a
        ld (sdolen),a
        ld hl,(sdout)
        ld a,(hl)
        inc hl
        ld (sdout),hl
        call sout
        jr sphase
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

; Port, value pairs sent at reset: CTC channels 0 and 1 as x16 baud clocks
; (counter mode, time constant 13 [F AMPROM]), then each DART channel reset
; and set to 8 data bits, no parity, 1 stop bit, x16 clock, receiver and
; transmitter enabled, DTR and RTS on, no interrupts.
iotab:  db CTC0,CTCCNT, CTC0,BAUDTC
        db CTC1,CTCCNT, CTC1,BAUDTC
        db DARTAC,18h, DARTAC,4, DARTAC,44h, DARTAC,3, DARTAC,0C1h
        db DARTAC,5, DARTAC,0EAh, DARTAC,1, DARTAC,0
        db DARTBC,18h, DARTBC,4, DARTBC,44h, DARTBC,3, DARTBC,0C1h
        db DARTBC,5, DARTBC,0EAh, DARTBC,1, DARTBC,0
IOTABN  equ ($-iotab)/2

bootbanner:
        db CR,LF,"lbplus boot ROM 2.0 - Ampro Little Board/PLUS",CR,LF
        db "Booting: floppy A, then SCSI. Any key: monitor",CR,LF,0
monbanner:
        db CR,LF,"lbplus monitor - H for help",CR,LF,0
nobootmsg:
        db "No boot disk: trying again",CR,LF,0
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
fbootmsg:
        db "Boot floppy A",CR,LF,0
floppymsg:
        db "Floppy A: ",0
nofdcmsg:
        db "no WD1772 at C0h",0
nodiskmsg:
        db "no disk (Read Address timed out)",0
fdreadmsg:
        db "cannot read the boot sector",0
fdnotmsg:
        db "not a boot sector",0
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
        db "block 0 is not 512 bytes",0
notbootmsg:
        db "block 0 is not a boot block",0
helpmsg:
        db "D addr [count]    dump memory",CR,LF
        db "S addr bb bb ...  store bytes",CR,LF
        db "I port            read port",CR,LF
        db "O port bb         write port",CR,LF
        db "G addr            call addr",CR,LF
        db "B [id]            boot (id: SCSI target only)",CR,LF
        db "F                 boot floppy A",CR,LF
        db ":llaaaatt..cc     Intel HEX record",CR,LF,0

        ds SCRATCH-$,0FFh
        ds 9000h-$,0FFh     ; scratch, variables, line buffer and stack
        end
