package asm

// tstates returns the listing T-state column for one encoded instruction.
// Placeholder until z80host/optable exists.
func tstates(code []byte) string { return "" }
