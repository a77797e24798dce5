; bootdemo - the smallest useful SCSI boot block for the lbplus monitor.
;
; The monitor's B command reads logical block 0 of a SCSI target (512
; bytes) to 8000h and jumps here with A = the target ID, interrupts off,
; the ROM still mapped at 0000h-0FFFh and a return address to the monitor
; prompt on the stack (docs/BOOT.md). This block prints one line on the
; console (DART channel A, already set to 9600 baud by the monitor) and
; returns to the monitor. A real boot block would load more blocks with its
; own SCSI code, switch the ROM out (port 00 bit 6) and jump to the system.

DARTAD  equ 80h             ; DART A data
DARTAC  equ 84h             ; DART A control: RR0 bit 2 = transmit buffer empty

        org 8000h
boot:   add a,'0'           ; the target ID we were loaded from, as a digit
        ld (tgtdig),a
        ld hl,msg
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
