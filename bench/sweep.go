package bench

import (
	"github.com/lbplus/lbplus/roms/backup"
)

// Sweep runs the dd-style disk read sweep: for each READ size in
// SweepSectors and each handshake, a disk-only BACKUP run reading about
// totalBlocks blocks at SweepInterleave. Throughput is whole-run (every READ
// pays the same command overhead; there is no tape to launch). Progress, if set, is called after
// each point with the points done and the total.
func Sweep(o Options, totalBlocks int, progress func(done, total int)) ([]SweepPoint, error) {
	var pts []SweepPoint
	total := 2 * len(SweepSectors)
	for _, mode := range []backup.Handshake{backup.Byte, backup.Burst} {
		for _, n := range SweepSectors {
			s := SweepSetup(n, mode, totalBlocks)
			r, err := Run(s, o)
			if err != nil {
				return pts, err
			}
			pt := SweepPoint{Sectors: n, Handshake: "byte", BytesPerSec: r.WholeBytesPerSec, Failed: r.Failed}
			if mode == backup.Burst {
				pt.Handshake = "burst"
			}
			if reads := r.Bytes / int64(n*backup.SectorSize); reads > 0 {
				pt.MsPerRead = r.Elapsed.Seconds() * 1000 / float64(reads)
			}
			pts = append(pts, pt)
			if progress != nil {
				progress(len(pts), total)
			}
		}
	}
	return pts, nil
}

// RunRows runs rows one after the other on fresh boards.
func RunRows(rows []Row, o Options, progress func(row int, done, total int64)) ([]RowResult, error) {
	var out []RowResult
	for i, row := range rows {
		oo := o
		if progress != nil {
			oo.Progress = func(done, total int64) { progress(i, done, total) }
		}
		r, err := Run(row.Setup, oo)
		if err != nil {
			return out, err
		}
		out = append(out, RowResult{Row: row, Result: r})
	}
	return out, nil
}
