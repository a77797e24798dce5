package acb4000

// Sense codes of the ACB-4000's 4-byte non-extended sense (class 0-2 error
// codes) [F SENSE, NETBSD, docs/HARDWARE.md 5]. Only the ones the model raises
// are named.
const (
	SenseNone            = 0x00
	SenseWriteFault      = 0x03
	SenseNotReady        = 0x04
	SenseUncorrectable   = 0x11
	SenseNoIDAddressMark = 0x12
	SenseWriteProtected  = 0x17
	SenseInvalidCommand  = 0x20
	SenseIllegalBlock    = 0x21
	SenseBadArgument     = 0x24
	SenseInvalidLUN      = 0x25
)

// sense is the controller's sense register, kept until the next command
// other than REQUEST SENSE [A: SASI practice].
type sense struct {
	code  byte
	valid bool // the LBA field is meaningful (byte 0 bit 7)
	lun   int
	lba   int
}

// bytes encodes the 4-byte sense: byte 0 address-valid bit and code,
// byte 1 LUN (bits 7-5) and LBA bits 20-16, bytes 2-3 LBA [F OS2].
func (s sense) bytes() [senseLen]byte {
	b0 := s.code & 0x7f
	if s.valid {
		b0 |= 0x80
	}
	return [senseLen]byte{b0, byte(s.lun&7)<<5 | byte(s.lba>>16)&0x1f, byte(s.lba >> 8), byte(s.lba)}
}
