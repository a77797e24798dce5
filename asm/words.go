package asm

// directives is the set of pasmo directives lbplus accepts, plus PHASE and
// DEPHASE and a few common aliases.
var directives = map[string]bool{
	"ORG": true, "EQU": true, "DEFL": true, "DB": true, "DEFB": true, "DEFM": true, "DM": true, "BYTE": true,
	"DW": true, "DEFW": true, "WORD": true, "DS": true, "DEFS": true, "BLOCK": true, "END": true,
	"INCLUDE": true, "INCBIN": true, "IF": true, "IFDEF": true, "IFNDEF": true, "ELSE": true, "ENDIF": true,
	"MACRO": true, "ENDM": true, "EXITM": true, "REPT": true, "IRP": true, "LOCAL": true,
	"PROC": true, "ENDP": true, "PUBLIC": true, "PHASE": true, "DEPHASE": true, "UNPHASE": true,
	".SHIFT": true, ".ERROR": true, ".WARNING": true,
}

func isDirective(up string) bool { return directives[up] }

// isReserved reports words that cannot name a symbol: mnemonics, directives,
// registers, conditions and operator words (pasmo reserves the same).
func isReserved(up string) bool {
	if mnemonics[up] || directives[up] || isRegisterWord(up) || isPrefixWord(up) {
		return true
	}
	_, cond := condCodes[up]
	return cond || up == "F"
}
