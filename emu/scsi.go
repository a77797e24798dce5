package emu

import (
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/scsi"
)

// AttachNCR5380 builds the board's 5380 on a new SCSI bus, plugs it into
// ports 20-28 and wires the optional jumpers of Config (JMP3: IRQ to CTC
// CLK/TRG2; JMP8: DRQ to DART DCDA) [F MAME-ampro, REFERENCE.md 1.4].
// Targets attach to the returned bus.
func (b *Board) AttachNCR5380() (*ncr5380.Chip, *scsi.Bus) {
	bus := scsi.NewBus(b.s)
	chip := ncr5380.New(b.s, bus, "ncr5380")
	if b.cfg.JumperIRQToTRG2 {
		chip.OnIRQ = func(v bool) { b.ctc.Trigger(2, v) }
	}
	if b.cfg.JumperDRQToDCDA {
		chip.OnDRQ = func(v bool) { b.dart.Channel(0).SetDCD(v) }
	}
	b.AttachSCSI(chip)
	return chip, bus
}
