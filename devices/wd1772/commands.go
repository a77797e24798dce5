package wd1772

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

// Command groups by the top bits.
func (f *FDC) isRestore() bool    { return f.cmd&0xF0 == 0x00 }
func (f *FDC) isSeek() bool       { return f.cmd&0xF0 == 0x10 }
func (f *FDC) isRead() bool       { return f.cmd&0xE0 == 0x80 }
func (f *FDC) isWrite() bool      { return f.cmd&0xE0 == 0xA0 }
func (f *FDC) isReadAddr() bool   { return f.cmd&0xF0 == 0xC0 }
func (f *FDC) isReadTrack() bool  { return f.cmd&0xF0 == 0xE0 }
func (f *FDC) isWriteTrack() bool { return f.cmd&0xF0 == 0xF0 }

// begin runs once the motor is up (or h = 1).
func (f *FDC) begin(now sched.Time) {
	if f.typeI {
		switch {
		case f.isRestore():
			// Restore is a seek to 0 from "track 255" that stops at TR00.
			f.track, f.data = 0xFF, 0
			f.stepsLeft = f.p.RestoreSteps
		case f.isSeek():
			f.stepsLeft = -1
		default:
			if f.cmd&0x40 != 0 { // Step In / Step Out; Step keeps the direction
				f.stepIn = f.cmd&0x20 == 0
			}
			f.stepsLeft = 1
		}
		f.typeIStep(now)
		return
	}
	if f.cmd&0x04 != 0 { // E: settle first
		f.enter(now, sSettle)
		f.s.Schedule(&f.ev, now+f.clocks(f.p.Settle))
		return
	}
	f.typeII(now)
}

// typeIStep issues the next step pulse of Restore, Seek or Step, or goes
// on to verification when the head has arrived.
func (f *FDC) typeIStep(now sched.Time) {
	d := f.drive
	rate := f.clocks(f.p.StepRates[f.cmd&3])
	seekLike := f.isRestore() || f.isSeek()
	if seekLike {
		if f.isRestore() && d != nil && d.Track0() {
			f.track = 0
			f.verify(now)
			return
		}
		if f.track == f.data {
			if f.isRestore() {
				// 255 steps and still no TR00: the command ends, with Seek
				// Error when V is set [A: the datasheet's Restore as we
				// read it; MAME instead lets the verify fail].
				if f.cmd&0x04 != 0 {
					f.status |= StSeekError
				}
				f.finish(now)
				return
			}
			f.verify(now)
			return
		}
		f.stepIn = f.data > f.track
	} else if f.stepsLeft == 0 {
		f.verify(now)
		return
	}
	if !f.stepIn && d != nil && d.Track0() && !f.isRestore() {
		// Stepping out at TR00: no pulse, the track register is set to 0
		// and the command goes on to verify [A: the type I flow chart as
		// commonly described; Hatari stops a Seek there the same way].
		f.track = 0
		f.verify(now)
		return
	}
	if seekLike || f.cmd&0x10 != 0 { // Seek and Restore always update; Step with u
		if f.stepIn {
			f.track++
		} else {
			f.track--
		}
	}
	if d != nil {
		d.Step(now, f.stepIn)
	}
	if f.stepsLeft > 0 {
		f.stepsLeft--
	}
	f.enter(now, sStep)
	f.s.Schedule(&f.ev, now+rate)
}

func (f *FDC) verify(now sched.Time) {
	if f.cmd&0x04 == 0 {
		f.finish(now)
		return
	}
	f.enter(now, sSettle)
	f.s.Schedule(&f.ev, now+f.clocks(f.p.Settle))
}

// typeII starts the type II/III work after spin-up and settle.
func (f *FDC) typeII(now sched.Time) {
	if (f.isWrite() || f.isWriteTrack()) && f.drive != nil && f.drive.WriteProtected() {
		f.status |= StProtect
		f.finish(now)
		return
	}
	switch {
	case f.isReadTrack():
		f.indexCount = 0
		f.enter(now, sTrackWait)
	case f.isWriteTrack():
		f.indexCount = 0
		f.setDRQ(now, true)
		f.enter(now, sTrackLoad)
		f.s.Schedule(&f.ev, now+3*f.cell())
	default:
		f.startSearch(now, sSearch)
	}
}

// startSearch begins looking for ID fields; SearchIndex index pulses end
// it.
func (f *FDC) startSearch(now sched.Time, s state) {
	f.indexCount = 0
	f.enter(now, s)
	f.search(now)
}

// visible returns the track under the head if the chip can decode it: a
// turning disk, a formatted track, recorded at the chip's density and byte
// cell.
func (f *FDC) visible() (*fdimage.Track, *floppy.Positions) {
	d := f.drive
	if d == nil || !d.Spinning() {
		return nil, nil
	}
	t, p := d.Head()
	if t == nil || p.FM == f.mfm || p.Cell != f.cell() {
		return nil, nil
	}
	return t, p
}

// search schedules the end of the next ID address mark to pass the head,
// if any: the chip catches an ID whose mark (with its A1 sync bytes in
// MFM) starts after now.
func (f *FDC) search(now sched.Time) {
	t, p := f.visible()
	if t == nil {
		f.s.Cancel(&f.ev)
		return
	}
	rev := f.drive.RevStart(now)
	lead := 3
	if p.FM {
		lead = 0
	}
	best, bi, brev := sched.MaxTime, -1, sched.Time(0)
	for k := 0; k < 2; k++ {
		r := rev + sched.Time(k)*f.drive.Revolution()
		for i, at := range p.IDAt {
			start := r + sched.Time(at-lead)*p.Cell
			if start >= now && start < best {
				best, bi, brev = start, i, r
			}
		}
	}
	if bi < 0 {
		f.s.Cancel(&f.ev)
		return
	}
	f.tr, f.pos, f.cand, f.rev = t, p, bi, brev
	f.s.Schedule(&f.ev, brev+sched.Time(p.IDAt[bi]+1)*p.Cell)
}

// at is the time the end of cell c of the current revolution passes.
func (f *FDC) at(c int) sched.Time { return f.rev + sched.Time(c)*f.pos.Cell }

// idMark: an ID address mark just passed.
func (f *FDC) idMark(now sched.Time) {
	if f.obs.Len() != 0 {
		f.obs.Emit(now, f.name, floppy.IDField, int(f.tr.Sectors[f.cand].R))
	}
	if f.isReadAddr() {
		f.k = 0
		s := &f.tr.Sectors[f.cand]
		crc := floppy.IDCRC(f.pos.FM, s)
		if s.BadIDCRC {
			crc ^= 0xFFFF
		}
		f.buf = append(f.buf[:0], s.C, s.H, s.R, s.N, byte(crc>>8), byte(crc))
		f.enter(now, sIDBytes)
		f.s.Schedule(&f.ev, f.at(f.pos.IDAt[f.cand]+2))
		return
	}
	st := f.st
	f.enter(now, sIDCheck)
	f.searchState = st
	f.s.Schedule(&f.ev, f.at(f.pos.IDAt[f.cand]+7))
}

// idByte: Read Address transfers the six ID bytes.
func (f *FDC) idByte(now sched.Time) {
	f.transfer(now, f.buf[f.k])
	f.k++
	if f.k < 6 {
		f.s.Schedule(&f.ev, f.at(f.pos.IDAt[f.cand]+2+f.k))
		return
	}
	s := &f.tr.Sectors[f.cand]
	f.sector = s.C // the track byte goes to the sector register [F]
	if s.BadIDCRC {
		f.status |= StCRC
	}
	f.done(now)
}

// transfer puts a byte read from the disk in the data register. A byte
// still unread is overwritten and Lost Data set; once data is lost, DRQ is
// not raised again for the rest of the command [F WD-MAME; docs/FLOPPY.md
// "Lost Data"].
func (f *FDC) transfer(now sched.Time, b byte) {
	f.data = b
	switch {
	case f.drq:
		f.status |= StLostData
	case f.status&StLostData == 0:
		f.setDRQ(now, true)
	}
}

// done ends a read command. After Lost Data the pending DRQ is dropped and
// the command ends at once with INTRQ, read or not; a final byte that the
// host is merely late for (no data lost) keeps BUSY until it is read
// [F WD1772-DS, WD-MAME; docs/FLOPPY.md "Lost Data"].
func (f *FDC) done(now sched.Time) {
	if f.status&StLostData != 0 {
		f.setDRQ(now, false)
	}
	if f.drq {
		f.s.Cancel(&f.ev)
		f.enter(now, sHold)
		return
	}
	f.finish(now)
}

// idCheck: the ID field's CRC has passed; compare it.
func (f *FDC) idCheck(now sched.Time) {
	s := &f.tr.Sectors[f.cand]
	match := s.C == f.track
	if f.searchState == sSearch {
		match = match && s.R == f.sector
	}
	if match && s.BadIDCRC {
		f.status |= StCRC
		match = false
	}
	if !match {
		f.enter(now, f.searchState)
		f.search(now)
		return
	}
	f.status &^= StCRC
	if f.searchState == sVerify {
		f.finish(now)
		return
	}
	idEnd := f.pos.IDAt[f.cand] + 7
	if f.isWrite() {
		f.setDRQ(now, true)
		gate := f.p.WriteGateMFM
		if f.pos.FM {
			gate = f.p.WriteGateFM
		}
		f.enter(now, sWriteGate)
		f.s.Schedule(&f.ev, f.at(idEnd+gate))
		return
	}
	// Read Sector: the data mark must follow within the window.
	da := f.pos.DataAt[f.cand]
	lead := 3
	if f.pos.FM {
		lead = 0
	}
	if da < 0 || s.Data == nil || da-lead-idEnd > floppy.DataWindow(f.pos.FM) {
		f.enter(now, sSearch)
		f.search(now)
		return
	}
	if s.Deleted {
		f.status |= StDeleted
	}
	f.k = 0
	f.enter(now, sRead)
	f.s.Schedule(&f.ev, f.at(da+2))
}

func (f *FDC) readByte(now sched.Time) {
	s := &f.tr.Sectors[f.cand]
	f.transfer(now, s.Data[f.k])
	f.k++
	da := f.pos.DataAt[f.cand]
	if f.k < len(s.Data) {
		f.s.Schedule(&f.ev, f.at(da+2+f.k))
		return
	}
	f.enter(now, sReadCRC)
	f.s.Schedule(&f.ev, f.at(da+1+len(s.Data)+2))
}

func (f *FDC) readCRC(now sched.Time) {
	s := &f.tr.Sectors[f.cand]
	if s.BadCRC {
		f.status |= StCRC
		f.done(now)
		return
	}
	if f.cmd&0x10 != 0 { // m: next sector
		f.sector++
		f.startSearch(now, sSearch)
		return
	}
	f.done(now)
}

// writeGate: the write gate opens if the host gave the first byte.
func (f *FDC) writeGate(now sched.Time) {
	if f.drq {
		f.status |= StLostData
		f.finish(now)
		return
	}
	sync := f.p.WriteSyncMFM + 3 // zeros, then A1 A1 A1
	if f.pos.FM {
		sync = f.p.WriteSyncFM
	}
	gate := f.p.WriteGateMFM
	if f.pos.FM {
		gate = f.p.WriteGateFM
	}
	f.dataAt = f.pos.IDAt[f.cand] + 7 + gate + sync
	f.k = 0
	f.buf = f.buf[:0]
	f.enter(now, sWrite)
	f.s.Schedule(&f.ev, f.at(f.dataAt+1)) // start of the first data cell
}

// writeByte: the start of data cell k: the byte goes from the data
// register to the shift register and DRQ asks for the next.
func (f *FDC) writeByte(now sched.Time) {
	s := &f.tr.Sectors[f.cand]
	b := f.data
	if f.drq {
		f.status |= StLostData
		b = 0
	}
	f.buf = append(f.buf, b)
	f.k++
	if f.k < s.Size() {
		f.setDRQ(now, true)
		f.s.Schedule(&f.ev, f.at(f.dataAt+1+f.k))
		return
	}
	// CRC (2 bytes) and one FFh byte follow the data [F].
	f.enter(now, sWriteEnd)
	f.s.Schedule(&f.ev, f.at(f.dataAt+1+f.k+3))
}

// writeEnd stores the sector (durably) before reporting completion.
func (f *FDC) writeEnd(now sched.Time) {
	s := f.tr.Sectors[f.cand]
	s.Data = append([]byte(nil), f.buf...)
	s.Deleted = f.cmd&0x01 != 0
	s.BadCRC = false
	d := f.drive
	if d == nil || d.Media() == nil {
		f.fail(now, fmt.Errorf("%s: disk removed during Write Sector", f.name))
		return
	}
	if err := d.Media().WriteSector(d.Cylinder(), d.Side(), f.cand, s, f.dataAt); err != nil {
		f.fail(now, err)
		return
	}
	if f.cmd&0x10 != 0 {
		f.sector++
		f.startSearch(now, sSearch)
		return
	}
	f.finish(now)
}

func (f *FDC) fail(now sched.Time, err error) {
	if f.OnError != nil {
		f.OnError(err)
	}
	f.status |= StProtect
	f.finish(now)
}

// trackStart: the index pulse that opens Read Track or Write Track.
func (f *FDC) trackStart(now sched.Time) {
	f.k = 0
	n := int(f.drive.Revolution() / f.cell())
	if f.isReadTrack() {
		t, p := f.visible()
		if t != nil {
			f.cells = floppy.Stream(t, *p)
		} else {
			// Nothing decodable: the data separator delivers noise; model
			// it as zero bytes [A].
			f.cells = make([]floppy.Cell, n)
		}
		f.pos = &floppy.Positions{Cell: f.cell(), Len: len(f.cells)}
		f.enter(now, sReadTrack)
		f.s.Schedule(&f.ev, f.at(1))
		return
	}
	if f.drq { // the host did not give the first byte before the index
		f.status |= StLostData
		f.finish(now)
		return
	}
	f.pos = &floppy.Positions{FM: !f.mfm, Cell: f.cell(), Len: n}
	f.cells = f.cells[:0]
	f.crcHi, f.lastA1 = false, false
	f.enter(now, sWriteTrack)
	f.writeTrackByte(now)
}

func (f *FDC) readTrackByte(now sched.Time) {
	f.transfer(now, f.cells[f.k].B)
	f.k++
	if f.k < len(f.cells) {
		f.s.Schedule(&f.ev, f.at(f.k+1))
		return
	}
	f.done(now)
}

// writeTrackByte: the start of cell k of Write Track. The byte in the data
// register is written, with the 1772's codes: MFM F5 = A1 with a missing
// clock (CRC preset), F6 = C2 with a missing clock, F7 = two CRC bytes; FM
// F7 = CRC, F8-FB and FE = marks with clock C7 (CRC preset), FC = index mark
// [F WD1772 datasheet].
func (f *FDC) writeTrackByte(now sched.Time) {
	n := f.pos.Len
	if f.k >= n {
		f.trackEnd(now)
		return
	}
	if f.crcHi { // second CRC byte; the data register is not used
		f.crcHi = false
		f.cells = append(f.cells, floppy.Cell{B: byte(f.crc)})
		f.k++
		f.s.Schedule(&f.ev, f.at(f.k))
		return
	}
	b := f.data
	if f.drq {
		f.status |= StLostData
		b = 0
	}
	c := floppy.Cell{B: b}
	switch {
	case f.mfm && b == 0xF5:
		if !f.lastA1 {
			f.crc = 0xFFFF
		}
		c = floppy.Cell{B: 0xA1, Mark: true}
		f.crc = floppy.CRC16(f.crc, 0xA1)
	case f.mfm && b == 0xF6:
		c = floppy.Cell{B: 0xC2, Mark: true}
	case b == 0xF7:
		c = floppy.Cell{B: byte(f.crc >> 8)}
		f.crcHi = true
	case !f.mfm && (b >= 0xF8 && b <= 0xFB || b == 0xFE):
		c.Mark = true
		f.crc = floppy.CRC16(0xFFFF, b)
	case !f.mfm && b == 0xFC:
		c.Mark = true
	default:
		f.crc = floppy.CRC16(f.crc, b)
	}
	f.lastA1 = c.Mark && c.B == 0xA1
	f.cells = append(f.cells, c)
	f.k++
	// The byte has left the data register: DRQ asks for the next at once,
	// also for F7, whose two CRC bytes give the host two byte times
	// [F WD1772-DS: DRQ when the register moves to the shift register;
	// WD-MAME].
	f.setDRQ(now, true)
	f.s.Schedule(&f.ev, f.at(f.k))
}

// trackEnd: the next index pulse; the written track is read back by the
// drive's electronics into sectors and stored before completion.
func (f *FDC) trackEnd(now sched.Time) {
	f.setDRQ(now, false)
	t, p := floppy.Parse(f.cells, !f.mfm, f.cell())
	d := f.drive
	if d == nil || d.Media() == nil {
		f.fail(now, fmt.Errorf("%s: disk removed during Write Track", f.name))
		return
	}
	c, h := d.Cylinder(), d.Side()
	t.Cyl, t.Head = c, h
	if err := d.Media().WriteTrack(c, h, t, p); err != nil {
		f.fail(now, err)
		return
	}
	f.finish(now)
}
