// Package opimage builds the test image that lays out every Z80 opcode of
// every prefix group, for the tests that compare our assembler's and our
// disassembler's view of the instruction set with z80dasm's.
package opimage

// Image lays out every opcode of every prefix group, each followed by
// operand bytes that are themselves one-byte instructions (80h ADD A,B,
// 7Fh LD A,A, 05h DEC B), so a disassembler is back in step after each
// group whatever length it decodes. 80h and 7Fh are the displacement and
// immediate edges.
func Image() []byte {
	var b []byte
	tail := []byte{0x80, 0x7F, 0x05}
	isPrefix := func(op int) bool { return op == 0xCB || op == 0xDD || op == 0xED || op == 0xFD }
	for op := 0; op < 256; op++ {
		if !isPrefix(op) {
			b = append(b, byte(op))
			b = append(b, tail...)
		}
		b = append(b, 0xCB, byte(op))
		b = append(b, 0xED, byte(op))
		b = append(b, tail...)
		for _, p := range []byte{0xDD, 0xFD} {
			if !isPrefix(op) {
				b = append(b, p, byte(op))
				b = append(b, tail...)
			}
			b = append(b, p, 0xCB, 0x80, byte(op), p, 0xCB, 0x7F, byte(op), p, 0xCB, 0x00, byte(op))
		}
	}
	return b
}
