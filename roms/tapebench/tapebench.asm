; TAPEBENCH - write (or read) consecutive 8 KB blocks on the MCD-403 as fast
; as the host allows, with an optional host delay before each block, and
; time it with the CTC. The 1990 story's tape experiments (docs/HARDWARE.md
; 8) without the disk.
;
; Runs from RAM at 0100h: the harness fills the parameter block, jumps to
; 0100h and reads the result block when r_state is ST_DONE or ST_FAIL; the
; program stops with DI; HALT.
;
; Each block is one READ(6)/WRITE(6) of 1 block through sl_exec, byte by
; byte (one DRQ poll per byte) or in INIR/OTIR bursts of p_burst bytes with
; one DRQ poll before each burst (roms/scsilib). A target that stops
; handshaking is detected by sl_exec's timeout (SE_HANG), reported, and the
; bus is reset.

        ORG 0100h
        jp start

; ---- parameter block (filled by the harness; defaults here) ---------------
params:
p_tgt:    DEFB 1        ; tape SCSI ID
p_read:   DEFB 0        ; 0 WRITE, 1 READ
p_mode:   DEFB 2        ; handshake: 0 byte by byte, 2 bursts
p_burst:  DEFB 16       ; burst bytes, 0 = 256
p_tmo:    DEFB 3        ; SCSI timeout units (~1.5 s each) + 1
p_blk:    DEFB 0,0,0    ; first tape block (24 bits, big-endian as in the CDB)
p_n:      DEFW 8        ; blocks
p_delay:  DEFW 0        ; host delay before each block, CTC units of 64 us

; ---- result block (read by the harness) ------------------------------------
results:
r_state:  DEFB ST_LOADED ; ST_* (scsilib.inc)
r_err:    DEFB 0        ; SE_* code (SE_STATUS: the status was not GOOD)
r_stage:  DEFB 0        ; STG_* of the failing command
r_csb:    DEFB 0        ; 5380 bus status at the failure
r_stat:   DEFB 0        ; status byte of the failing command
r_xfer:   DEFW 0        ; bytes moved in the failing command's data phase
r_done:   DEFW 0        ; blocks completed
r_time:   DEFB 0,0,0,0  ; 64-us units from the start to the last block's status
r_t1:     DEFB 0,0,0,0  ; same, at the first block's status

        INCLUDE "scsilib.inc"

BUF       EQU 4000h     ; one 8 KB block 4000h-5FFFh
TAPEBLK   EQU 8192

start:
        ld sp,stack
        ld a,ST_RUN
        ld (r_state),a
        call sl_init
        ld a,(p_tmo)
        ld (sl_tmo),a
        call tm_init
        ; the data: byte at address a is low(a) xor high(a)
        ld hl,BUF
        ld bc,TAPEBLK
fill:   ld a,l
        xor h
        ld (hl),a
        inc hl
        dec bc
        ld a,b
        or c
        jr nz,fill
        ; the request block: fixed fields
        ld a,(p_tgt)
        ld (rq+RQ_TGT),a
        ld a,(p_read)
        or a
        ld a,(p_mode)
        jr nz,st1
        or 1                    ; DATA OUT
st1:    ld (rq+RQ_MODE),a
        ld a,(p_burst)
        ld (rq+RQ_BURST),a
        ld a,6
        ld (rq+RQ_CDBL),a
        ld hl,cdb
        ld (rq+RQ_CDB),hl
        ld hl,BUF
        ld (rq+RQ_BUF),hl
        ld hl,TAPEBLK
        ld (rq+RQ_LEN),hl
        ld a,(p_read)
        or a
        ld a,0Ah                ; WRITE(6)
        jr z,st2
        ld a,08h                ; READ(6)
st2:    ld (cdb),a
        ld a,1
        ld (cdb+4),a            ; one block
        call tm_mark

loop:   ld hl,(r_done)
        ld de,(p_n)
        or a
        sbc hl,de
        jr nc,done
        call delay
        ld a,(p_blk)
        and 1Fh
        ld (cdb+1),a
        ld a,(p_blk+1)
        ld (cdb+2),a
        ld a,(p_blk+2)
        ld (cdb+3),a
        ld ix,rq
        call sl_exec
        jr c,fail
        jr nz,badst
        ld hl,p_blk+2           ; next block
        inc (hl)
        jr nz,lp1
        dec hl
        inc (hl)
        jr nz,lp1
        dec hl
        inc (hl)
lp1:    ld hl,(r_done)
        inc hl
        ld (r_done),hl
        call stamp
        ld hl,(r_done)
        dec hl
        ld a,h
        or l
        jr nz,loop
        ld hl,(r_time)          ; first block: keep its time too
        ld (r_t1),hl
        ld hl,(r_time+2)
        ld (r_t1+2),hl
        jr loop

done:   ld a,2
        ld (r_state),a
stop:   di
        halt

badst:  ld (r_stat),a
        ld a,SE_STATUS
fail:   ld (r_err),a
        ld a,(rq+RQ_STAGE)
        ld (r_stage),a
        ld a,(rq+RQ_CSB)
        ld (r_csb),a
        ld hl,(rq+RQ_XFER)
        ld (r_xfer),hl
        call stamp
        ld a,ST_FAIL
        ld (r_state),a
        jr stop

; stamp: r_time = time since tm_mark
stamp:  call tm_since
        ld (r_time),hl
        ld (r_time+2),de
        ret

; delay: the host is busy p_delay CTC units (a slow program between blocks)
delay:  ld hl,(p_delay)
        ld a,h
        or l
        ret z
        call tm_read
        ld bc,(p_delay)
        add hl,bc
        jr nc,dl1
        inc de
dl1:    ld (dtg),hl
        ld (dtg+2),de
dl2:    call tm_read
        ld bc,(dtg)
        or a
        sbc hl,bc
        ex de,hl
        ld bc,(dtg+2)
        sbc hl,bc
        jr c,dl2
        ret

dtg:      DEFB 0,0,0,0
cdb:      DEFS 6
rq:       DEFS RQ_SIZE
          DEFS 128
stack:
        END
