// Package floppy models 5.25" floppy drives and the media in them, as the
// Ampro Little Board/PLUS sees them through its WD1772: a spindle at 300 rpm
// whose angle is a function of simulated time (never ticked), the index
// pulse, a head stepper with its limits, side select, write protect, READY,
// and each track laid out byte by byte as the IBM MFM/FM format lays it, so
// that ID order, rotational latency and the cost of interleave follow from
// where each field lies under the head (docs/FLOPPY.md).
//
// A Drive holds at most one Media. A Media wraps a Store (an open
// fdimage.Image, or a disk kept in memory) and the byte position of every
// field of every track: the standard layout for tracks read from an image,
// the written positions for tracks formatted by Write Track.
//
// Known inaccuracies / assumptions (docs/FLOPPY.md):
//   - The spindle is at full speed the moment the motor turns on and stops
//     dead when it turns off; the disk keeps its angle while stopped.
//   - Bits are whole bytes: a track is a sequence of byte cells of the
//     density and data rate it was written with; reading it with another
//     density or FDC clock finds no address marks.
//   - READY is asserted from the second index pulse after the motor starts
//     with a disk in the drive.
package floppy
