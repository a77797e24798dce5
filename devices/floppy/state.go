package floppy

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// DriveState is a drive's complete state for save states. The disk's
// content is the image's (the board checks it is the same file); the
// positions of tracks written by Write Track, which a raw image cannot
// hold, are part of the state.
type DriveState struct {
	Cyl, Side    int
	DirIn        bool
	LastStep     sched.Time
	Motor        bool
	Spinning     bool
	Ref, Angle   sched.Time
	SpunAt       sched.Time
	Ready        bool
	IndexHigh    bool
	HasMedia     bool
	Protected    bool
	Written      map[int]Positions // media track key -> positions
	IndexPending bool              // for checking against the scheduler
}

// State returns the drive's state; looking changes nothing.
func (d *Drive) State() DriveState {
	st := DriveState{Cyl: d.cyl, Side: d.side, DirIn: d.dirIn, LastStep: d.lastStep, Motor: d.motor,
		Spinning: d.spinning, Ref: d.ref, Angle: d.angle, SpunAt: d.spunAt, Ready: d.ready,
		IndexHigh: d.indexHigh, IndexPending: d.indexEv.Pending()}
	if m := d.media; m != nil {
		st.HasMedia, st.Protected = true, m.protected
		st.Written = map[int]Positions{}
		for k, p := range m.pos {
			st.Written[k] = clonePositions(*p)
		}
	}
	return st
}

// SetState puts the drive in st. The disk must already be in the drive
// (or not) as it was; the scheduler restores the drive's events.
func (d *Drive) SetState(st DriveState) error {
	if st.HasMedia != (d.media != nil) {
		return fmt.Errorf("%s: saved with a disk %v, the drive has one %v", d.name, st.HasMedia, d.media != nil)
	}
	if st.Cyl < 0 || st.Cyl > d.p.StopCylinder || st.Side < 0 || st.Side > 1 {
		return fmt.Errorf("%s: saved head at cylinder %d side %d", d.name, st.Cyl, st.Side)
	}
	d.cyl, d.side, d.dirIn, d.lastStep, d.motor = st.Cyl, st.Side, st.DirIn, st.LastStep, st.Motor
	d.spinning, d.ref, d.angle, d.spunAt, d.ready, d.indexHigh = st.Spinning, st.Ref, st.Angle, st.SpunAt, st.Ready, st.IndexHigh
	if m := d.media; m != nil {
		m.protected = st.Protected || m.store.ReadOnly()
		m.pos = map[int]*Positions{}
		for k, p := range st.Written {
			c := clonePositions(p)
			m.pos[k] = &c
		}
	}
	return nil
}

func clonePositions(p Positions) Positions {
	p.IDAt = append([]int(nil), p.IDAt...)
	p.DataAt = append([]int(nil), p.DataAt...)
	return p
}
