package bench

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/fdbench"
	"github.com/lbplus/lbplus/sched"
)

// FloppyRun is FDBENCH (roms/fdbench) with a script, loaded into a machine
// with floppy drives.
type FloppyRun struct {
	*RAMProgram
}

// FloppyResult is what a script left behind.
type FloppyResult struct {
	Retries int       // sector reads tried again (lost data, RNF, CRC)
	RA      [][6]byte // Read Address results
	Status  []byte    // final status of each FDC command
	Marks   []FloppyMark
	End     sched.Time // when the program wrote its final state
}

// FloppyMark is one Script.Mark as the harness saw it on the printer port.
type FloppyMark struct {
	V       byte
	At      sched.Time
	Retries int // the program's retry count at the marker
}

// floppySymbols are the labels of fdbench.asm the harness uses.
var floppySymbols = []string{"p_script", "r_retries", "r_raptr", "r_stptr", "r_rabuf", "r_status"}

// floppyDataStart is the first RAM page a script's data may use: the
// program, its results and the script lie below (fdbench.asm).
const floppyDataStart = 0x10

// FloppyConfig is the machine the floppy benches and tests run on: one
// 48 tpi drive 0, empty (InsertFloppyDisk puts a disk in).
func FloppyConfig() emu.Config {
	cfg := emu.DefaultConfig(nil)
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi"}}
	return cfg
}

// LoadFloppy builds the machine cfg describes around FDBENCH with a read
// loop of loop T-states a byte, and puts the script and data (page ->
// bytes, from page 10h on) in its RAM.
func LoadFloppy(cfg emu.Config, loop int, s fdbench.Script, data map[byte][]byte) (*FloppyRun, error) {
	res, err := fdbench.Build(loop)
	if err != nil {
		return nil, err
	}
	prog, err := LoadRAMProgram("fdbench.asm", res, cfg, floppySymbols...)
	if err != nil {
		return nil, err
	}
	if end := int(prog.Addr("p_script")) + 4*len(s) + 4; end > floppyDataStart<<8 {
		prog.Close()
		return nil, fmt.Errorf("fdbench: script of %d operations is too long", len(s))
	}
	prog.Write("p_script", s.Bytes())
	for page, d := range data {
		if page < floppyDataStart {
			prog.Close()
			return nil, fmt.Errorf("fdbench: data at page %02Xh would overwrite the program (pages %02Xh and up)", page, floppyDataStart)
		}
		prog.Board.LoadRAM(uint16(page)<<8, d)
	}
	return &FloppyRun{prog}, nil
}

// Finish runs a loaded (or restored) FDBENCH until its script ends or limit
// of simulated time passes, and collects its results.
func (r *FloppyRun) Finish(limit sched.Time) (FloppyResult, error) {
	var res FloppyResult
	b := r.Board
	remove := b.ObservePorts(0x01, 0x01, func(t uint64, port uint16, v uint8, out bool) {
		if out {
			res.Marks = append(res.Marks, FloppyMark{v, sched.Time(t) * sched.TState, int(r.U16("r_retries"))})
		}
	})
	defer remove()
	if _, err := b.RunUntil(r.Finished, b.Now()+limit); err != nil {
		return res, err
	}
	res.End = b.Now()
	switch {
	case r.Failed():
		return res, fmt.Errorf("fdbench: the script has an unknown operation")
	case !r.Done():
		return res, fmt.Errorf("fdbench: script not done within %v", limit)
	}
	res.Retries = int(r.U16("r_retries"))
	for a := r.Addr("r_rabuf"); a+6 <= r.U16("r_raptr"); a += 6 {
		var id [6]byte
		for k := range id {
			id[k] = b.RAM(a + uint16(k))
		}
		res.RA = append(res.RA, id)
	}
	for a := r.Addr("r_status"); a < r.U16("r_stptr"); a++ {
		res.Status = append(res.Status, b.RAM(a))
	}
	return res, nil
}

// Page returns n bytes of RAM from page on.
func (r *FloppyRun) Page(page byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = r.Board.RAM(uint16(page)<<8 + uint16(i))
	}
	return out
}

// RunFloppy runs a script on FloppyConfig's machine with disk in drive 0
// (none: the drive stays empty).
func RunFloppy(disk *fdimage.Disk, protected bool, loop int, s fdbench.Script, data map[byte][]byte, limit sched.Time) (FloppyResult, *FloppyRun, error) {
	r, err := LoadFloppy(FloppyConfig(), loop, s, data)
	if err != nil {
		return FloppyResult{}, nil, err
	}
	if disk != nil {
		if err := r.Board.InsertFloppyDisk(0, "fdbench", disk, protected); err != nil {
			r.Close()
			return FloppyResult{}, nil, err
		}
	}
	res, err := r.Finish(limit)
	return res, r, err
}

// FloppyRow is one `lbplus bench floppy` measurement: reading a whole
// track (sectors 17-26 of an amp2 disk, in order) at a physical interleave
// with a read loop of LoopTStates a byte.
type FloppyRow struct {
	Interleave  int     `json:"interleave"`
	LoopTStates int     `json:"loop_t_states"`
	MsPerTrack  float64 `json:"ms_per_track"`
	// LostDataRetries is the number of sector reads per track that ended
	// with Lost Data (or RNF/CRC) and were tried again.
	LostDataRetries float64 `json:"lost_data_retries"`
	// GaveUp counts sectors still bad after FloppyRetries tries (per track).
	GaveUp float64 `json:"gave_up"`
}

// FloppyRetries is how often the bench's BIOS-like loop retries a sector
// [A] (the Ampro BIOS retries lost data; 4 bounds a hopeless loop).
const FloppyRetries = 4

// floppyTracks: one warm-up read of the track (its start is at a random
// angle), then the steady state over the next ones, as the story's disk
// measurements take it.
const floppyTracks = 3

// Floppy reads track 0 of an amp2 disk laid down at interleave il with a
// read loop of loop T-states a byte, as an Ampro-style BIOS does: Read
// Sector, the polled loop, then the 512 bytes copied with LDIR (deblocking)
// before the next sector.
func Floppy(il, loop int) (FloppyRow, error) {
	row := FloppyRow{Interleave: il, LoopTStates: loop}
	f, _ := fdimage.ParseFormat("amp2")
	f.Interleave = il
	if err := f.Validate(); err != nil {
		return row, err
	}
	var s fdbench.Script
	s.Latch(0x01)
	s.TypeI(0x08, 0) // Restore with h = 1: the motor starts, no wait
	s.Mark(0)
	for t := 1; t <= floppyTracks; t++ {
		for r := 0; r < f.Sectors; r++ {
			s.ReadSector(byte(f.FirstID+r), 0x20, FloppyRetries)
			s.Copy(0x20, byte(0x30+2*r))
		}
		s.Mark(byte(t))
	}
	limit := sched.Time(floppyTracks*f.Sectors*(FloppyRetries+2))*200*sched.Millisecond + sched.Second
	res, run, err := RunFloppy(f.NewDisk(0xE5), false, loop, s, nil, limit)
	if run != nil {
		defer run.Close()
	}
	if err != nil {
		return row, err
	}
	if len(res.Marks) != floppyTracks+1 {
		return row, fmt.Errorf("fdbench: %d markers for %d tracks", len(res.Marks), floppyTracks)
	}
	first, last := res.Marks[1], res.Marks[floppyTracks]
	n := float64(floppyTracks - 1)
	row.MsPerTrack = float64(last.At-first.At) / float64(sched.Millisecond) / n
	row.LostDataRetries = float64(last.Retries-first.Retries) / n
	// Sectors given up: a status with an error bit after its last try.
	bad := 0
	for i := 0; i < len(res.Status); i++ {
		if i >= 1 && res.Status[i]&0x1C != 0 {
			bad++
		}
	}
	// Each given-up sector left FloppyRetries+1 bad statuses.
	row.GaveUp = float64(bad/(FloppyRetries+1)) / float64(floppyTracks)
	return row, nil
}
