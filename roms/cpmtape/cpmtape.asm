; cpmtape.asm - BACKUP.COM and RESTORE.COM: a hard disk partition to the
; MCD-403 tape and back, as CP/M 2.2 programs (docs/CPM.md).
;
;   BACKUP d:       copies the data area of drive d: (a partition of the
;                   SCSI disk at ID 0) to the tape at SCSI ID 1, from tape
;                   block 0 on, in 8 KB tape blocks
;   RESTORE d:      copies it back from the tape, then warm boots
;
; The best settings of Stubblebine's 1990 story (docs/STORY.md): one
; READ(6) of 16 blocks (8 KB) from the disk in 256-byte INIR bursts, one
; WRITE(6) of an 8 KB block to the tape in 16-byte OTIR bursts (256-byte
; bursts hang the tape). The interleaves are the media's own: lbplus disk
; create and tape create format both at the story's 3:1. RESTORE reads the
; tape in 16-byte bursts and writes the disk byte by byte. At the end both
; print the kilobytes, the seconds and the rate in bytes a second, as the
; story measured it. Assembled twice: RESTORE = 0 gives BACKUP.COM, 1
; RESTORE.COM.
;
; The drive's extent comes from the BDOS (function 31, its DPB): OFF
; tracks of 16 blocks before it, (DSM + 1) blocks of 2^BSH records. The
; time comes from the BIOS's clock (seconds at BIOS+35h) when its
; signature "LB" is at BIOS+33h.
;
; Interrupts: an interrupt inside a burst only makes the host slower, which
; no target minds, but sl_exec keeps its timeout count in HL', which an
; interrupt handler that uses EXX would spoil. lbplus's BIOS (the "LB"
; signature) promises that its handlers leave the alternate registers
; alone (docs/CPM.md), so under it interrupts stay on and its clock loses
; no tick while the tape repositions inside a command; under any other
; BIOS each SCSI command runs with interrupts off.

        INCLUDE "layout.inc"
        INCLUDE "sl_hw.inc"

; RESTORE is given (-D RESTORE=1) for RESTORE.COM; 0 makes BACKUP.COM.
; "IF DEFINED" rather than IFNDEF: pasmo, which cross-checks our assembler
; on every roms/ program, takes IFNDEF for macros.
        IF DEFINED RESTORE
        ELSE
RESTORE equ 0
        ENDIF

DISKID  equ 0
TAPEID  equ 1
PASSBLK equ 16                  ; disk blocks per pass: one 8 KB tape block
TAPEBLK equ 8192
BUF     equ 4000h
CR      equ 0Dh
LF      equ 0Ah

        org TPA
        jp start

        INCLUDE "sl_scsi.inc"

start:  ld sp,stack
        ld a,(PZ_FCB)           ; the drive named on the command line
        or a
        jr nz,st1
        ld de,m_usage
        jp quit
st1:    dec a
        ld (drive),a
        add a,'A'
        ld (m_drv),a
        ld c,14                 ; select disk
        ld a,(drive)
        ld e,a
        call PZ_BDOS
        ld c,31                 ; its DPB
        call PZ_BDOS
        ld a,(hl)               ; SPT 64: a partition of the hard disk
        cp 64
        jp nz,nothd
        inc hl
        ld a,(hl)
        or a
        jp nz,nothd
        inc hl
        ld a,(hl)               ; BSH: blocks of 2^BSH records
        sub 2                   ; 512-byte disk blocks per CP/M block
        ld b,a
        inc hl
        inc hl
        inc hl
        ld e,(hl)               ; DSM
        inc hl
        ld d,(hl)
        inc de
        ex de,hl                ; HL = CP/M blocks
st2:    add hl,hl
        djnz st2
        ld de,PASSBLK-1         ; passes = disk blocks / 16
        add hl,de
        ld b,4
st3:    srl h
        rr l
        djnz st3
        ld (passes),hl
        ld c,31                 ; OFF at DPB+13
        call PZ_BDOS
        ld de,13
        add hl,de
        ld e,(hl)
        inc hl
        ld d,(hl)
        ex de,hl                ; first disk block = OFF * 16
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld (lba),hl
        ld hl,0
        ld (tblk),hl

        IF RESTORE
        ld c,13                 ; the BDOS forgets the drive
        call PZ_BDOS
        ENDIF
        call flushbios          ; a changed host sector goes to its disk:
                                ; BACKUP reads the disk, RESTORE replaces it

        ld de,m_start
        call print
        call sl_init
        call sig
        ld a,0
        jr nz,st4
        inc a
st4:    ld (ours),a
        call clock
        ld (t0),hl
        ld a,DISKID
        call ready
        jp c,scsierr
        ld a,TAPEID
        call ready
        jp c,scsierr

pass:   ld hl,(passes)
        ld a,h
        or l
        jp z,done
        dec hl
        ld (passes),hl
        IF RESTORE
        call tapeio
        jp c,scsierr
        call diskio
        jp c,scsierr
        ELSE
        call diskio
        jp c,scsierr
        call tapeio
        jp c,scsierr
        ENDIF
        ld hl,(lba)
        ld de,PASSBLK
        add hl,de
        ld (lba),hl
        ld hl,(tblk)
        inc hl
        ld (tblk),hl
        ld a,l                  ; a dot every 64 KB
        and 7
        jr nz,pass
        ld e,'.'
        ld c,2
        call PZ_BDOS
        jr pass

done:   call clock
        ld de,(t0)
        or a
        sbc hl,de
        ld (secs),hl
        ld de,m_done
        call print
        ld hl,(tblk)            ; KB = tape blocks * 8
        add hl,hl
        add hl,hl
        add hl,hl
        call pdec
        ld de,m_kb
        call print
        ld hl,(secs)
        call pdec
        ld de,m_s
        call print
        ld hl,(secs)            ; the rate: tape blocks * 8192 / seconds
        ld a,h
        or l
        jr z,nort
        ld hl,(tblk)
        ld (num),hl
        ld hl,0
        ld (num+2),hl
        ld b,13
rt1:    call shl32
        djnz rt1
        ld bc,(secs)
        call div32
        ld de,m_comma
        call print
        call pdec32
        ld de,m_rate
        call print
nort:   ld de,m_crlf
quit:   call print
        jp 0                    ; warm boot: the BDOS logs the drive in again

; diskio: READ(6) (BACKUP) or WRITE(6) (RESTORE) of 16 blocks at lba,
; 256-byte bursts. CF on failure.
diskio: ld a,DISKID
        ld (rq+RQ_TGT),a
        IF RESTORE
        ld a,1                  ; DATA OUT byte by byte: a 16-block WRITE(6)
        ld b,0Ah                ; in 256-byte OTIR bursts overruns the
        ELSE                    ; ACB-4000 between its sectors (the DACK
                                ; write without DRQ, docs/HARDWARE.md 1.5)
        ld a,2                  ; DATA IN, bursts
        ld b,08h
        ENDIF
        ld (rq+RQ_MODE),a
        xor a
        ld (rq+RQ_BURST),a      ; 256
        ld a,b
        ld (cdb),a
        ld hl,(lba)
        ld a,PASSBLK
        jr cmd

; tapeio: WRITE(6) (BACKUP) or READ(6) (RESTORE) of one 8 KB tape block,
; 16-byte bursts. CF on failure.
tapeio: ld a,TAPEID
        ld (rq+RQ_TGT),a
        IF RESTORE
        ld a,2
        ld b,08h
        ELSE
        ld a,3
        ld b,0Ah
        ENDIF
        ld (rq+RQ_MODE),a
        ld a,16
        ld (rq+RQ_BURST),a
        ld a,b
        ld (cdb),a
        ld hl,(tblk)
        ld a,1
; cmd: the CDB in cdb with block HL, count A; 8 KB at BUF. CF on failure
; (A: the SCSI status, or an SE_* code with (rq+RQ_ERR) set).
cmd:    ld (cdb+4),a
        ld a,h
        ld (cdb+2),a
        ld a,l
        ld (cdb+3),a
        xor a
        ld (cdb+1),a
        ld (cdb+5),a
        ld hl,BUF
        ld (rq+RQ_BUF),hl
        ld hl,TAPEBLK
        ld (rq+RQ_LEN),hl
        ld ix,rq
        ld a,(ours)
        or a
        jr nz,cmd1
        di
cmd1:   call sl_exec
        ei
        ret c
        or a
        ret z
        scf
        ret

; ready: TEST UNIT READY target A until GOOD, 30 tries a second apart
; (a tape loads and retensions). CF when it never is.
ready:  ld (tur+RQ_TGT),a
        ld b,30
rdy1:   push bc
        ld ix,tur
        call sl_exec
        jr nc,rdy6
        cp SE_SELTO             ; no device at that ID: no use waiting
        jr nz,rdy2
        pop bc
        scf
        ret
rdy6:
        or a
        jr z,rdy3
        ld a,(tur+RQ_TGT)       ; CHECK CONDITION: collect the sense
        ld (rqs+RQ_TGT),a
        ld ix,rqs
        call sl_exec
rdy2:   call clock
        ld (tw),hl
rdy4:   call clock
        ld de,(tw)
        or a
        sbc hl,de
        ld a,h
        or l
        jr nz,rdy5
        ld c,11                 ; console status: let the user's ^C in
        call PZ_BDOS
        jr rdy4
rdy5:   pop bc
        djnz rdy1
        ld ix,tur
        scf
        ret
rdy3:   pop bc
        or a
        ret

; flushbios: read record 0 of A: track 0 through the BIOS, so that a
; changed host sector of another drive goes back to its disk now.
flushbios:
        ld hl,(1)
        ld de,1Bh-3             ; SELDSK
        add hl,de
        ld c,0
        ld e,1
        call jphl
        ld hl,(1)
        ld de,1Eh-3             ; SETTRK
        add hl,de
        ld bc,0
        call jphl
        ld hl,(1)
        ld de,21h-3             ; SETSEC
        add hl,de
        ld bc,0
        call jphl
        ld hl,(1)
        ld de,24h-3             ; SETDMA
        add hl,de
        ld bc,BUF
        call jphl
        ld hl,(1)
        ld de,27h-3             ; READ
        add hl,de
jphl:   jp (hl)

; sig: Z when lbplus's BIOS signature "LB" is at BIOS+33h; HL = BIOS+35h.
sig:    ld hl,(1)
        ld de,33h-3
        add hl,de
        ld a,(hl)
        cp 'L'
        ret nz
        inc hl
        ld a,(hl)
        inc hl
        cp 'B'
        ret

; clock: HL = the BIOS clock's seconds (low 16 bits), 0 without one.
clock:  call sig
        jr nz,clk0
        di
        ld a,(hl)
        inc hl
        ld h,(hl)
        ld l,a
        ei
        ret
clk0:   ld hl,0
        ret

; scsierr: report the failing command (IX) and stop.
scsierr:
        ld (stat),a
        ld a,(ix+RQ_ERR)
        cp SE_SELTO
        ld de,m_nodev
        jr z,se1
        ld de,m_err
se1:    call print
        ld a,(ix+RQ_TGT)
        add a,'0'
        ld e,a
        ld c,2
        call PZ_BDOS
        ld a,(ix+RQ_ERR)
        cp SE_SELTO
        ld de,m_crlf
        jp z,quit
        ld de,m_stat
        call print
        ld a,(stat)
        call phex
        ld de,m_blk
        call print
        ld hl,(tblk)
        call pdec
        ld de,m_crlf
        jp quit

print:  ld c,9
        jp PZ_BDOS

phex:   push af
        rrca
        rrca
        rrca
        rrca
        call phex1
        pop af
phex1:  and 0Fh
        add a,90h
        daa
        adc a,40h
        daa
        ld e,a
        ld c,2
        jp PZ_BDOS

nothd:  ld de,m_nothd
        jp quit

; pdec: HL in decimal.
pdec:   ld (num),hl
        ld hl,0
        ld (num+2),hl
; pdec32: the 32-bit word at num in decimal (num ends 0).
pdec32: xor a
        ld (ndig),a
pd1:    ld bc,10
        call div32
        ld a,l
        add a,'0'
        push af
        ld hl,ndig
        inc (hl)
        ld hl,(num)
        ld a,h
        or l
        ld hl,(num+2)
        or h
        or l
        jr nz,pd1
pd2:    pop af
        ld e,a
        ld c,2
        call PZ_BDOS
        ld hl,ndig
        dec (hl)
        jr nz,pd2
        ret

; shl32: the 32-bit word at num times 2. CF = the bit shifted out.
shl32:  ld hl,num
        sla (hl)
        inc hl
        rl (hl)
        inc hl
        rl (hl)
        inc hl
        rl (hl)
        ret

; div32: num = num / BC (BC > 0), HL = the remainder. Restoring division,
; one quotient bit a step shifted in where num's bits leave.
div32:  ld hl,0
        ld a,32
dv1:    push af
        push hl
        call shl32
        pop hl
        adc hl,hl               ; remainder * 2 + the next bit
        jr c,dv2                ; 17 bits: more than BC for sure
        or a
        sbc hl,bc
        jr nc,dv3
        add hl,bc               ; less than BC: the bit is 0
        jr dv4
dv2:    or a
        sbc hl,bc
dv3:    ld a,(num)
        or 1
        ld (num),a
dv4:    pop af
        dec a
        jr nz,dv1
        ret

        IF RESTORE
m_start: db "RESTORE "
        ELSE
m_start: db "BACKUP "
        ENDIF
m_drv:  db "?: "
        IF RESTORE
        db "from the tape at SCSI ID 1",CR,LF,"$"
        ELSE
        db "to the tape at SCSI ID 1",CR,LF,"$"
        ENDIF
m_done: db CR,LF,"$"
m_kb:   db " KB in $"
m_s:    db " s$"
m_comma: db ", $"
m_rate: db " bytes/s$"
        IF RESTORE
m_usage: db "Usage: RESTORE d:  (a hard disk drive, from the tape at SCSI ID 1)",CR,LF,"$"
        ELSE
m_usage: db "Usage: BACKUP d:  (a hard disk drive, to the tape at SCSI ID 1)",CR,LF,"$"
        ENDIF
m_nothd: db "Not a hard disk partition",CR,LF,"$"
m_err:  db CR,LF,"SCSI error at ID $"
m_nodev: db CR,LF,"No device answers at SCSI ID $"
m_stat: db ", status/code $"
m_blk:  db "h, tape block $"
m_crlf: db CR,LF,"$"

rq:     db 0,0,0,6
        dw cdb
        dw BUF
        dw TAPEBLK
        ds 6,0
tur:    db 0,0,0,6
        dw turcdb
        dw BUF
        dw 0
        ds 6,0
rqs:    db 0,0,0,6
        dw sensecdb
        dw sense
        dw 4
        ds 6,0
cdb:    db 0,0,0,0,0,0
turcdb: db 0,0,0,0,0,0
sensecdb: db 03h,0,0,0,4,0
sense:  ds 4,0
drive:  db 0
passes: dw 0
lba:    dw 0
tblk:   dw 0
t0:     dw 0
tw:     dw 0
secs:   dw 0
stat:   db 0
num:    ds 4,0
ours:   db 0                    ; lbplus's BIOS: interrupts may stay on
ndig:   db 0
        ds 64
stack:
        end
