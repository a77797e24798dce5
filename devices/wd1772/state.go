package wd1772

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

// State is the WD1772's complete state for save states and debuggers.
// Which drive is selected is the board's (port 00), not the chip's.
type State struct {
	Cmd, Track, Sector, Data, Status byte
	TypeI, DRQ, INTRQ, Motor         bool
	MFM, Clock16                     bool
	St                               int // internal state (the State signal's values)
	IndexCount, IdleIndex            int
	OnEveryIndex, Immediate          bool
	StepsLeft                        int
	StepIn                           bool
	Rev                              sched.Time
	Cand, K                          int
	Buf                              []byte
	Cells                            []floppy.Cell
	Pos                              *floppy.Positions
	CRC                              uint16
	CRCHi, LastA1                    bool
	MotorBefore                      bool
	SearchState                      int
	DataAt                           int
	PendCmd, PendTrack, PendSector   byte // writes not yet taken (their events are in the scheduler)
}

// State returns the chip's state; looking changes nothing.
func (f *FDC) State() State {
	st := State{Cmd: f.cmd, Track: f.track, Sector: f.sector, Data: f.data, Status: f.status,
		TypeI: f.typeI, DRQ: f.drq, INTRQ: f.intrq, Motor: f.motor, MFM: f.mfm, Clock16: f.clock16,
		St: int(f.st), IndexCount: f.indexCount, IdleIndex: f.idleIndex, OnEveryIndex: f.onEveryIdx,
		Immediate: f.immediate, StepsLeft: f.stepsLeft, StepIn: f.stepIn, Rev: f.rev, Cand: f.cand, K: f.k,
		Buf: append([]byte(nil), f.buf...), Cells: append([]floppy.Cell(nil), f.cells...), CRC: f.crc,
		CRCHi: f.crcHi, LastA1: f.lastA1, MotorBefore: f.motorBefore, SearchState: int(f.searchState), DataAt: f.dataAt,
		PendCmd: f.pendCmd, PendTrack: f.pendTrack, PendSector: f.pendSector}
	if f.pos != nil {
		p := *f.pos
		p.IDAt = append([]int(nil), p.IDAt...)
		p.DataAt = append([]int(nil), p.DataAt...)
		st.Pos = &p
	}
	return st
}

// SetState puts the chip in st with drive d selected (the board's port 00
// says which), without calling its output hooks: the lines they feed are
// restored with the machine. The scheduler restores the chip's event.
func (f *FDC) SetState(st State, d *floppy.Drive) error {
	if st.St < int(sIdle) || st.St > int(sLast) || st.SearchState < 0 || st.SearchState > int(sLast) {
		return fmt.Errorf("%s: saved state %d/%d unknown", f.name, st.St, st.SearchState)
	}
	if st.Cand < 0 || st.K < 0 || (st.Pos != nil && st.Pos.Cell <= 0) {
		return fmt.Errorf("%s: saved transfer position %d/%d out of range", f.name, st.Cand, st.K)
	}
	f.connect(d)
	f.cmd, f.track, f.sector, f.data, f.status = st.Cmd, st.Track, st.Sector, st.Data, st.Status
	f.typeI, f.drq, f.intrq, f.motor, f.mfm, f.clock16 = st.TypeI, st.DRQ, st.INTRQ, st.Motor, st.MFM, st.Clock16
	f.st, f.indexCount, f.idleIndex = state(st.St), st.IndexCount, st.IdleIndex
	f.onEveryIdx, f.immediate, f.stepsLeft, f.stepIn = st.OnEveryIndex, st.Immediate, st.StepsLeft, st.StepIn
	f.rev, f.cand, f.k = st.Rev, st.Cand, st.K
	f.buf = append(f.buf[:0], st.Buf...)
	f.cells = append(f.cells[:0], st.Cells...)
	f.crc, f.crcHi, f.lastA1 = st.CRC, st.CRCHi, st.LastA1
	f.motorBefore, f.searchState, f.dataAt = st.MotorBefore, state(st.SearchState), st.DataAt
	f.pendCmd, f.pendTrack, f.pendSector = st.PendCmd, st.PendTrack, st.PendSector
	f.tr, f.pos = nil, nil
	if st.Pos != nil {
		p := *st.Pos
		f.pos = &p
	}
	if d != nil {
		if t, _ := d.Head(); t != nil {
			f.tr = t
		}
	}
	if f.tr != nil && f.cand >= len(f.tr.Sectors) && f.st >= sIDBytes && f.st <= sWriteEnd {
		return fmt.Errorf("%s: saved sector %d is not on the track", f.name, f.cand)
	}
	return nil
}
