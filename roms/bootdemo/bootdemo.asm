; bootdemo - the smallest useful boot sector for the lbplus boot ROM.
;
; The ROM reads logical block 0 of a SCSI target (512 bytes) to 9000h and,
; because the first byte is 21h (LD HL,nn), jumps here with A = the target
; ID, interrupts off, the ROM's copy running at 8000h and a return address
; to the monitor prompt on the stack (docs/BOOT.md). This block prints one
; line on the console (DART channel A, already at 9600 baud) and returns to
; the monitor. A real boot sector loads the system through the ROM's jump
; table (READTRK at 8012h) and jumps to it.

DARTAD  equ 80h             ; DART A data
DARTAC  equ 84h             ; DART A control: RR0 bit 2 = transmit buffer empty

        org 9000h
boot:   ld hl,msg           ; first byte 21h: the ROM's boot check
        add a,'0'           ; the target ID we were loaded from, as a digit
        ld (tgtdig),a
print:  ld a,(hl)
        or a
        ret z               ; back to the monitor prompt
wait:   in a,(DARTAC)
        and 4
        jr z,wait
        ld a,(hl)
        out (DARTAD),a
        inc hl
        jr print

msg:    db "Hello from the boot block of SCSI target "
tgtdig: db "?",0Dh,0Ah,0

        ds boot+512-$,0     ; exactly one block
        end
