package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/lbplus/lbplus/roms/cpmbios"
)

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
