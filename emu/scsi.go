package emu

import (
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// buildSCSI puts the board's 5380 on its SCSI bus, behind ports 20-28, and
// wires the optional jumpers of Config (JMP3: IRQ to CTC CLK/TRG2; JMP8: DRQ
// to DART DCDA) [F MAME-ampro, docs/HARDWARE.md 1.4]. The board always has both,
// with or without targets, as the real board does.
func (b *Board) buildSCSI() {
	b.bus = scsi.NewBus(b.s)
	b.ncr = ncr5380.New(b.s, b.bus, "ncr5380")
	if b.cfg.Jumpers.IRQToTRG2 {
		b.ncr.OnIRQ = func(v bool) { b.ctc.Trigger(2, v) }
	}
	if b.cfg.Jumpers.DRQToDCDA {
		b.ncr.OnDRQ = func(v bool) { b.dart.Channel(0).SetDCD(v) }
	}
	b.scsi = b.ncr
}

// NCR5380 returns the board's 5380 (for tests, tracers and the debugger).
func (b *Board) NCR5380() *ncr5380.Chip { return b.ncr }

// SCSIBus returns the board's SCSI bus: observers (tracers, VCD writers)
// watch it, and test targets not in the registry attach to it.
func (b *Board) SCSIBus() *scsi.Bus { return b.bus }

// SCSIDevice returns the device Config.SCSI put at id, or nil. What every
// model keeps is in scsidev.Device; what some show is in scsidev's optional
// interfaces (Paneled, Repositioner); a caller that knows the model may
// type-assert it for the rest.
func (b *Board) SCSIDevice(id int) scsidev.Device {
	if id < 0 || id >= len(b.devs) {
		return nil
	}
	return b.devs[id]
}

// FDCINTRQ is the WD1772's INTRQ output changing to level: with the jumper
// Jumpers.FDCIntrqToTRG3 it drives CTC CLK/TRG3. The floppy controller calls
// it on every edge.
func (b *Board) FDCINTRQ(level bool) {
	if b.cfg.Jumpers.FDCIntrqToTRG3 {
		b.ctc.Trigger(3, level)
	}
}

// FDCDRQ is the WD1772's DRQ output changing to level: with the jumper
// Jumpers.FDCDrqToRIA it drives the DART's RIA input.
func (b *Board) FDCDRQ(level bool) {
	if b.cfg.Jumpers.FDCDrqToRIA {
		b.dart.Channel(0).SetRI(level)
	}
}

// SCSIKind returns the kind (disk or tape) of the device Config.SCSI put at
// id; ok is false when there is none.
func (b *Board) SCSIKind(id int) (k scsidev.Kind, ok bool) {
	if b.SCSIDevice(id) == nil {
		return k, false
	}
	for _, s := range b.cfg.SCSI {
		if s.ID == id {
			return SCSIKindOf(s.Type)
		}
	}
	return k, false
}
