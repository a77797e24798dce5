// Package scsihd models a direct-access disk with its SCSI controller on
// board, as the late 1980s made them for small machines (the Seagate
// ST-225N is the one imitated; BlueSCSI and SCSI2SD present the same kind
// of device): a raw image of 512-byte blocks, no sidecar, its capacity the
// image's size (docs/SCSIHD.md).
//
// # Command set (docs/SCSIHD.md, "Commands")
//
// TEST UNIT READY, REZERO UNIT, REQUEST SENSE (18-byte extended sense; an
// allocation length of 0 gives 4 bytes), FORMAT UNIT, READ(6), WRITE(6),
// SEEK(6), INQUIRY, MODE SELECT(6), MODE SENSE(6) (pages 01h, 03h, 04h,
// 3Fh), START STOP UNIT, READ CAPACITY, READ(10), WRITE(10), VERIFY(10).
// Anything else is CHECK CONDITION, ILLEGAL REQUEST (20h); a block past the
// end is ILLEGAL REQUEST (21h) with the block in the information field; a
// LUN other than 0 is ILLEGAL REQUEST (25h). The drive never disconnects.
//
// # Mechanics, all from simulated time
//
// The image is laid out as the imitated drive: 17 sectors a track, 4
// heads, as many cylinders as the image needs, 1:1 interleave with a track
// skew. The spindle turns at 3600 rpm and its angle is a function of time.
// A block is read or written when its slot passes under the head. Seeks
// follow the drive's curve from track-to-track through average to full
// stroke, stretched over the image's cylinders. A buffer of BufferBlocks
// sits between the platter and the bus, so the platter runs ahead of a
// slow host until the buffer is full; after a READ the drive reads ahead
// to the end of the track (a segment), and a READ of blocks already read
// ahead takes them from the buffer. Writes go to the image as their slot
// passes and are synced before GOOD.
//
// Every figure is a named field of Params with its unit and source tag.
package scsihd
