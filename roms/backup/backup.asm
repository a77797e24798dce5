; BACKUP - copy a range of the hard disk to tape in 8 KB tape blocks, and
; time it with the CTC. Bill Stubblebine's experiment (Usenet, 20 August
; 1990; docs/HARDWARE.md 8), as a Z80 program.
;
; Runs from RAM at 0100h (a CP/M .COM layout, but it needs no CP/M): the
; harness or a loader fills the parameter block, jumps to 0100h, and later
; reads the result block; the program also prints a report on the console
; (DART A) and stops with DI; HALT.
;
; Per pass it fills a buffer of P_BUFSEC 512-byte blocks from the disk, either
;   P_SRC = 0: direct SCSI READ(6) commands of P_RDSEC blocks each, or
;   P_SRC = 1: 128-byte BIOS calls (bios.inc: deblocking, 1-block READs,
;              byte-by-byte handshake),
; with the disk handshake P_DMODE (0 byte by byte, 2 INIR bursts of
; P_DBURST bytes), then writes the buffer to tape as WRITE(6) commands of one
; 8192-byte block each with the tape handshake P_TMODE (1 byte by byte,
; 3 OTIR bursts of P_TBURST bytes, DRQ polled before each burst).
; P_TTGT = 0FFh skips the tape (disk read throughput only).
;
; SCSI IDs: disk (ACB-4000) 0, tape (MCD-403) 1, host 7 from the jumpers.

        ORG 0100h
        jp start

; ---- parameter block (filled by the harness; defaults here) ---------------
params:
p_src:    DEFB 0        ; 0 direct SCSI READ, 1 BIOS 128-byte calls
p_dtgt:   DEFB 0        ; disk SCSI ID
p_ttgt:   DEFB 1        ; tape SCSI ID, 0FFh = no tape
p_dmode:  DEFB 2        ; disk handshake: 0 byte by byte, 2 bursts
p_dburst: DEFB 0        ; disk burst bytes, 0 = 256
p_tmode:  DEFB 3        ; tape handshake: 1 byte by byte, 3 bursts
p_tburst: DEFB 16       ; tape burst bytes
p_rdsec:  DEFB 16       ; 512-byte blocks per READ (direct path), 1..64
p_bufsec: DEFB 16       ; blocks per pass; a multiple of p_rdsec, and of 16
                        ; when the tape is used; at most 64 (32 KB buffer)
p_tmo:    DEFB 20       ; SCSI timeout units (~1.5 s each)
p_lba:    DEFB 0,0,0,0  ; first disk block
p_tblk:   DEFB 0,0,0,0  ; first tape block
p_npass:  DEFW 8        ; passes
p_con:    DEFB 1        ; 1 = print the report on the console
p_ready:  DEFB 30       ; TEST UNIT READY tries (1 s apart) per device
p_bcache: DEFB 1        ; BIOS path: 1 reuse the 512-byte host buffer, 0 not

; ---- result block (read by the harness) ------------------------------------
results:
r_state:  DEFB ST_LOADED ; ST_* (scsilib.inc)
r_err:    DEFB 0        ; SE_* code (SE_STATUS: the status was not GOOD)
r_dev:    DEFB 0        ; failing device: DEV_DISK or DEV_TAPE
r_stage:  DEFB 0        ; STG_* of the failing command
r_csb:    DEFB 0        ; 5380 bus status at the failure
r_stat:   DEFB 0        ; SCSI status byte of the failing command
r_bytes:  DEFB 0,0,0,0  ; bytes copied
r_time:   DEFB 0,0,0,0  ; elapsed, CTC units of 64 us
r_pass:   DEFW 0        ; passes completed
r_sense:  DEFB 0,0,0,0  ; sense bytes after a CHECK CONDITION
r_first:  DEFB 0,0,0,0  ; r_time when the first pass ended (start-up cost)

        INCLUDE "scsilib.inc"
        INCLUDE "bios.inc"

DEV_DISK  EQU 1         ; r_dev: the disk failed
DEV_TAPE  EQU 2         ; r_dev: the tape failed
BUF       EQU 4000h     ; 32 KB transfer buffer 4000h-BFFFh
TAPEBLK   EQU 8192      ; tape block size [F CCTALK03, PERIPHS]

start:
        ld sp,stack
        ld a,ST_RUN
        ld (r_state),a
        call sl_init
        ld a,(p_tmo)
        ld (sl_tmo),a
        call tm_init
        ld a,(p_con)
        or a
        call nz,con_init
        ; wait for both devices to be ready (tape load/retension, spin-up)
        ld a,(p_dtgt)
        ld b,DEV_DISK
        call ready
        jp c,fail
        ld a,(p_ttgt)
        cp 0FFh
        jr z,st1
        ld b,DEV_TAPE
        call ready
        jp c,fail
st1:    ld a,(p_dtgt)
        ld (bs_tgt),a
        ld a,(p_bcache)
        ld (bs_cache),a
        call bios_inval
        ; 128-byte record counter for the BIOS path = first block * 4
        ld hl,(p_lba)
        ld a,(p_lba+2)
        add hl,hl
        adc a,a
        add hl,hl
        adc a,a
        ld (rec),hl
        ld (rec+2),a
        call tm_mark

pass:   ld hl,(r_pass)
        ld de,(p_npass)
        or a
        sbc hl,de
        jp nc,done
        ld a,(p_src)
        or a
        jr nz,ps_bios
        ; ---- direct READs: p_bufsec / p_rdsec commands ----
        ld hl,BUF
        ld (ptr),hl
        ld a,(p_bufsec)
        ld (left),a
ps1:    ld a,(p_dtgt)
        ld (rq+RQ_TGT),a
        ld a,(p_dmode)
        ld (rq+RQ_MODE),a
        ld a,(p_dburst)
        ld (rq+RQ_BURST),a
        ld a,08h                ; READ(6)
        ld (cdb),a
        ld hl,p_lba
        call setlba
        ld a,(p_rdsec)
        ld (cdb+4),a
        ld h,a                  ; bytes = sectors * 512
        ld l,0
        add hl,hl
        ld (rq+RQ_LEN),hl
        ld hl,(ptr)
        ld (rq+RQ_BUF),hl
        ld ix,rq
        call sl_exec
        ld b,DEV_DISK
        call check
        jp c,fail
        ld hl,(ptr)             ; advance buffer and disk address
        ld de,(rq+RQ_LEN)
        add hl,de
        ld (ptr),hl
        ld a,(p_rdsec)
        ld hl,p_lba
        call add32a
        ld a,(p_rdsec)
        ld b,a
        ld a,(left)
        sub b
        ld (left),a
        jp z,ps_tape
        jp nc,ps1
        jp ps_tape

        ; ---- BIOS path: p_bufsec * 4 records of 128 bytes ----
ps_bios:
        ld hl,BUF
        ld (ptr),hl
        ld a,(p_bufsec)
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        ld (nrec),hl
pb1:    ld hl,(rec)             ; track = rec >> 6, sector = rec & 63
        ld a,(rec+2)
        ld c,l
        ld b,6
pb2:    srl a
        rr h
        rr l
        djnz pb2
        ld b,h
        ld c,l
        push bc
        call bios_settrk
        pop bc
        ld a,(rec)
        and BS_SPT-1
        ld c,a
        ld b,0
        call bios_setsec
        ld bc,(ptr)
        call bios_setdma
        call bios_read
        or a
        jr z,pb3
        ld ix,bs_rq             ; report the BIOS's failing command
        ld a,(ix+RQ_ERR)
        or a
        jr z,pb4
        scf                     ; SE_* error
        jr pb5
pb4:    ld a,(ix+RQ_STAT)       ; status not GOOD (NZ, CF=0)
        or a
pb5:    ld b,DEV_DISK
        call check
        jp fail
pb3:    ld hl,(ptr)
        ld de,128
        add hl,de
        ld (ptr),hl
        ld a,1
        ld hl,rec
        call add32a
        ld hl,(nrec)
        dec hl
        ld (nrec),hl
        ld a,h
        or l
        jr nz,pb1
        ld a,(p_bufsec)         ; keep p_lba in step for the report
        ld hl,p_lba
        call add32a

        ; ---- tape: p_bufsec / 16 WRITE(6) commands of one 8 KB block ----
ps_tape:
        ld a,(p_ttgt)
        cp 0FFh
        jr z,ps_next
        ld hl,BUF
        ld (ptr),hl
        ld a,(p_bufsec)
        rrca
        rrca
        rrca
        rrca
        and 0Fh
        ld (left),a
pt1:    ld a,(left)
        or a
        jr z,ps_next
        ld a,(p_ttgt)
        ld (rq+RQ_TGT),a
        ld a,(p_tmode)
        ld (rq+RQ_MODE),a
        ld a,(p_tburst)
        ld (rq+RQ_BURST),a
        ld a,0Ah                ; WRITE(6): block number, 1 block
        ld (cdb),a
        ld hl,p_tblk
        call setlba
        ld a,1
        ld (cdb+4),a
        ld hl,TAPEBLK
        ld (rq+RQ_LEN),hl
        ld hl,(ptr)
        ld (rq+RQ_BUF),hl
        ld ix,rq
        call sl_exec
        ld b,DEV_TAPE
        call check
        jp c,fail
        ld hl,(ptr)
        ld de,TAPEBLK
        add hl,de
        ld (ptr),hl
        ld a,1
        ld hl,p_tblk
        call add32a
        ld hl,left
        dec (hl)
        jr pt1

ps_next:
        ld a,(p_bufsec)         ; bytes += p_bufsec * 512
        add a,a
        ld hl,r_bytes+1
        add a,(hl)
        ld (hl),a
        inc hl
        ld a,(hl)
        adc a,0
        ld (hl),a
        inc hl
        ld a,(hl)
        adc a,0
        ld (hl),a
        inc hl
        ld a,(hl)
        adc a,0
        ld (hl),a
        ld hl,(r_pass)
        inc hl
        ld (r_pass),hl
        call stamp
        ld hl,(r_pass)
        dec hl
        ld a,h
        or l
        jp nz,pass
        ld hl,(r_time)          ; first pass done: remember when
        ld (r_first),hl
        ld hl,(r_time+2)
        ld (r_first+2),hl
        jp pass

done:   call stamp
        ld a,ST_DONE
        ld (r_state),a
        ld a,(p_con)
        or a
        jr z,stop
        ld hl,m_done
        call con_puts
        ld hl,(r_bytes)
        ld de,(r_bytes+2)
        call con_dec32
        ld hl,m_time
        call con_puts
        call time_us
        call con_dec32
        ld hl,m_us
        call con_puts
stop:   call tm_stop
        di
        halt
        jr stop

fail:   call stamp
        ld a,ST_FAIL
        ld (r_state),a
        ld a,(p_con)
        or a
        jr z,stop
        ld hl,m_fail
        call con_puts
        ld a,(r_dev)
        call con_hex8
        ld hl,m_err
        call con_puts
        ld a,(r_err)
        call con_hex8
        ld hl,m_stage
        call con_puts
        ld a,(r_stage)
        call con_hex8
        ld hl,m_csb
        call con_puts
        ld a,(r_csb)
        call con_hex8
        ld hl,m_stat
        call con_puts
        ld a,(r_stat)
        call con_hex8
        ld hl,m_bytes
        call con_puts
        ld hl,(r_bytes)
        ld de,(r_bytes+2)
        call con_dec32
        call con_crlf
        jr stop

; stamp: r_time = time since tm_mark (so the harness can read progress while running)
stamp:  call tm_since
        ld (r_time),hl
        ld (r_time+2),de
        ret

; time_us: DE:HL = r_time * 64
time_us:
        ld hl,(r_time)
        ld de,(r_time+2)
        ld b,6
tu1:    add hl,hl
        ex de,hl
        adc hl,hl
        ex de,hl
        djnz tu1
        ret

; check: after sl_exec (CF, A as sl_exec returns), B = device.
; -> CF=0 when the command completed with GOOD status; else results filled,
; sense fetched for a CHECK CONDITION, CF=1.
check:  jr c,ck_err
        ret z                   ; GOOD
        ld (r_stat),a
        ld a,SE_STATUS
        ld (r_err),a
        ld a,b
        ld (r_dev),a
        ld a,(ix+RQ_STAGE)
        ld (r_stage),a
        ld a,(ix+RQ_TGT)
        call sense
        scf
        ret
ck_err: ld (r_err),a
        ld a,b
        ld (r_dev),a
        ld a,(ix+RQ_STAGE)
        ld (r_stage),a
        ld a,(ix+RQ_CSB)
        ld (r_csb),a
        ld a,(ix+RQ_STAT)
        ld (r_stat),a
        scf
        ret

; sense: A = target; REQUEST SENSE (4 bytes, the ACB-4000's non-extended
; form) into r_sense. Errors are ignored: it only informs the report.
sense:  ld (srq+RQ_TGT),a
        push ix
        ld ix,srq
        call sl_exec
        pop ix
        ret

; ready: A = target, B = device. TEST UNIT READY until GOOD, a second apart,
; up to p_ready tries (a CHECK CONDITION such as unit attention is cleared
; with REQUEST SENSE). -> CF=1 when it never became ready.
ready:  ld (tur_rq+RQ_TGT),a
        ld a,b
        ld (rdev),a
        ld a,(p_ready)
        ld (tries),a
        ld ix,tur_rq
rd1:    call sl_exec
        jr c,rd2
        ret z                   ; GOOD
        ld a,(ix+RQ_TGT)
        call sense
        ld a,(ix+RQ_STAT)       ; NZ, CF=0: the TEST UNIT READY status
        or a
rd2:    push af
        ld hl,tries
        dec (hl)
        jr z,rd3
        pop af
        call wait1s
        jr rd1
rd3:    pop af
        push af
        ld a,(rdev)
        ld b,a
        pop af
        jp check

; wait1s: 15625 CTC units = 1 s
wait1s: call tm_read
        ld (tw),hl
ws1:    call tm_read
        ld bc,(tw)
        or a
        sbc hl,bc
        ld bc,15625
        or a
        sbc hl,bc
        jr c,ws1
        ret

; setlba: HL -> 4-byte little-endian block number; CDB bytes 1-3 (LUN 0).
setlba: ld a,(hl)
        ld (cdb+3),a
        inc hl
        ld a,(hl)
        ld (cdb+2),a
        inc hl
        ld a,(hl)
        and 1Fh
        ld (cdb+1),a
        xor a
        ld (cdb+5),a
        ret

; add32a: (HL) 4-byte little-endian += A
add32a: add a,(hl)
        ld (hl),a
        ld b,3
a32:    inc hl
        ld a,(hl)
        adc a,0
        ld (hl),a
        djnz a32
        ret

m_done:   DEFM "BACKUP done, bytes "
          DEFB 0
m_time:   DEFM " time "
          DEFB 0
m_us:     DEFM " us"
          DEFB 13,10,0
m_fail:   DEFM "BACKUP failed: device "
          DEFB 0
m_err:    DEFM " error "
          DEFB 0
m_stage:  DEFM " stage "
          DEFB 0
m_csb:    DEFM " csb "
          DEFB 0
m_stat:   DEFM " status "
          DEFB 0
m_bytes:  DEFM " after bytes "
          DEFB 0

tw:       DEFW 0
ptr:      DEFW 0
left:     DEFB 0
tries:    DEFB 0
rdev:     DEFB 0
nrec:     DEFW 0
rec:      DEFB 0,0,0,0
cdb:      DEFB 0,0,0,0,0,0
rq:       DEFB 0,0,0,6
          DEFW cdb,BUF,0
          DEFS RQ_SIZE-10,0
tur_cdb:  DEFB 00h,0,0,0,0,0    ; TEST UNIT READY
tur_rq:   DEFB 0,0,0,6
          DEFW tur_cdb,0,0
          DEFS RQ_SIZE-10,0
rs_cdb:   DEFB 03h,0,0,0,4,0    ; REQUEST SENSE, 4 bytes
srq:      DEFB 0,0,0,6          ; DATA IN byte by byte
          DEFW rs_cdb,r_sense,4
          DEFS RQ_SIZE-10,0

          DEFS 256,0
stack:                  ; the Go test checks stack <= BUF
        END
