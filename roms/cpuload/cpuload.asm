; CPULOAD: the CPU-bound workload of `lbplus bench speed` (roms/cpuload).
; Own work for lbplus, MIT like the rest of the repository.
;
; A boot ROM (org 0) that loops for ever over a body chosen with W:
;   W = 1 "simple": 256 x (LD A,(HL); XOR C; LD (HL),A; INC C; INC L;
;         DJNZ), 39 T a pass, unprefixed loads and ALU operations;
;   W = 2 "mixed": 32 x a body with IY-indexed loads and stores, CB
;         shifts and RES, EX (SP),HL, EXX, ADD/SBC HL, a CALL to a
;         subroutine with NEG, then a 32-byte LDIR.
; No branch depends on data, so the T-state count is exact: after each
; pass of the body the 16-bit pass count at COUNT goes up by one (its
; low byte is written 10 T into the LD (COUNT),HL).
; It runs alike from the ROM overlay and from RAM (org 0 with the ROM
; switched out); data, stack and count are in RAM above 8000h.
; No I/O: the devices stay idle.

; W is given by the harness (-D W=1 or 2); 1 when the source is assembled
; on its own ("IF DEFINED", as fdbench.asm: pasmo takes IFNDEF for macros).
        if defined W
        else
W       equ     1
        endif

COUNT   equ     0F000h
DATA    equ     9000h

        org     0
start:  di
        ld      sp,0
        ld      hl,0
        ld      (COUNT),hl
loop:
 if W = 1
        call    w1
 else
        call    w2
 endif
        ld      hl,(COUNT)
        inc     hl
        ld      (COUNT),hl
        jp      loop

; ---- W1: 10009 T with the CALL's RET
w1:     ld      hl,DATA
        ld      bc,0
l1:     ld      a,(hl)
        xor     c
        ld      (hl),a
        inc     c
        inc     l
        djnz    l1
        ret

; ---- W2
w2:     ld      iy,DATA+100h
        ld      hl,DATA
        ld      b,32
l2:     ld      a,(iy+1)
        adc     a,(hl)
        ld      (iy+2),a
        rrca
        ld      c,a
        sla     c
        res     4,c
        or      c
        push    hl
        ex      (sp),hl
        exx
        add     hl,de
        sbc     hl,bc
        exx
        call    mix
        pop     hl
        ld      (hl),a
        inc     hl
        inc     iy
        djnz    l2
        ld      hl,DATA
        ld      de,DATA+200h
        ld      bc,32
        ldir
        ret
mix:    xor     5Ah
        neg
        ret

        ds      1000h - $, 0FFh
