; Directive and expression coverage checked byte for byte against pasmo.
        org     200h
; numbers in every notation pasmo knows
nums:   db      255, 0FFh, $FF, #FF, 0xFF, &HFF, &O17, %1010, 1010b, 17o, 17q, 12d, 1$000$0b
        dw      0FFFFh, $ABCD, #1234, 0x8000, -1, -32768
; operators and pasmo's precedence
ops:    db      -1+2, 2+3*4, 1 shl 2+1, not 0+1, 7 and 3 or 8, 7 xor 2 and 3
        db      7 mod 3, 7 % 3, 1 << 3, 16 >> 2, 3 & 5, 3 | 5, ~1, !0, !5
        db      1 && 2, 0 || 0, 1 ? 2 : 3, 0 ? 2 : 3, 5 > 3, 5 < 3, 5 >= 5, 5 <= 4
        db      4 = 4, 4 != 4, 4 eq 4, 4 ne 4, 3 lt 4, 3 le 2, 4 gt 3, 4 ge 5
        db      high 1234h, low 1234h, high(5678h), low($+1), (2+3)*4, 100/7
        db      'A'+1, "a"-20h, defined nums, defined nothere, -(-5)
        dw      $, $-nums, ops-nums, fwd-$, 1234h shr 4, 1 shl 15
; strings and escapes
str:    db      'single ''quoted''', 0
        db      "double \"quoted\" \\ \n\r\t\a \x7F \101 \0", 0
        db      "", 'x', "y", 'x''y'
; DEFL counters and forward references
cnt     defl    0
        rept    5
cnt     defl    cnt+2
        db      cnt
        endm
        rept    4, k, 100, -10
        db      k
        endm
        ds      3, 0EEh
        dw      fwd, fwd2
; nested IF
later   equ     3
        if      later = 3
        db      33h
        if      0
        db      0
        else
        if      1
        db      44h
        endif
        endif
        else
        db      0
        endif
; macros: locals, NUL, EXITM, .SHIFT, ##, IRP, nesting
ldi16   macro   rg, val
        ld      rg,val
        endm
wait    macro   n
        local   lp
        ld      b,n
lp:     djnz    lp
        endm
opt     macro   a1, b1
        if      nul b1
        db      a1
        exitm
        endif
        db      a1, b1
        endm
many    macro   x1
        rept    3
        if      nul x1
        exitm
        endif
        db      x1
        .shift
        endm
        endm
mklab   macro   n
lab##n: db      LOW $
        endm
outer   macro   v
        wait    v
        ldi16   hl, v*2
        endm
        ldi16   bc, 1234h
        ldi16   ix, fwd
        wait    5
        wait    10
        opt     1
        opt     2, 3
        many    7, 8
        mklab   five
        mklab   six
        dw      labfive, labsix
        outer   3
        irp     rp, bc, de, hl, ix
        push    rp
        endm
        proc
        local   skip
        jr      skip
        nop
skip:   nop
        endp
        proc
        local   skip
        jr      z,skip
skip:   nop
        endp
fwd:    nop
        nop
fwd2:
        end     nums
        db      "never"
