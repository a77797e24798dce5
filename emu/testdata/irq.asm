; Interrupt-driven programs for the board tests.
; MODE 1: CTC channel 2 as a 1 ms timer (prescaler 16, TC 250); the IM 2
;         handler counts ticks at COUNT while the main loop HALTs.
; MODE 2: DART A sends MSG from transmit-buffer-empty interrupts; the main
;         loop HALTs. The handler ends the message with "reset Tx int".
COUNT   equ 9000h
ptr     equ 9002h

        org 0
        di
        ld sp,0
        ld hl,0
        ld (COUNT),hl
        ld a,vectors/256
        ld i,a
        im 2
        ld hl,iotab
        ld b,IOTABN
init:   ld c,(hl)
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        djnz init
 if MODE = 1
        ld a,85h                ; ch2: interrupt, timer, prescaler 16, TC follows
        out (60h),a
        ld a,250
        out (60h),a
 else
        ld hl,msg+1
        ld (ptr),hl
        ld a,(msg)
        out (80h),a             ; the first character starts the chain
 endif
        ei
idle:   halt
        jr idle

ctcisr: push hl
        ld hl,(COUNT)
        inc hl
        ld (COUNT),hl
        pop hl
        ei
        reti

txisr:  push af
        push hl
        ld hl,(ptr)
        ld a,(hl)
        or a
        jr z,txend
        out (80h),a
        inc hl
        ld (ptr),hl
        jr txret
txend:  ld a,28h                ; reset transmitter interrupt pending
        out (84h),a
        ld hl,(COUNT)
        inc hl
        ld (COUNT),hl
txret:  pop hl
        pop af
        ei
        reti

msg:    db "HELLO",13,10,0

iotab:  db 40h,57h, 40h,13      ; ch0: 9615 baud clock for DART A
        db 40h,10h              ; CTC vector base 10h
        db 8Ch,2, 8Ch,20h       ; DART vector 20h
        db 8Ch,1, 8Ch,04h       ; status affects vector
        db 84h,18h, 84h,4, 84h,44h, 84h,3, 84h,0C1h, 84h,5, 84h,0EAh
        db 84h,1, 84h,02h       ; A: transmit interrupt enable
IOTABN  equ ($-iotab)/2

        ds 100h-$,0
vectors:
        ds 14h,0
        dw ctcisr               ; CTC ch2: 10h + 2*2
        ds 28h-16h,0
        dw txisr                ; DART A transmit: 20h + 4*2
        ds 1000h-$,0FFh
