package scsihd

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/image"
)

// BlockSize is the drive's block: 512 bytes [F RETROCMP].
const BlockSize = 512

// MaxBlocks bounds an image: READ CAPACITY reports the last block in 32
// bits [F SCSI-1], so 2^32 blocks (2 TiB) at most.
const MaxBlocks = int64(1) << 32

// Disk is an open raw image: the drive's medium.
type Disk struct {
	f *image.File
}

// Open opens the raw image at path, locked (read-only: shared, and writes
// are refused with DATA PROTECT). Its size must be a whole, non-zero number
// of 512-byte blocks, at most MaxBlocks; an image with a sidecar belongs to
// another model and is refused.
func Open(path string, readOnly bool) (*Disk, error) {
	if image.HasSidecar(path) {
		return nil, fmt.Errorf("%s: has a sidecar %s (an ACB-4000 image?); scsihd takes a raw image of 512-byte blocks", path, image.SidecarPath(path))
	}
	f, err := image.OpenRaw(path, BlockSize, readOnly)
	if err != nil {
		return nil, err
	}
	if f.Blocks() > MaxBlocks {
		f.Close()
		return nil, fmt.Errorf("%s: %d blocks; READ CAPACITY reports at most %d (2 TiB)", path, f.Blocks(), MaxBlocks)
	}
	return &Disk{f: f}, nil
}

// Create makes a new blank raw image of size bytes at path (sparse where
// the file system allows), refusing a size that is not a whole number of
// 512-byte blocks or exceeds MaxBlocks. An existing file is never replaced.
func Create(path string, size int64) error {
	if size <= 0 || size%BlockSize != 0 {
		return fmt.Errorf("%s: size %d bytes: want a whole, non-zero number of %d-byte blocks", path, size, BlockSize)
	}
	if size/BlockSize > MaxBlocks {
		return fmt.Errorf("%s: size %d bytes: at most %d blocks (2 TiB)", path, size, MaxBlocks)
	}
	return image.CreateRaw(path, BlockSize, size)
}

// Blocks is the drive's capacity.
func (d *Disk) Blocks() int64 { return d.f.Blocks() }

// Path is the image file.
func (d *Disk) Path() string { return d.f.Path() }

// File is the open image, for installers that write blocks as a program
// on the board would (locked, durable writes).
func (d *Disk) File() *image.File { return d.f }

// Close syncs and unlocks the image.
func (d *Disk) Close() error { return d.f.Close() }

// PeekBlock implements scsidev.Medium: the drive has LUN 0 only.
func (d *Drive) PeekBlock(lun int, lba int64, buf []byte) error {
	if lun != 0 {
		return fmt.Errorf("%s: no LUN %d", d.disk.Path(), lun)
	}
	return d.disk.f.ReadBlock(lba, buf)
}
