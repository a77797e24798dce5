; bootstrap.asm - block 0 of an lbplus CP/M hard disk: the boot loader.
;
; The boot ROM (ours or Ampro's) loads this block to 9000h and enters it
; because the first byte is 3Eh (LD A,n). It loads blocks 0-31 through the
; ROM's READTRK (16 blocks a call, the same calls Ampro's HGEN loader makes
; [F HGEN]) so that block 10 lands at CCPBASE, and starts the BIOS.

        INCLUDE "layout.inc"

SETDMA  equ 800Fh               ; the boot ROM's jump table (docs/BOOT.md)
READTRK equ 8012h
LOADAT  equ CCPBASE-10*512      ; block 0's place: block 10 is the CCP

        org 9000h
        ld a,40h                ; ROM off (it already is with our ROM)
        out (0),a
        ld hl,LOADAT
        call SETDMA
        call READTRK            ; blocks 0-15
        call READTRK            ; blocks 16-31: BIOS and configuration
        xor a                   ; A = 0: booted from the hard disk
        jp BIOSBASE             ; cold start

        ds 9000h+512-$,0
        end
