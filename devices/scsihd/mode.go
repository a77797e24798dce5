package scsihd

// MODE SENSE(6) and MODE SELECT(6) [F SCSI-1, CCS]: a 4-byte header
// (mode data length, medium type 0, device-specific byte with bit 7 =
// write protected, block descriptor length), one 8-byte block descriptor
// (density 0, blocks in 3 bytes, block length in 3) unless DBD, then the
// pages asked for: 01h error recovery, 03h format device, 04h rigid disk
// geometry, 3Fh all of them.

// Page codes the drive has.
const (
	pageErrorRecovery = 0x01
	pageFormat        = 0x03
	pageGeometry      = 0x04
	pageAll           = 0x3F
)

// modePage returns page code pc with the drive's values, or with zeros
// where a changeable mask is asked for (nothing can be changed [A]).
func (d *Drive) modePage(pc byte, changeable bool) []byte {
	var b []byte
	switch pc {
	case pageErrorRecovery:
		b = make([]byte, 8)
		b[1] = 6
		if !changeable {
			b[3] = 8 // read retry count [A]
		}
	case pageFormat:
		b = make([]byte, 24)
		b[1] = 22
		if !changeable {
			put16(b[2:], d.p.Heads) // tracks per zone: a cylinder
			put16(b[10:], d.p.SectorsPerTrack)
			put16(b[12:], BlockSize)
			put16(b[14:], 1) // interleave 1:1
			put16(b[16:], d.p.TrackSkew)
			b[20] = 0x80 // soft-sectored
		}
	case pageGeometry:
		b = make([]byte, 24)
		b[1] = 22
		if !changeable {
			c := d.m.cylinders
			b[2], b[3], b[4] = byte(c>>16), byte(c>>8), byte(c)
			b[5] = byte(d.p.Heads)
			put16(b[20:], d.p.RPM)
		}
	default:
		return nil
	}
	b[0] = pc
	return b
}

func put16(b []byte, v int) { b[0], b[1] = byte(v>>8), byte(v) }

// modeSense answers MODE SENSE(6). Saved values are the current ones (the
// drive saves nothing of its own) [A].
func (d *Drive) modeSense(cdb []byte) {
	dbd := cdb[1]&0x08 != 0
	control, code := cdb[2]>>6, cdb[2]&0x3F
	changeable := control == 1
	var pages []byte
	switch code {
	case 0:
	case pageAll:
		for _, pc := range []byte{pageErrorRecovery, pageFormat, pageGeometry} {
			pages = append(pages, d.modePage(pc, changeable)...)
		}
	default:
		pages = d.modePage(code, changeable)
		if pages == nil {
			d.illegal(ASCInvalidField)
			return
		}
	}
	out := []byte{0, 0, 0, 0}
	if d.disk.f.ReadOnly() {
		out[2] = 0x80
	}
	if !dbd {
		out[3] = 8
		n := min(d.m.blocks, 0xFFFFFF) // 3 bytes; READ CAPACITY has the rest
		if changeable {
			n = 0
		}
		out = append(out, 0, byte(n>>16), byte(n>>8), byte(n), 0, 0, BlockSize>>8, BlockSize&0xFF)
		if changeable {
			out[len(out)-3], out[len(out)-2], out[len(out)-1] = 0, 0, 0
		}
	}
	out = append(out, pages...)
	out[0] = byte(len(out) - 1)
	d.sendBytes(out[:min(int(cdb[4]), len(out))])
}

// modeSelect takes MODE SELECT(6)'s parameter list: the block length of a
// block descriptor must be 512 (or 0, "unchanged"); pages are taken and
// ignored, as nothing can be changed [A]. A list too short for its own
// header is an invalid parameter.
func (d *Drive) modeSelect(data []byte) {
	if len(data) < 4 || 4+int(data[3]) > len(data) {
		d.illegal(ASCInvalidParam)
		return
	}
	if data[3] >= 8 {
		bl := int(data[9])<<16 | int(data[10])<<8 | int(data[11])
		if bl != 0 && bl != BlockSize {
			d.illegal(ASCInvalidParam)
			return
		}
	}
	d.good()
}
