package scsihd

// Sense keys and additional sense codes of the extended sense [F SCSI-1,
// CCS; which one the drive raises for what is A where docs/SCSIHD.md
// says so].
const (
	KeyNoSense        = 0x0
	KeyNotReady       = 0x2
	KeyMediumError    = 0x3
	KeyIllegalRequest = 0x5
	KeyDataProtect    = 0x7

	ASCNotReady       = 0x04 // ASCQ 01 becoming ready, 02 start needed
	ASCWriteError     = 0x0C
	ASCReadError      = 0x11
	ASCInvalidCommand = 0x20
	ASCBadBlock       = 0x21 // logical block address out of range
	ASCInvalidField   = 0x24 // invalid field in CDB
	ASCInvalidLUN     = 0x25
	ASCInvalidParam   = 0x26 // invalid field in parameter list
	ASCWriteProtected = 0x27

	ASCQBecomingReady = 0x01
	ASCQStartNeeded   = 0x02

	senseLength = 18
)

// sense is the pending sense, kept until REQUEST SENSE or the next
// command.
type sense struct {
	Key, ASC, ASCQ byte
	Valid          bool   // Info holds a block
	Info           uint32 // the block concerned
}

// bytes is the 18-byte extended sense: byte 0 70h (bit 7: information
// valid), byte 2 the key, bytes 3-6 the block, byte 7 the additional
// length (10), bytes 12-13 ASC and ASCQ.
func (s sense) bytes() []byte {
	b := make([]byte, senseLength)
	b[0] = 0x70
	if s.Valid {
		b[0] |= 0x80
		b[3], b[4], b[5], b[6] = byte(s.Info>>24), byte(s.Info>>16), byte(s.Info>>8), byte(s.Info)
	}
	b[2] = s.Key & 0x0F
	b[7] = senseLength - 8
	b[12], b[13] = s.ASC, s.ASCQ
	return b
}
