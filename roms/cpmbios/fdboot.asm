; fdboot.asm - the boot sector of an lbplus CP/M floppy (sector 1, or 17
; on double-sided media, of cylinder 0 side 0).
;
; The boot ROM (ours or Ampro's) reads it to 9000h and enters it because
; the first byte is 21h (LD HL,nn). The system tracks are laid out as
; Ampro's are (docs/CPM.md "Floppies"): this loader is CP/M record 0, the
; CCP starts at record 1, in this same sector, and the BIOS follows the
; BDOS; Ampro's BIOS reloads CCP+BDOS at warm boot from record 1 on. The
; loader reads the two system tracks through the ROM's jump table
; (READTRK, STEPIN: on double-sided media the second track is side 1 of
; cylinder 0) 128 bytes below CCPBASE, so that record 1 lands at CCPBASE
; whatever the sector size, and starts the BIOS.

        INCLUDE "layout.inc"

STEPIN  equ 8006h               ; the boot ROM's jump table (docs/BOOT.md)
SETDMA  equ 800Fh
READTRK equ 8012h

        org 9000h
        ld hl,CCPBASE-128       ; record 0 (this loader), then the CCP
        call SETDMA
        call READTRK            ; CP/M track 0
        call STEPIN
        call READTRK            ; CP/M track 1
        ld a,1                  ; A = 1: booted from a floppy
        jp BIOSBASE

        IF $ > 9000h+128
        ERROR "the loader must fit CP/M record 0"
        ENDIF
        ds 9000h+128-$,0
        end
