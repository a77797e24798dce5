; ccp.asm: lbplus's own CP/M 2.2 console command processor, written from
; the published CP/M 2.2 interface. It assembles to 0800h bytes at CCPBASE
; (layout.inc) and uses only BDOS calls, so it runs on any CP/M 2.2 BDOS.
;
; Entries (the BIOS jumps here with C = user*16 + drive):
;   CCPBASE+0  run the command already in the buffer at CCPBASE+7 (length)
;              and CCPBASE+8 (text), e.g. an autostart command
;   CCPBASE+3  start with an empty buffer
;
; Built-in commands: d:, DIR, ERA, REN, SAVE, TYPE, USER. Anything else
; loads d:NAME.COM at 0100h (up to the CCP) with the default FCBs at 005Ch
; and 006Ch, the tail at 0080h and the DMA at 0080h, and calls it; a
; program may return with RET or warm boot. While A:$$$.SUB exists, command
; lines come from its last record (SUBMIT's format: length, text), which is
; then dropped; a key pressed while a batch runs deletes it.

        include "layout.inc"

        org     CCPBASE

CR      equ     0Dh
LF      equ     0Ah
EOFCH   equ     1Ah
BDOS    equ     PZ_BDOS

        jp      ccpgo           ; +0
        jp      ccpclr          ; +3
cbmax:  db      127             ; +6: the buffer for BDOS function 10
cblen:  db      0               ; +7
cbuf:   ds      128, 0          ; +8
        db      0

ccpclr: xor     a
        ld      (cblen), a
ccpgo:  ld      sp, ccpstk
        ld      a, c
        and     0Fh
        ld      (cdrive), a
        ld      a, c
        rrca
        rrca
        rrca
        rrca
        and     0Fh
        ld      (cuser), a
        ld      c, 13           ; reset the disk system
        call    BDOS
        call    setuser
        xor     a
        ld      (subflg), a
        ld      de, subfcb      ; a batch is waiting?
        ld      c, 17
        call    BDOS
        inc     a
        jr      z, ccp1
        ld      a, 1
        ld      (subflg), a
ccp1:   call    seldrv
        ld      a, (cblen)
        or      a
        jr      nz, doline

prompt: ld      sp, ccpstk
        call    crlf
        call    seldrv
        ld      a, (cdrive)
        add     a, 'A'
        call    putc
        ld      a, '>'
        call    putc
        call    getline
doline: ld      hl, cbuf        ; upper case, 0 at the end
        ld      a, (cblen)
        ld      c, a
        ld      b, 0
        add     hl, bc
        ld      (hl), 0
        ld      hl, cbuf
upc:    ld      a, (hl)
        or      a
        jr      z, upc2
        cp      'a'
        jr      c, upc1
        cp      'z'+1
        jr      nc, upc1
        sub     20h
        ld      (hl), a
upc1:   inc     hl
        jr      upc
upc2:   ld      hl, cbuf
        ld      (cptr), hl
        ld      de, comfcb
        call    parse
        ld      (cmdend), hl
        ld      a, (comfcb+1)
        cp      ' '
        jr      nz, cmd1
        ld      a, (comfcb)     ; no name: "d:" or an empty line
        or      a
        jr      z, prompt
        dec     a
        ld      (cdrive), a
        call    seldrv
        jr      prompt
cmd1:   ld      a, (comfcb)     ; "d:NAME" is always a program
        or      a
        jr      nz, trans
        ld      hl, cmdtab
cmd2:   ld      a, (hl)
        or      a
        jr      z, trans
        ld      de, comfcb+1
        ld      b, 4
        push    hl
cmd3:   ld      a, (de)
        cp      (hl)
        jr      nz, cmd4
        inc     hl
        inc     de
        djnz    cmd3
        ld      a, (de)         ; the rest of the name must be blank
        cp      ' '
        jr      nz, cmd4
        pop     hl
        ld      de, 4
        add     hl, de
        ld      a, (hl)
        inc     hl
        ld      h, (hl)
        ld      l, a
        jp      (hl)
cmd4:   pop     hl
        ld      de, 6
        add     hl, de
        jr      cmd2

cmdtab: db      "DIR "
        dw      cdir
        db      "ERA "
        dw      cera
        db      "TYPE"
        dw      ctype
        db      "SAVE"
        dw      csave
        db      "REN "
        dw      cren
        db      "USER"
        dw      cuserc
        db      0

; ------------------------------------------------------------ transients
trans:  ld      hl, comfcb+9    ; NAME.COM, not a wildcard
        ld      a, (hl)
        cp      ' '
        jp      nz, cmderr
        ld      (hl), 'C'
        inc     hl
        ld      (hl), 'O'
        inc     hl
        ld      (hl), 'M'
        ld      hl, comfcb+1
        ld      b, 8
tr0:    ld      a, (hl)
        cp      '?'
        jp      z, cmderr
        inc     hl
        djnz    tr0
        ld      hl, (cmdend)    ; the tail, as typed after the name
        push    hl
        ld      de, PZ_DMA+1
        ld      b, 0
tr1:    ld      a, (hl)
        ld      (de), a
        or      a
        jr      z, tr2
        inc     hl
        inc     de
        inc     b
        jr      tr1
tr2:    ld      a, b
        ld      (PZ_DMA), a
        pop     hl
        ld      (cptr), hl
        ld      de, PZ_FCB      ; the first two parameters as FCBs
        call    parse
        ld      de, fcb2tmp
        call    parse
        ld      hl, fcb2tmp
        ld      de, PZ_FCB2
        ld      bc, 16
        ldir
        xor     a
        ld      (PZ_FCB+32), a
        ld      (PZ_FCB+12), a
        ld      de, comfcb
        call    fopen
        inc     a
        jp      z, cmderr
        ld      hl, TPA
tr3:    push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, comfcb
        ld      c, 20
        call    BDOS
        pop     hl
        or      a
        jr      nz, tr4
        ld      de, 128
        add     hl, de
        ld      de, CCPBASE     ; the program must end below the CCP
        or      a
        sbc     hl, de
        add     hl, de
        jr      c, tr3
        ld      hl, msgload
        call    pstr
        jp      prompt
tr4:    ld      de, PZ_DMA
        ld      c, 26
        call    BDOS
        call    seldrv
        call    crlf            ; the program starts on a fresh line: CR
        call    TPA             ; too, as a batch line's echo has none
        ld      sp, ccpstk
        call    seldrv
        jp      prompt

; cmderr: echoes the command word followed by '?'.
cmderr: call    crlf
        ld      hl, cbuf
ce1:    ld      a, (hl)
        or      a
        jr      z, ce2
        cp      ' '
        jr      z, ce2
        push    hl
        call    putc
        pop     hl
        inc     hl
        jr      ce1
ce2:    ld      a, '?'
        call    putc
        jp      prompt

; ------------------------------------------------------------ built-ins
; arg: parses the next parameter into fcb; A = its number of '?'. A file
; name without a drive means the current one.
arg:    ld      hl, fcb+16      ; nothing left from an earlier command
        ld      b, 20
arg1:   ld      (hl), 0
        inc     hl
        djnz    arg1
        ld      de, fcb
        call    parse
        ld      a, c
        ret

; argall: as arg, but an empty name or type means *.*.
argall: call    arg
        ld      hl, fcb+1
        ld      a, (hl)
        cp      ' '
        jr      nz, aa2
        ld      b, 11
aa1:    ld      (hl), '?'
        inc     hl
        djnz    aa1
aa2:    ret

cdir:   call    argall
        xor     a
        ld      (dircnt), a
        ld      de, fcb
        ld      c, 17
dir1:   call    BDOS
        inc     a
        jr      z, dir9
        dec     a
        rrca
        rrca
        rrca
        and     60h
        ld      l, a
        ld      h, 0
        ld      de, PZ_DMA
        add     hl, de          ; HL -> the entry
        push    hl
        ld      de, 10
        add     hl, de
        bit     7, (hl)         ; SYS files are not listed
        pop     hl
        jr      nz, dir8
        push    hl
        ld      a, (dircnt)
        and     3
        jr      nz, dir2
        call    crlf
        ld      a, (fcb)
        or      a
        jr      nz, dir1a
        ld      a, (cdrive)
        inc     a
dir1a:  add     a, 'A'-1
        call    putc
        ld      a, ':'
        call    putc
        jr      dir3
dir2:   ld      a, ' '
        call    putc
        ld      a, ':'
        call    putc
dir3:   ld      a, ' '
        call    putc
        pop     hl
        inc     hl
        ld      b, 11
dir4:   ld      a, b
        cp      3
        jr      nz, dir5
        push    hl
        push    bc
        ld      a, ' '
        call    putc
        pop     bc
        pop     hl
dir5:   ld      a, (hl)
        and     7Fh
        push    hl
        push    bc
        call    putc
        pop     bc
        pop     hl
        inc     hl
        djnz    dir4
        ld      hl, dircnt
        inc     (hl)
        call    brk
        jp      nz, prompt
dir8:   ld      c, 18
        jr      dir1
dir9:   ld      a, (dircnt)
        or      a
        jp      nz, prompt
nofile: ld      hl, msgnof
        call    pstr
        jp      prompt

cera:   call    arg
        cp      11
        jr      nz, era1
        ld      hl, msgall      ; every file: ask first
        call    pstr
        call    getcon
        ld      a, (cblen)
        or      a
        jp      z, prompt
        ld      a, (cbuf)
        and     5Fh
        cp      'Y'
        jp      nz, prompt
era1:   ld      de, fcb
        ld      c, 19
        call    BDOS
        inc     a
        jr      z, nofile
        jp      prompt

ctype:  call    arg
        or      a
        jp      nz, cmderr
        ld      de, fcb
        call    fopen
        inc     a
        jr      z, nofile
        call    crlf
        ld      a, 128
        ld      (tpos), a
typ1:   ld      a, (tpos)
        cp      128
        jr      c, typ2
        ld      de, PZ_DMA
        ld      c, 26
        call    BDOS
        ld      de, fcb
        ld      c, 20
        call    BDOS
        or      a
        jp      nz, prompt
        ld      (tpos), a
typ2:   ld      l, a
        inc     a
        ld      (tpos), a
        ld      h, 0
        ld      de, PZ_DMA
        add     hl, de
        ld      a, (hl)
        cp      EOFCH
        jp      z, prompt
        call    putc
        call    brk
        jp      nz, prompt
        jr      typ1

csave:  call    number          ; pages
        push    af
        call    arg
        or      a
        jp      nz, cmderr
        ld      de, fcb
        ld      c, 19
        call    BDOS
        ld      de, fcb
        ld      c, 22
        call    BDOS
        inc     a
        jr      z, sav9
        pop     af
        ld      b, a            ; pages (up to 255: counted as pages, as
        ld      c, 0            ; 2 x 255 records overflow a byte); C: the
        ld      hl, TPA         ; record within the page
sav1:   ld      a, b
        or      a
        jr      z, sav2
        push    bc
        push    hl
        ex      de, hl
        ld      c, 26
        call    BDOS
        ld      de, fcb
        ld      c, 21
        call    BDOS
        pop     hl
        ld      de, 128
        add     hl, de
        pop     bc
        inc     c
        bit     1, c
        jr      z, sav3
        ld      c, 0            ; the page's second record: next page
        dec     b
sav3:   or      a
        jr      z, sav1
        jr      sav9
sav2:   ld      de, fcb
        ld      c, 16
        call    BDOS
        inc     a
        jr      z, sav9
        ld      de, PZ_DMA
        ld      c, 26
        call    BDOS
        jp      prompt
sav9:   ld      hl, msgspc
        call    pstr
        jp      prompt

cren:   call    arg             ; REN new=old
        or      a
        jp      nz, cmderr
        ld      hl, fcb
        ld      de, fcb2tmp
        ld      bc, 16
        ldir
        ld      hl, (cptr)
        ld      a, (hl)
        cp      '='
        jr      z, ren1
        cp      '_'
        jp      nz, cmderr
ren1:   inc     hl
        ld      (cptr), hl
        call    arg
        or      a
        jp      nz, cmderr
        ld      a, (fcb2tmp)
        ld      b, a
        ld      a, (fcb)
        or      a
        jr      z, ren2
        cp      b
        jp      nz, cmderr
ren2:   ld      a, b
        ld      (fcb), a
        ld      hl, fcb2tmp     ; the new name must not exist
        ld      de, fcb+16
        ld      bc, 16
        ldir
        ld      de, fcb+16
        ld      c, 17
        call    BDOS
        inc     a
        jr      z, ren3
        ld      hl, msgexi
        call    pstr
        jp      prompt
ren3:   ld      de, fcb
        ld      c, 23
        call    BDOS
        inc     a
        jp      z, nofile
        jp      prompt

cuserc: call    number
        cp      16
        jp      nc, cmderr
        ld      (cuser), a
        call    setuser
        jp      prompt

; ------------------------------------------------------------ helpers
; number: A = the decimal parameter at cptr (0-255), else the error.
number: call    skipbl
        ld      c, 0
        ld      a, (hl)
        sub     '0'
        cp      10
        jp      nc, cmderr
num1:   ld      a, (hl)
        sub     '0'
        cp      10
        jr      nc, num2
        ld      b, a
        ld      a, c
        add     a, a
        jp      c, cmderr
        add     a, a
        jp      c, cmderr
        add     a, c
        jp      c, cmderr
        add     a, a
        jp      c, cmderr
        add     a, b
        jp      c, cmderr
        ld      c, a
        inc     hl
        jr      num1
num2:   ld      (cptr), hl
        ld      a, c
        ret

skipbl: ld      hl, (cptr)
sk1:    ld      a, (hl)
        cp      ' '
        ret     nz
        inc     hl
        jr      sk1

; parse: the next word at cptr into the FCB at DE (drive, name, type; the
; rest of the first 16 bytes and the record byte 0). C = the number of
; '?' in name and type; cptr and HL point after the word.
parse:  push    de
        ld      h, d
        ld      l, e
        ld      (hl), 0
        inc     hl
        ld      b, 11
pa0:    ld      (hl), ' '
        inc     hl
        djnz    pa0
        ld      b, 4
pa0b:   ld      (hl), 0
        inc     hl
        djnz    pa0b
        call    skipbl
        ld      c, 0
        or      a
        jr      z, pa9
        inc     hl
        ld      a, (hl)
        dec     hl
        cp      ':'
        jr      nz, pa1
        ld      a, (hl)
        sub     'A'-1
        ld      (de), a
        inc     hl
        inc     hl
pa1:    inc     de
        ld      b, 8
        call    pafld
        ld      a, (hl)
        cp      '.'
        jr      nz, pa2
        inc     hl
pa2:    pop     de
        push    de
        push    hl
        ld      hl, 9
        add     hl, de
        ex      de, hl
        pop     hl
        ld      b, 3
        call    pafld
pa9:    pop     de
        ld      (cptr), hl
        ret

; pafld: up to B characters into DE ('*' fills with '?'), skipping the
; rest of an over-long field.
pafld:  ld      a, (hl)
        call    delim
        ret     z
        cp      '*'
        jr      nz, pf1
        ld      a, '?'
        dec     hl
pf1:    cp      '?'
        jr      nz, pf2
        inc     c
pf2:    ld      (de), a
        inc     hl
        inc     de
        djnz    pafld
pf3:    ld      a, (hl)         ; the rest of a long name is dropped
        call    delim
        ret     z
        inc     hl
        jr      pf3

; delim: Z if A ends a name: 0, blank, = _ . : ; < > ,
delim:  push    hl
        push    bc
        ld      hl, delims
        ld      b, 10
dl1:    cp      (hl)
        jr      z, dl2
        inc     hl
        djnz    dl1
dl2:    pop     bc
        pop     hl
        ret
delims: db      0, " =_.:;<>,"

; pafld's '*': the pointer stays on '*' until the field is full, then the
; rest-skipping loop steps over it.

fopen:  xor     a
        ld      hl, 32
        add     hl, de
        ld      (hl), a
        ld      hl, 12
        add     hl, de
        ld      (hl), a
        ld      c, 15
        jp      BDOS

setuser:
        ld      a, (cuser)
        ld      e, a
        ld      c, 32
        call    BDOS
        jr      setcd

seldrv: ld      a, (cdrive)
        ld      e, a
        ld      c, 14
        call    BDOS
setcd:  ld      a, (cuser)      ; 0004h for the next warm boot
        rlca
        rlca
        rlca
        rlca
        ld      hl, cdrive
        or      (hl)
        ld      (PZ_CDISK), a
        ret

; brk: NZ (and the key eaten) if a key was pressed.
brk:    ld      c, 11
        call    BDOS
        or      a
        ret     z
        ld      c, 1
        call    BDOS
        or      1
        ret

crlf:   ld      a, CR
        call    putc
        ld      a, LF
putc:   ld      e, a
        ld      c, 2
        jp      BDOS

pstr:   ld      a, (hl)
        or      a
        ret     z
        push    hl
        call    putc
        pop     hl
        inc     hl
        jr      pstr

getcon: ld      de, cbmax   ; (function 10 echoes CR only, as in CP/M 2.2)
        ld      c, 10
        jp      BDOS

; getline: the next command line, from $$$.SUB while it lasts.
getline:
        ld      a, (subflg)
        or      a
        jr      z, getcon
        ld      a, 1            ; A: for the batch file
        ld      (subfcb), a
        ld      de, subfcb
        call    fopen
        inc     a
        jr      z, gl8
        ld      a, (subfcb+15)
        or      a
        jr      z, gl8
        dec     a
        ld      (subfcb+32), a
        ld      de, cblen
        ld      c, 26
        call    BDOS
        ld      de, subfcb
        ld      c, 20
        call    BDOS
        or      a
        jr      nz, gl8
        ld      hl, subfcb+15
        dec     (hl)
        xor     a
        ld      (subfcb+14), a  ; S2 = 0: the FCB changed, close writes it
        ld      de, subfcb
        ld      c, 16
        call    BDOS
        ld      de, PZ_DMA
        ld      c, 26
        call    BDOS
        ld      hl, cbuf        ; echo the line
        ld      a, (cblen)
        ld      b, a
gl1:    ld      a, b
        or      a
        jr      z, gl2
        ld      a, (hl)
        push    hl
        push    bc
        call    putc
        pop     bc
        pop     hl
        inc     hl
        dec     b
        jr      gl1
gl2:    call    brk             ; a key stops the batch: a new prompt
        ret     z
        call    subend
        ld      (cblen), a
        jp      prompt
gl8:    call    subend          ; the batch is over: the prompt already
        jp      getcon          ; shown takes the next line from the console

; subend: delete $$$.SUB and leave batch mode; A = 0.
subend: ld      de, subfcb
        ld      c, 19
        call    BDOS
        xor     a
        ld      (subflg), a
        ret

msgnof: db      CR, LF, "NO FILE", 0
msgall: db      CR, LF, "ALL (Y/N)?", 0
msgspc: db      CR, LF, "NO SPACE", 0
msgexi: db      CR, LF, "FILE EXISTS", 0
msgload: db     CR, LF, "BAD LOAD", 0

subfcb: db      1, "$$$     SUB"
        ds      24, 0

cdrive: db      0
cuser:  db      0
subflg: db      0
dircnt: db      0
tpos:   db      0
cptr:   dw      0
cmdend: dw      0
comfcb: ds      36, 0
fcb:    ds      36, 0
fcb2tmp: ds     36, 0

codeend equ     $
        if      CCPBASE+CCPSIZE-codeend < 64
        .error  "CCP too large: it needs 64 bytes of stack below 0800h"
        endif
        ds      CCPBASE+CCPSIZE-$, 0
ccpstk  equ     $
        end
