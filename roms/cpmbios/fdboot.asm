; fdboot.asm - the boot sector of an lbplus CP/M floppy (sector 1, or 17
; on double-sided media, of cylinder 0 side 0).
;
; The boot ROM (ours or Ampro's) reads it to 9000h and enters it because
; the first byte is 21h (LD HL,nn). It reads the two system tracks through
; the ROM's jump table (READTRK, STEPIN: on double-sided media the second
; track is side 1 of cylinder 0) so that the sector after this one lands at
; CCPBASE, and starts the BIOS. The same sector serves every Ampro format:
; the size code of the last ID the ROM read says where to load.

        INCLUDE "layout.inc"

STEPIN  equ 8006h               ; the boot ROM's jump table (docs/BOOT.md)
SETDMA  equ 800Fh
READTRK equ 8012h
IDSIZE  equ 8023h               ; size code of the last ID read (2, 3)

        org 9000h
        ld hl,CCPBASE-512       ; 512-byte sectors: this one, then the CCP
        ld a,(IDSIZE)
        cp 3
        jr nz,load
        ld hl,CCPBASE-1024      ; 1024-byte sectors
load:   call SETDMA
        call READTRK            ; CP/M track 0
        call STEPIN
        call READTRK            ; CP/M track 1
        ld a,1                  ; A = 1: booted from a floppy
        jp BIOSBASE

        ds 9000h+512-$,0
        end
