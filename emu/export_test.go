package emu

// SwapSCSIChip puts a fake 5380 behind ports 20-28 for tests of the board's
// I/O decode and WAIT logic.
func (b *Board) SwapSCSIChip(c SCSIChip) { b.scsi = c }
