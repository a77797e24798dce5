package scsihd

import "github.com/lbplus/lbplus/scsi/scsidev"

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

	senseLength = scsidev.ExtendedSenseLength
)

// sense is the pending sense, kept until REQUEST SENSE or the next
// command.
type sense struct {
	Key, ASC, ASCQ byte
	Valid          bool   // Info holds a block
	Info           uint32 // the block concerned
}

// bytes is the extended sense (scsidev.ExtendedSense).
func (s sense) bytes() []byte {
	return scsidev.ExtendedSense(s.Key, s.ASC, s.ASCQ, false, s.Valid, s.Info)
}
