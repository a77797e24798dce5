// Package asm is lbplus's Z80 assembler. It builds every piece of Z80
// software the project ships (monitor ROM, SCSI test programs, BACKUP) and
// users' own experiments, and aims to produce the same bytes as pasmo 0.5
// (Debian package pasmo) for any source pasmo accepts.
//
// # Syntax
//
// One statement per line: [label[:]] [mnemonic|directive [operands]] [; comment].
// A label is an identifier at column 1, one followed by ':', or one followed
// by a directive, mnemonic or macro name. Mnemonics, registers, conditions,
// directives and operator words are case-insensitive and reserved; symbols
// are case-sensitive (pasmo's default). Identifiers start with a letter, '_',
// '?', '@' or '.', and '$' inside them is ignored. A leading decimal line
// number is ignored.
//
// Instructions: the whole Z80 set in Zilog mnemonics, plus the undocumented
// IXH/IXL/IYH/IYL forms, SLL (alias SLI, SL1), "op (IX+d),r" and
// "RES/SET/BIT b,(IX+d),r" (DD/FD CB d copies into r), IN F,(C) and IN (C),
// OUT (C),0. "SUB A,x" style optional A for SUB/AND/XOR/OR/CP, and "ADD x"
// without A, are accepted too. Brackets [..] may replace parentheses for
// indirection.
//
// Directives: ORG, EQU, DEFL and '=', DB/DEFB/DEFM/DM/BYTE (strings and
// expressions mixed), DW/DEFW/WORD, DS/DEFS/BLOCK size[,fill], END [entry],
// INCLUDE and INCBIN (file name quoted or up to the next blank), IF/IFDEF/
// IFNDEF/ELSE/ENDIF, MACRO/ENDM (both "name MACRO a,b" and "MACRO name,a,b"),
// EXITM, .SHIFT, REPT count[,var[,init[,step]]], IRP, LOCAL, PROC/ENDP,
// PUBLIC (accepted, no effect), PHASE/DEPHASE, .ERROR and .WARNING.
//
// Local labels work as in pasmo: LOCAL names inside MACRO, REPT, IRP and
// PROC...ENDP blocks are private to each expansion or block, and with
// Options.AutoLocal (pasmo --alocal) labels starting with '_' are private to
// the stretch between two ordinary labels.
//
// Numbers: 255, 0FFh, $FF, #FF, 0xFF, &HFF, %1010, 1010b, 17o, 17q, 12d and
// 'c' or "c"; '$' alone is the address of the current statement. Strings in
// single quotes are literal (two single quotes stand for one); double-quoted
// strings take C escapes (\n \r \t \a \\ \" \xNN \ooo).
//
// Operators, with pasmo's precedence from loosest to tightest:
//
//	?:   HIGH LOW   ||   &&   OR | XOR ^   AND &   NOT ~ ! unary+ unary-
//	= == EQ != <> NE < LT <= LE > GT >= GE   + -   * / MOD % SHL SHR << >>
//
// plus DEFINED name and NUL. Arithmetic is 16-bit unsigned, true is FFFFh.
// Note that, as in pasmo, unary minus binds looser than binary operators:
// "-1+2" is -3, and NOT/HIGH/LOW apply to the whole following sum.
//
// # Assembly
//
// Sources are read from an fs.FS (so a Go package can embed its ROM
// sources; UnionFS layers several). The assembler makes passes until every
// symbol keeps its value, so forward references work anywhere, including in
// DS sizes and IF conditions; a program whose labels never settle is an
// error. Errors are reported as file:line:col: message, one per line, and
// only from the final pass. Recursive INCLUDE, nesting deeper than 64 levels
// (recursive MACRO), more than 500,000 expanded lines in a pass and more
// than two million over all passes are errors, so no input makes the
// assembler loop forever or run for long.
//
// The listing's T-state column comes from lbplus/z80host/optable, the table
// that also times the emulated CPU, so the two cannot disagree: "7", or
// "12/7" (condition true/false, block repeating/finishing).
//
// # Known inaccuracies and differences from pasmo
//
//   - Byte operands must lie in -256..255 (FF00h..FFFFh or 0..FFh as 16-bit
//     values); pasmo silently truncates "LD A,300" and "DB 300". Index
//     offsets must lie in -128..127; pasmo also accepts (IX+128)..(IX+255).
//   - lbplus accepts forms pasmo rejects: IN F,(C), IN (C), OUT (C),0, the
//     DD/FD CB register-copy forms, SLI/SL1, '=' (pasmo 0.5 lacks it),
//     PHASE/DEPHASE, IFDEF/IFNDEF, optional "A," on SUB/AND/XOR/OR/CP and
//     missing "A," on ADD/ADC/SBC, JP HL/IX/IY, and a unary operator right
//     after a binary one ("2*-3", where pasmo reports an error).
//   - pasmo encodes "LD IXH,H" and "LD H,IXH" as DD 64 (which is really
//     LD IXH,IXH); lbplus rejects them as invalid.
//   - An indented word alone on a line ("  halr") is an unknown-instruction
//     error, not a label as in pasmo: a label there needs its colon.
//   - INCLUDE is processed when reached, so it may sit inside IF (pasmo
//     reads all INCLUDEs before assembling).
//   - Autolocal mode (pasmo --alocal) is Options.AutoLocal. No 8086
//     output, no tape/disk formats:
//     output is a raw image (from the lowest to the highest address
//     emitted, gaps zero-filled as pasmo does) or Intel HEX.
//   - The symbol file lists global symbols only; pasmo also lists LOCAL
//     labels under generated hexadecimal names.
//   - "##" pastes the argument's text: with n = 5, "lab##n" is lab5, where
//     pasmo pastes a numeric argument as four hex digits (lab0005).
//   - Forward references are allowed in DS sizes and IF conditions (pasmo
//     reports them as undefined).
//   - MACRO parameters are substituted in nested MACRO definitions too
//     (pasmo leaves an inner definition's text alone).
package asm
