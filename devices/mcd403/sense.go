package mcd403

// Sense keys and additional sense codes (SCSI-1 CCS extended sense) [A]:
// the MCD-403's own sense codes are not documented; these are the standard
// codes a drive of 1987 would most plausibly return.
const (
	KeyNoSense        = 0x0
	KeyNotReady       = 0x2
	KeyMediumError    = 0x3
	KeyIllegalRequest = 0x5
	KeyDataProtect    = 0x7
	KeyBlankCheck     = 0x8
	KeyVolumeOverflow = 0xD

	ASCInvalidCommand  = 0x20
	ASCBadBlock        = 0x21 // logical block address out of range
	ASCInvalidField    = 0x24 // invalid field in CDB
	ASCInvalidLUN      = 0x25
	ASCInvalidParam    = 0x26 // invalid field in parameter list
	ASCWriteProtected  = 0x27
	ASCNotReady        = 0x04 // ASCQ 01: becoming ready (retension)
	ASCNoMedium        = 0x3A
	ASCWriteError      = 0x0C
	ASCReadError       = 0x11
	ASCEndOfMedium     = 0x00 // ASCQ 02: end of partition/medium detected
	ASCQBecomingReady  = 0x01
	ASCQEndOfMedium    = 0x02
	senseLength        = 18
	senseAdditionalLen = senseLength - 8
)

// sense is the pending sense data, cleared by REQUEST SENSE.
type sense struct {
	key, asc, ascq byte
	eom            bool
	valid          bool   // info holds a block number
	info           uint32 // the block concerned
}

// bytes is the 18-byte extended sense: byte 0 70h (bit 7 = information
// valid), byte 2 sense key with EOM in bit 6, bytes 3-6 the block, byte 7
// additional length, bytes 12-13 ASC and ASCQ.
func (s sense) bytes() []byte {
	b := make([]byte, senseLength)
	b[0] = 0x70
	if s.valid {
		b[0] |= 0x80
		b[3], b[4], b[5], b[6] = byte(s.info>>24), byte(s.info>>16), byte(s.info>>8), byte(s.info)
	}
	b[2] = s.key & 0x0F
	if s.eom {
		b[2] |= 0x40
	}
	b[7] = senseAdditionalLen
	b[12], b[13] = s.asc, s.ascq
	return b
}
