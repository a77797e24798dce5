package mcd403

import "github.com/lbplus/lbplus/scsi/scsidev"

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

	ASCInvalidCommand = 0x20
	ASCBadBlock       = 0x21 // logical block address out of range
	ASCInvalidField   = 0x24 // invalid field in CDB
	ASCInvalidLUN     = 0x25
	ASCInvalidParam   = 0x26 // invalid field in parameter list
	ASCWriteProtected = 0x27
	ASCNotReady       = 0x04 // ASCQ 01: becoming ready (retension)
	ASCNoMedium       = 0x3A
	ASCWriteError     = 0x0C
	ASCReadError      = 0x11
	ASCEndOfMedium    = 0x00 // ASCQ 02: end of partition/medium detected
	ASCQBecomingReady = 0x01
	ASCQEndOfMedium   = 0x02
)

// sense is the pending sense data, cleared by REQUEST SENSE.
type sense struct {
	key, asc, ascq byte
	eom            bool
	valid          bool   // info holds a block number
	info           uint32 // the block concerned
}

// bytes is the extended sense (scsidev.ExtendedSense), EOM in bit 6 of
// the key byte.
func (s sense) bytes() []byte {
	return scsidev.ExtendedSense(s.key, s.asc, s.ascq, s.eom, s.valid, s.info)
}
