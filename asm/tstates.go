package asm

import (
	"strconv"

	"github.com/lbplus/lbplus/z80host/optable"
)

// tstates returns the listing T-state column for one encoded instruction,
// from the table z80host times the CPU with, so listing and emulation agree:
// "7", or "12/7" (taken/not taken, repeating/last) for conditional forms.
func tstates(code []byte) string {
	in := optable.Lookup(code)
	if !in.Valid {
		return ""
	}
	if in.T == in.TAlt {
		return strconv.Itoa(in.T)
	}
	return strconv.Itoa(in.T) + "/" + strconv.Itoa(in.TAlt)
}
