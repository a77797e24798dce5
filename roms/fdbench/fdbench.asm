; FDBENCH: drives the WD1772 of the Little Board/PLUS from a script of
; operations, with the polled loops an Ampro-style BIOS uses (status, DRQ,
; data: 67 T-states a byte plus PAD). Used by the floppy acceptance tests
; and `lbplus bench floppy` (docs/FLOPPY.md, "Bench").
;
; Script at p_script: 4-byte entries op, a, b, c; results at r_state on.
;   00          end: r_state = ST_DONE, HALT
;   01 a        port 00 <- a (drive select, side, density; ROM stays off)
;   02 a b      type I command a with the data register = b; wait for not BUSY
;   03 a b      Write Track, h = 1, from page a (b pages = b*256 bytes)
;   04 a b      Write Sector a (h = 1) from page b
;   05 a b c    Read Sector a (h = 1) into page b; up to c retries on
;               lost data, RNF or CRC (each retry counted in r_retries)
;   06          Read Address into r_rabuf + 6*n, n counting up
;   07 a b      copy 512 bytes from page a to page b (BIOS deblocking, LDIR)
;   08 a        printer data port 01 <- a (a marker for the harness' scope)
; After each FDC command the final status is appended to r_status + n.

; The loop padding is given by the harness (-D PAD4=n ...); 0 when the source
; is assembled on its own. "IF DEFINED" rather than IFNDEF: pasmo, which
; cross-checks our assembler on every roms/ program, takes IFNDEF for macros.
        if defined PAD4
        else
PAD4    equ 0
        endif
        if defined PAD6
        else
PAD6    equ 0
        endif
        if defined PAD7
        else
PAD7    equ 0
        endif

FDCCMD  equ 0C0h
FDCSTAT equ 0C4h
FDCTRK  equ 0C1h
FDCSEC  equ 0C2h
FDCDATA equ 0C3h
FDCRDAT equ 0C7h

        org 0100h
start:  ld sp,0100h
        ld ix,p_script
next:   ld a,(ix+0)
        ld b,(ix+1)
        ld c,(ix+2)
        ld d,(ix+3)
        inc ix
        inc ix
        inc ix
        inc ix
        or a
        jp z,finish
        dec a
        jp z,op_latch
        dec a
        jp z,op_type1
        dec a
        jp z,op_wtrack
        dec a
        jp z,op_wsec
        dec a
        jp z,op_rsec
        dec a
        jp z,op_raddr
        dec a
        jp z,op_copy
        dec a
        jp z,op_mark
        ld a,ST_FAIL            ; unknown op
        ld (r_state),a
        halt

finish: ld a,ST_DONE
        ld (r_state),a
        halt

op_latch:
        ld a,b
        out (00h),a
        jp next

op_mark:
        ld a,b
        out (01h),a
        jp next

op_type1:
        ld a,c
        out (FDCDATA),a
        ld a,b
        out (FDCCMD),a
        call settle
t1wait: in a,(FDCSTAT)
        rrca
        jr c,t1wait
        in a,(FDCSTAT)
        call stat
        jp next

; Write Track from page b.
op_wtrack:
        ld h,b
        ld l,0
        ld a,0F8h
        out (FDCCMD),a
        call settle
wtl:    in a,(FDCSTAT)
        rrca
        jr nc,wtend
        rrca
        jr nc,wtl
        ld a,(hl)
        out (FDCDATA),a
        inc hl
        jp wtl
wtend:  in a,(FDCSTAT)
        call stat
        jp next

; Write Sector b from page c.
op_wsec:
        ld a,b
        out (FDCSEC),a
        ld h,c
        ld l,0
        ld a,0A8h
        out (FDCCMD),a
        call settle
wsl:    in a,(FDCSTAT)
        rrca
        jr nc,wsend
        rrca
        jr nc,wsl
        ld a,(hl)
        out (FDCDATA),a
        inc hl
        jp wsl
wsend:  in a,(FDCSTAT)
        call stat
        jp next

; Read Sector b into page c, up to d retries.
op_rsec:
        ld a,b
        out (FDCSEC),a
        ld h,c
        ld l,0
        ld a,88h
        out (FDCCMD),a
        call settle
rsl:    in a,(FDCSTAT)          ; 11
        rrca                    ; 4  BUSY -> carry
        jr nc,rsend             ; 7
        rrca                    ; 4  DRQ -> carry
        jr nc,rsl               ; 7
        in a,(FDCRDAT)          ; 11
        ld (hl),a               ; 7
        inc hl                  ; 6
        rept PAD4
        nop                     ; 4 each
        endm
        rept PAD6
        inc de                  ; 6 each
        endm
        rept PAD7
        ld e,0                  ; 7 each
        endm
        jp rsl                  ; 10: 67 T-states a byte without padding
rsend:  in a,(FDCSTAT)
        call stat
        and 1Ch                 ; lost data, CRC, RNF
        jp z,next
        ld a,d
        or a
        jp z,next               ; out of retries: give up on this sector
        ld hl,(r_retries)
        inc hl
        ld (r_retries),hl
        dec d
        jp op_rsec

; Read Address into r_rabuf + 6n.
op_raddr:
        ld hl,(r_raptr)
        ld a,0C8h
        out (FDCCMD),a
        call settle
ral:    in a,(FDCSTAT)
        rrca
        jr nc,raend
        rrca
        jr nc,ral
        in a,(FDCRDAT)
        ld (hl),a
        inc hl
        jp ral
raend:  ld (r_raptr),hl
        in a,(FDCSTAT)
        call stat
        jp next

op_copy:
        ld h,b
        ld l,0
        ld d,c
        ld e,0
        push bc
        ld bc,512
        ldir
        pop bc
        jp next

; settle: the WD1772 takes a command 24 us after it is written (48 in FM);
; BUSY is not valid before. CALL to RET: 206 T-states = 51.5 us.
settle: push bc
        ld b,12
stl:    djnz stl
        pop bc
        ret

; stat appends A to the status list; keeps A.
stat:   push hl
        ld hl,(r_stptr)
        ld (hl),a
        inc hl
        ld (r_stptr),hl
        pop hl
        ret

; Program states in r_state, as the other harness programs have them
; (roms/scsilib): 0 while running.
ST_DONE equ 1                   ; the script ended
ST_FAIL equ 2                   ; an unknown operation stopped it

; Results, read by the harness through these labels.
        org 0800h
r_state:  db 0
r_retries: dw 0
r_raptr:  dw r_rabuf
r_stptr:  dw r_status
        org 0810h
r_rabuf:  ds 6*64
        org 0A00h
r_status: ds 512
        org 0C00h
p_script: ds 4
