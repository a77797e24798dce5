; IX/IY records, all rotate/shift forms on indexed memory, block I/O.
RECLEN  equ     6
OFS_ID  equ     0
OFS_LEN equ     1
OFS_PTR equ     2
OFS_FLG equ     4

        org     0A000h
walk:   ld      ix,records
        ld      iy,flags
        ld      b,NREC
w_loop: ld      a,(ix+OFS_ID)
        ld      (iy+0),a
        ld      l,(ix+OFS_PTR)
        ld      h,(ix+OFS_PTR+1)
        ld      c,(ix+OFS_LEN)
        bit     7,(ix+OFS_FLG)
        jr      z,w_skip
        set     0,(iy+1)
        res     7,(ix+OFS_FLG)
        rlc     (ix+OFS_FLG)
        rrc     (ix+OFS_FLG)
        rl      (iy-1)
        rr      (iy+127)
        sla     (ix-128)
        sra     (ix+5)
        srl     (ix+5)
w_skip: ld      de,RECLEN
        add     ix,de
        inc     iy
        djnz    w_loop
        ld      hl,buf
        ld      c,28h
        ld      b,0
        inir
        ld      hl,buf
        otir
        ld      a,ixh
        ld      ixl,a
        add     a,iyl
        ld      iyh,a
        ex      (sp),ix
        ld      sp,iy
        jp      (iy)
records:
        rept    4
        db      1, 2
        dw      buf
        db      80h, 0
        endm
NREC    equ     ($-records)/RECLEN
flags:  ds      8
buf:    ds      256
        end
