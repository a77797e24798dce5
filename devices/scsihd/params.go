package scsihd

import (
	"fmt"

	"github.com/lbplus/lbplus/sched"
)

// Params holds every parameter of the drive model. Units are in the field
// types (sched.Time is picoseconds) or the names; each comment gives the
// source tag: [F] a source states it (its key in docs/HARDWARE.md 10), [D]
// derived, [A] assumption (docs/SCSIHD.md lists them all).
type Params struct {
	// --- Medium and spindle (ST-225N) ---

	// RPM of the spindle: 3600 [F REDHILL: the ST-225 family].
	RPM int
	// SectorsPerTrack: 17 of 512 bytes, MFM, the same on every track (no
	// zones) [F RETROCMP, MICRONICS: 615 x 4 x 17 = 21 411 840 bytes, the
	// ST-225N's capacity].
	SectorsPerTrack int
	// Heads: 4 [F RETROCMP].
	Heads int
	// TrackSkew: slots the first sector of a track lies after the previous
	// track's, so that a head switch does not cost a revolution [A: 1:1
	// drives of the time were formatted with a skew covering the switch].
	TrackSkew int
	// IndexPhase: how long before time 0 the index passed [A] 0.
	IndexPhase sched.Time

	// --- Head positioning (ST-225N, a stepper) ---

	// TrackToTrack: one cylinder including settle, 20 ms [A: the ST-225's
	// published figure as commonly quoted; no Seagate sheet among our
	// sources].
	TrackToTrack sched.Time
	// AverageSeek: a third of the stroke, 65 ms [A: as TrackToTrack; the
	// ST-225 family's "65 ms" average access].
	AverageSeek sched.Time
	// FullStroke: the whole stroke, 150 ms [A: as TrackToTrack].
	FullStroke sched.Time
	// HeadSwitch: another head on the same cylinder, 50 us [A: as the
	// ACB-4000 model's].
	HeadSwitch sched.Time

	// --- Controller on board ---

	// CommandOverhead: CDB received -> first action (seek, buffer check,
	// data request), 1 ms [A: an 8-bit microcontroller's decode and set-up,
	// below the ACB-4000's fitted 1.65 ms].
	CommandOverhead sched.Time
	// StatusOverhead: last data byte -> STATUS, 200 us [A].
	StatusOverhead sched.Time
	// BufferBlocks: blocks the buffer between platter and bus holds, 16 (8
	// KB) [A].
	BufferBlocks int
	// ReadAheadBlocks: after a READ the drive goes on reading into the
	// buffer up to this many blocks, never past the end of the track [A]
	// 16 (the buffer).
	ReadAheadBlocks int
	// SpinUp: START STOP UNIT's start on a stopped drive -> ready, 10 s [A].
	SpinUp sched.Time
	// FormatTrackRevolutions: revolutions FORMAT UNIT spends on a track
	// (write it, verify it) [A] 2.
	FormatTrackRevolutions int

	// --- SCSI side ---

	// ReqAfterAck is the scsi.Timing field for data bytes (ACK released ->
	// next REQ): 500 ns, about 1.5 MB/s with a host that answers at once
	// [A: the ACB-4000's figure, docs/HARDWARE.md 5].
	ReqAfterAck sched.Time
}

// DefaultParams returns the documented defaults.
func DefaultParams() Params {
	return Params{
		RPM:                    3600,
		SectorsPerTrack:        17,
		Heads:                  4,
		TrackSkew:              1,
		TrackToTrack:           20 * sched.Millisecond,
		AverageSeek:            65 * sched.Millisecond,
		FullStroke:             150 * sched.Millisecond,
		HeadSwitch:             50 * sched.Microsecond,
		CommandOverhead:        1 * sched.Millisecond,
		StatusOverhead:         200 * sched.Microsecond,
		BufferBlocks:           16,
		ReadAheadBlocks:        16,
		SpinUp:                 10 * sched.Second,
		FormatTrackRevolutions: 2,
		ReqAfterAck:            500 * sched.Nanosecond,
	}
}

// Validate checks that p describes a drive.
func (p Params) Validate() error {
	switch {
	case p.RPM < 1:
		return fmt.Errorf("RPM %d: want 1 or more", p.RPM)
	case p.SectorsPerTrack < 1 || p.SectorsPerTrack > 255:
		return fmt.Errorf("SectorsPerTrack %d: want 1-255", p.SectorsPerTrack)
	case p.Heads < 1 || p.Heads > 255:
		return fmt.Errorf("Heads %d: want 1-255", p.Heads)
	case p.TrackSkew < 0:
		return fmt.Errorf("TrackSkew %d: want 0 or more", p.TrackSkew)
	case p.TrackToTrack < 0 || p.AverageSeek < p.TrackToTrack || p.FullStroke < p.AverageSeek:
		return fmt.Errorf("seek times %v, %v, %v: want 0 <= TrackToTrack <= AverageSeek <= FullStroke", p.TrackToTrack, p.AverageSeek, p.FullStroke)
	case p.BufferBlocks < 1:
		return fmt.Errorf("BufferBlocks %d: want 1 or more", p.BufferBlocks)
	case p.ReadAheadBlocks < 0 || p.ReadAheadBlocks > p.BufferBlocks:
		return fmt.Errorf("ReadAheadBlocks %d: want 0 to BufferBlocks (%d)", p.ReadAheadBlocks, p.BufferBlocks)
	case p.FormatTrackRevolutions < 1:
		return fmt.Errorf("FormatTrackRevolutions %d: want 1 or more", p.FormatTrackRevolutions)
	}
	return nil
}

// Revolution is one turn of the spindle [D].
func (p Params) Revolution() sched.Time { return sched.Second * 60 / sched.Time(p.RPM) }
