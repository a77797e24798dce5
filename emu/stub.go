package emu

// Stub is the code of StubROM: LD A,LatchRAM; OUT (00h),A; JP entry.
// Execution continues from RAM right after the OUT switches the ROM out, so
// a harness puts the same bytes at 0000h in RAM too.
func Stub(entry uint16) []byte {
	return []byte{0x3E, LatchRAM, 0xD3, 0x00, 0xC3, byte(entry), byte(entry >> 8)}
}

// StubROM returns a 4 KB boot ROM for programs that harnesses and tests
// load into RAM (with Stub at 0000h): it switches the ROM out (port 00
// bit 6) and jumps to entry. Unused ROM bytes read FFh, as an erased EPROM
// does.
func StubROM(entry uint16) []byte {
	rom := make([]byte, 4096)
	for i := range rom {
		rom[i] = 0xFF
	}
	copy(rom, Stub(entry))
	return rom
}
