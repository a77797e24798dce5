; Interrupt mode 2 with a CTC tick counter and a DART receive interrupt.
CTC0    equ     40h
CTC1    equ     41h
DARTD   equ     80h
DARTC   equ     81h

        org     0
        jp      init
        org     38h
        ei
        reti
        org     66h
        retn

        org     100h
vectors:
        dw      ctc0_isr, ctc1_isr, ctc2_isr, ctc3_isr
dartvec:
        dw      dart_tx, dart_ext, dart_rx, dart_spec

init:   di
        ld      sp,0
        ld      a,HIGH vectors
        ld      i,a
        im      2
        ld      a,LOW vectors
        out     (CTC0),a                ; vector word
        ld      a,0A7h                  ; int, timer, /256, TC follows, reset
        out     (CTC0),a
        ld      a,156
        out     (CTC0),a
        ld      a,2
        out     (DARTC),a
        ld      a,LOW dartvec
        out     (DARTC),a
        ld      a,1
        out     (DARTC),a
        ld      a,18h
        out     (DARTC),a
        ei
idle:   halt
        ld      hl,(ticks)
        ld      a,l
        and     3Fh
        jr      nz,idle
        ld      a,'.'
        out     (DARTD),a
        jr      idle

ctc0_isr:
        push    af
        push    hl
        ld      hl,(ticks)
        inc     hl
        ld      (ticks),hl
        pop     hl
        pop     af
        ei
        reti
ctc1_isr:
ctc2_isr:
ctc3_isr:
dart_tx:
dart_ext:
dart_spec:
        ei
        reti
dart_rx:
        push    af
        in      a,(DARTD)
        ld      (lastch),a
        pop     af
        ei
        reti
ticks:  dw      0
lastch: db      0
        end
