; Macro-heavy code: structured I/O, local labels, NUL, EXITM, IRP, REPT.
outp    macro   port, val
        ld      a,val
        out     (port),a
        endm

delay   macro   count
        local   lp
        ld      b,count
lp:     djnz    lp
        endm

pushall macro
        irp     rp, af, bc, de, hl, ix, iy
        push    rp
        endm
        endm

popall  macro
        irp     rp, iy, ix, hl, de, bc, af
        pop     rp
        endm
        endm

opt     macro   a1, b1
        if      nul b1
        db      a1
        exitm
        endif
        db      a1, b1
        endm

        macro   table, base, n
        rept    n, k, 0, 1
        dw      base + k*2
        endm
        endm

        org     1000h
start:  pushall
        outp    40h, 3
        outp    41h, 0FFh
        delay   10
        delay   200
        opt     1
        opt     2, 3
        popall
        ret
        table   2000h, 5
        end
