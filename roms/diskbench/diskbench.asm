; DISKBENCH - time a run of disk READ(6) commands, as the 1990 interleave
; experiment did ("time to transfer 8192 bytes HD->memory" as 4K x2 or 8K x1
; READs; Bill Stubblebine, Usenet, 20 August 1990; docs/HARDWARE.md 8), and
; stop.
;
; Runs from RAM at 0100h. The harness fills the parameter block and jumps to
; 0100h; the program makes sure the disk is ready (TEST UNIT READY, not
; timed), then issues P_NREAD READ(6) commands of P_RDSEC blocks each from
; block P_LBA on, each continuing at the block after the previous one, back
; to back into the 32 KB buffer at 4000h (which wraps: a READ that would
; run past BFFFh starts again at 4000h), with the data handshake P_MODE
; (0 byte by byte, 2 INIR bursts of P_BURST bytes). It times the READs with
; the CTC (64 us units): the total in R_TIME, and the CTC count after each
; READ in the table R_TAB, so the harness can take the steady state of a
; run of sequential 8 KB chunks (the story's bulk transfers) apart from the
; first chunk's random rotational latency. It stops with DI; HALT. The
; harness also times the READs on the SCSI bus, as the story's scope did.
;
; Between two READs the program only stamps the time, moves the buffer
; pointer and rebuilds the request block and the CDB: the host turnaround
; that decides whether a revolution is lost between two READs is this code
; plus scsilib's selection and command phases, all timed by the CPU.

        ORG 0100h
        jp start

; ---- parameter block (filled by the harness; defaults here) ---------------
params:
p_tgt:    DEFB 0        ; disk SCSI ID
p_mode:   DEFB 2        ; 0 byte by byte, 2 INIR bursts
p_burst:  DEFB 0        ; burst bytes, 0 = 256
p_rdsec:  DEFB 8        ; 512-byte blocks per READ, 1..64
p_nread:  DEFB 2        ; READs, 1..64 (the buffer wraps)
p_lba:    DEFB 0,0,0    ; first block, low byte first (21 bits)
p_ready:  DEFB 10       ; TEST UNIT READY tries
p_tmo:    DEFB 4        ; SCSI timeout units (~1.5 s each)

; ---- result block (read by the harness) ------------------------------------
results:
r_state:  DEFB ST_LOADED ; ST_* (scsilib.inc)
r_err:    DEFB 0        ; SE_* code (SE_STATUS: the status was not GOOD)
r_stat:   DEFB 0        ; SCSI status of the failing command
r_nread:  DEFB 0        ; READs completed
r_time:   DEFB 0,0,0,0  ; elapsed over the READs, CTC units of 64 us
r_tab:    DEFS 4*64     ; CTC count (32 bits) at the end of each READ

        INCLUDE "scsilib.inc"

BUF       EQU 4000h     ; 32 KB buffer 4000h-BFFFh

start:
        ld sp,stack
        ld a,ST_RUN
        ld (r_state),a
        call sl_init
        ld a,(p_tmo)
        ld (sl_tmo),a
        call tm_init
        ; the disk must answer TEST UNIT READY with GOOD before timing
        ld a,(p_ready)
        ld (tries),a
rdy:    ld a,(p_tgt)
        ld (rq+RQ_TGT),a
        xor a
        ld (rq+RQ_MODE),a
        ld (rq+RQ_LEN),a
        ld (rq+RQ_LEN+1),a
        ld hl,cdb
        ld b,6
rdy1:   ld (hl),a               ; CDB 00 00 00 00 00 00
        inc hl
        djnz rdy1
        call exec
        jr c,rdy2
        jr z,go
rdy2:   ld hl,tries
        dec (hl)
        jp z,fail
        jr rdy

go:     ld hl,BUF
        ld (ptr),hl
        ld hl,r_tab
        ld (tptr),hl
        call tm_mark

rd:     ld a,(r_nread)
        ld hl,p_nread
        cp (hl)
        jp nc,done
        ld a,(p_tgt)
        ld (rq+RQ_TGT),a
        ld a,(p_mode)
        ld (rq+RQ_MODE),a
        ld a,(p_burst)
        ld (rq+RQ_BURST),a
        ld a,08h                ; READ(6)
        ld (cdb),a
        ld a,(p_lba+2)
        and 1Fh                 ; LUN 0, LBA bits 20-16
        ld (cdb+1),a
        ld a,(p_lba+1)
        ld (cdb+2),a
        ld a,(p_lba)
        ld (cdb+3),a
        ld a,(p_rdsec)
        ld (cdb+4),a
        xor a
        ld (cdb+5),a
        ld (rq+RQ_LEN),a        ; length = blocks * 512
        ld a,(p_rdsec)
        add a,a
        ld (rq+RQ_LEN+1),a
        ld hl,(ptr)
        ld (rq+RQ_BUF),hl
        call exec
        jr c,fail
        jr nz,fail
        call tm_read            ; stamp the end of this READ
        push de
        ex de,hl
        ld hl,(tptr)
        ld (hl),e
        inc hl
        ld (hl),d
        inc hl
        pop de
        ld (hl),e
        inc hl
        ld (hl),d
        inc hl
        ld (tptr),hl
        ld hl,(ptr)             ; next buffer slice
        ld a,(rq+RQ_LEN+1)
        ld c,a
        add a,h
        ld h,a
        add a,c                 ; C = length high byte: does the next fit?
        jr c,wrap
        cp (BUF+8000h)/256+1
        jr c,rd0
wrap:   ld h,BUF/256
rd0:    ld (ptr),hl
        ld hl,(p_lba)           ; next block
        ld a,(p_rdsec)
        ld e,a
        ld d,0
        add hl,de
        ld (p_lba),hl
        jr nc,rd1
        ld hl,p_lba+2
        inc (hl)
rd1:    ld hl,r_nread
        inc (hl)
        jp rd

done:   call tm_since
        ld (r_time),hl
        ld (r_time+2),de
        ld a,ST_DONE
        ld (r_state),a
        di
        halt

fail:   ld (r_err),a
        ld a,ST_FAIL
        ld (r_state),a
        di
        halt

; exec: run the request block rq. -> CF=1 A=SE_* on a bus failure; else
; A = status and Z when GOOD; a status other than GOOD is recorded.
exec:   ld ix,rq
        ld (ix+RQ_CDBL),6
        ld hl,cdb
        ld (rq+RQ_CDB),hl
        call sl_exec
        ret c
        ld (r_stat),a
        or a
        ret z
        ld a,SE_STATUS          ; status not GOOD (NZ, CF=0)
        or a
        ret

rq:       DEFS RQ_SIZE
cdb:      DEFS 6
ptr:      DEFW 0
tptr:     DEFW 0
tries:    DEFB 0
          DEFS 128
stack:
