package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/roms/cpmbios"
)

// The hard-disk images our CP/M lives on: an ACB-4000 image (blocks plus
// a FILE.toml sidecar) or a raw image of 512-byte blocks without one (a
// scsihd disk, a dd copy, a BlueSCSI file). Both are opened as a program
// on the board writes them: locked, durable writes.

// openHDFile opens a hard-disk image of either kind. An ACB-4000 image
// opened for writing must be formatted.
func openHDFile(path string, readOnly bool) (*image.File, error) {
	if !image.HasSidecar(path) {
		d, err := scsihd.Open(path, readOnly)
		if err != nil {
			return nil, err
		}
		return d.File(), nil
	}
	var m acb4000.Meta
	f, err := image.Open(path, &m, readOnly)
	if err != nil {
		return nil, err
	}
	if !readOnly && !m.Formatted {
		f.Close()
		return nil, fmt.Errorf("%s: the drive is not formatted; make it with lbplus disk create (without --unformatted)", path)
	}
	return f, nil
}

// isHDImage reports whether path is a hard-disk image for sysgen and the
// cpm commands: one with a sidecar, or a raw one whose block 31 is our
// CP/M configuration (a floppy image never holds it). A file that cannot
// be opened is not one: the floppy path reports why.
func isHDImage(path string) bool {
	if image.HasSidecar(path) {
		return true
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size()%scsihd.BlockSize != 0 || st.Size() < cpmbios.SysBlocks*cpmbios.BlockSize {
		return false
	}
	f, err := image.OpenRaw(path, scsihd.BlockSize, true)
	if err != nil {
		return false
	}
	defer f.Close()
	_, ok, err := cpmbios.ReadHDConfig(f)
	return ok && err == nil
}

// writeDiskdefs prints the cpmtools disk definitions of cfg's partitions
// (docs/diskdefs has those of a full disk): partition k is lbplus-hdk,
// a file system of 4 MB whose first track is its start on the disk
// (boottrk) and whose last is its end (tracks), in 512-byte sectors, 16
// a track, as the BIOS's DPBs say.
func writeDiskdefs(w io.Writer, cfg cpmbios.HDConfig) error {
	var errs []error
	for p := 0; p < cfg.Partitions; p++ {
		_, err := fmt.Fprintf(w, "diskdef lbplus-hd%d\n  seclen %d\n  tracks %d\n  sectrk %d\n  blocksize %d\n  maxdir %d\n  skew 0\n  boottrk %d\n  os 2.2\nend\n\n",
			p, cpmbios.BlockSize, (p+1)*cpmbios.PartTracks, cpmbios.TrackBlocks, cpmbios.BlockBytes, cpmbios.DirEntries, cpmbios.PartitionStart(p))
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
