; Daisy-chain test program for the board (lbplus emu tests).
; MODE 1: CTC ch3 and DART A receive both pending when EI; the CTC (higher)
;         is served first and, in service, blocks the DART until its RETI.
; MODE 2: the CTC handler ends with EI; RET instead of RETI: the CTC stays
;         in service and the DART is never served.
; MODE 3: the DART handler re-enables interrupts and starts the CTC: the
;         higher-priority CTC nests inside it.
; Each handler logs a letter (upper case on entry, lower case on exit) at LOG.
LOG     equ 9000h
logp    equ 8FFEh

        org 0
        di
        ld sp,0
        ld hl,LOG
        ld (logp),hl
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
 if MODE != 3
        ld a,0A7h               ; ch3: interrupt, timer, prescaler 256, TC follows, reset
        out (70h),a
        ld a,4                  ; zero count every 4 x 256 T = 256 us
        out (70h),a
 endif
        ld bc,1000              ; 6.5 ms with interrupts off: both sources pending
wait:   dec bc
        ld a,b
        or c
        jr nz,wait
        ei
idle:   jr idle

logc:   push hl
        ld hl,(logp)
        ld (hl),a
        inc hl
        ld (logp),hl
        pop hl
        ret

delay:  push bc                 ; about 2.6 ms
        ld bc,400
dl:     dec bc
        ld a,b
        or c
        jr nz,dl
        pop bc
        ret

ctcisr: push af
        ld a,'C'
        call logc
        ld a,03h                ; stop ch3 and its interrupts
        out (70h),a
        ei
        call delay
        ld a,'c'
        call logc
        pop af
 if MODE = 2
        ei
        ret
 else
        reti
 endif

dartisr:
        push af
        ld a,'D'
        call logc
        in a,(80h)              ; take the character: the request goes away
 if MODE = 3
        ld a,0A7h
        out (70h),a
        ld a,4
        out (70h),a             ; the CTC fires in 256 us, while we are in service
        ei
        call delay
 endif
        ld a,'d'
        call logc
        pop af
        ei
        reti

iotab:  db 40h,57h, 40h,13      ; ch0: 9615 baud clock for DART A
        db 40h,10h              ; CTC vector base 10h
        db 8Ch,2, 8Ch,20h       ; DART vector 20h
        db 8Ch,1, 8Ch,04h       ; status affects vector
        db 84h,18h, 84h,4, 84h,44h, 84h,3, 84h,0C1h, 84h,5, 84h,0EAh
        db 84h,1, 84h,10h       ; A: interrupt on every received character
IOTABN  equ ($-iotab)/2

        ds 100h-$,0
vectors:
        ds 16h,0
        dw ctcisr               ; CTC ch3: 10h + 3*2
        ds 2Ch-18h,0
        dw dartisr              ; DART A receive: 20h + 6*2
        ds 1000h-$,0FFh
