package ncr5380

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbplus/lbplus/scsi"
)

// Register 4 from the table is register 4 bit by bit, for every level of
// every line (DataLines, no line of the cable, changes nothing).
func TestCSBTable(t *testing.T) {
	for l := scsi.Line(0); l < scsi.DBP<<1; l++ {
		assert.Equal(t, csbOf(l), csb(l), "lines %v", l)
		assert.Equal(t, csbOf(l), csb(l|scsi.DataLines), "lines %v", l)
	}
	assert.Equal(t, uint8(CSBREQ|CSBBSY|CSBIO), csb(scsi.REQ|scsi.BSY|scsi.IO|scsi.ACK))
}
