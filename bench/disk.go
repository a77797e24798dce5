package bench

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// DiskResult is one run of DISKBENCH (roms/diskbench).
type DiskResult struct {
	Program DiskResults
	// Scope is the time on the SCSI bus from the first timed READ's
	// selection to the bus free after the last one.
	Scope sched.Time
	// CTC is the program's own measurement.
	CTC sched.Time
	// EndBus[i] is the bus free after the i-th timed READ, EndCTC[i] the
	// program's CTC stamp after it (relative to the CTC's start; 64 us
	// resolution). Steady takes chunk periods from them.
	EndBus, EndCTC []sched.Time
	// HostTurn is the mean time from a READ's bus free to the next READ's
	// selection: the Z80's share of the turnaround between two READs (its
	// code, the stamp, arbitration). Zero with one READ.
	HostTurn sched.Time
	// Sectors reports every sector the controller moved during the timed
	// READs (for explaining lost revolutions).
	Sectors []acb4000.SectorEvent
	// MedianByte is the median ACK-to-ACK time of DATA IN bytes on the bus:
	// the host's handshake rate (5.25 us for INIR, 15 us byte by byte).
	MedianByte sched.Time
	// Buffer is what the READs left in memory.
	Buffer []byte
	Failed string
	// TStates is what the CPU executed, from reset to the end of the run.
	TStates uint64
}

// Steady is the steady-state time per chunk of readsPerChunk READs: the mean
// period between the ends of the first and the last chunk, on the bus and by
// the CTC. The first chunk is left out because it starts at a random spindle
// angle; from its end on, sequential READs are locked to the rotation, as
// in the story's bulk transfers. It needs at least two chunks.
func (r DiskResult) Steady(readsPerChunk int) (bus, ctc sched.Time, err error) {
	if readsPerChunk < 1 || len(r.EndBus) < 2*readsPerChunk || len(r.EndCTC) != len(r.EndBus) {
		return 0, 0, fmt.Errorf("diskbench: %d READs are fewer than two chunks of %d", len(r.EndBus), readsPerChunk)
	}
	chunks := len(r.EndBus) / readsPerChunk
	a, z := readsPerChunk-1, chunks*readsPerChunk-1
	n := sched.Time(chunks - 1)
	return (r.EndBus[z] - r.EndBus[a]) / n, (r.EndCTC[z] - r.EndCTC[a]) / n, nil
}

// DiskResults is DISKBENCH's result block, read by the program's symbols.
type DiskResults struct {
	Done, Failed bool
	Err          uint8  // SE_* code (SE_STATUS: a status other than GOOD)
	Status       uint8  // SCSI status of the failing READ
	Reads        int    // READs completed
	Ticks        uint32 // TM_UNIT_US units over the READs
}

// diskSymbols are the labels and constants of diskbench.asm the harness
// uses besides the parameters' labels.
var diskSymbols = []string{"r_err", "r_stat", "r_nread", "r_time", "r_tab", "BUF", "TM_UNIT_US"}

// RunDisk boots a fresh machine with the disk image at diskPath on SCSI ID
// p.Target, runs DISKBENCH (roms/diskbench) with p and returns its
// measurements.
func RunDisk(diskPath string, dp acb4000.Params, p diskbench.Params, waitOnDRQ bool) (DiskResult, error) {
	var res DiskResult
	if err := p.Validate(); err != nil {
		return res, err
	}
	asmProg, err := diskbench.Build()
	if err != nil {
		return res, err
	}
	cfg := emu.DefaultConfig(nil)
	cfg.SCSIID = HostID
	cfg.WaitOnDRQ = waitOnDRQ
	cfg.SCSI = []scsidev.Spec{{ID: int(p.Target), Type: "acb4000", Images: []string{diskPath}, Params: dp, Scratch: true}}
	prog, err := LoadRAMProgram("diskbench.asm", asmProg, cfg, needs(diskSymbols, p.Fields())...)
	if err != nil {
		return res, err
	}
	defer prog.Close()
	b := prog.Board
	bus := b.SCSIBus()
	ctl := b.SCSIDevice(int(p.Target)).(*acb4000.Controller)

	// The scope: remember when each selection starts and each bus free.
	var sels, frees []sched.Time
	var last scsi.Line
	var acks []sched.Time
	bus.Observe(func(now sched.Time, lines scsi.Line, _ uint8) {
		if lines&scsi.ACK != 0 && last&scsi.ACK == 0 && scsi.InfoPhase(lines) == scsi.DataIn {
			acks = append(acks, now)
		}
		if lines&scsi.SEL != 0 && last&scsi.SEL == 0 && lines&scsi.BSY == 0 {
			sels = append(sels, now)
		}
		if lines&(scsi.BSY|scsi.SEL) == 0 && last&scsi.BSY != 0 {
			frees = append(frees, now)
		}
		last = lines
	})
	ctl.ObserveSectors(func(e acb4000.SectorEvent) { res.Sectors = append(res.Sectors, e) })

	prog.WriteFields(p.Fields())
	limit := 30 * sched.Second
	_, err = b.RunUntil(prog.Finished, limit)
	res.TStates = b.CPU().T()
	if err != nil {
		return res, err
	}
	res.Program = DiskResults{Done: prog.Done(), Failed: prog.Failed(), Err: prog.U8("r_err"),
		Status: prog.U8("r_stat"), Reads: int(prog.U8("r_nread")), Ticks: prog.U32("r_time")}
	res.Buffer = prog.Read("BUF", min(p.Reads*p.ReadSecs, diskbench.MaxBlocks)*diskbench.BlockSize)
	tick := sched.Time(prog.Const("TM_UNIT_US")) * sched.Microsecond
	res.CTC = sched.Time(res.Program.Ticks) * tick
	switch {
	case res.Program.Done:
	case res.Program.Failed:
		res.Failed = fmt.Sprintf("READ %d failed: %s, status %02Xh", res.Program.Reads+1, errorWord(prog, res.Program.Err), res.Program.Status)
		return res, nil
	default:
		res.Failed = fmt.Sprintf("no result within %v", limit)
		return res, nil
	}
	// The timed READs are the last p.Reads commands on the bus (only TEST
	// UNIT READY comes before them).
	first := len(sels) - p.Reads
	if first < 0 || len(frees) == 0 {
		return res, fmt.Errorf("diskbench: the scope saw %d selections for %d READs", len(sels), p.Reads)
	}
	res.Scope = frees[len(frees)-1] - sels[first]
	if len(frees) < p.Reads {
		return res, fmt.Errorf("diskbench: the scope saw %d bus frees for %d READs", len(frees), p.Reads)
	}
	res.EndBus = frees[len(frees)-p.Reads:]
	if p.Reads > 1 {
		var sum sched.Time
		for i := range p.Reads - 1 {
			sum += sels[first+i+1] - res.EndBus[i]
		}
		res.HostTurn = sum / sched.Time(p.Reads-1)
	}
	stamps := prog.Read("r_tab", 4*p.Reads) // the CTC count after each READ
	for i := range p.Reads {
		res.EndCTC = append(res.EndCTC, sched.Time(binary.LittleEndian.Uint32(stamps[4*i:]))*tick)
	}
	if len(acks) > 1 {
		d := make([]sched.Time, len(acks)-1)
		for i := range d {
			d[i] = acks[i+1] - acks[i]
		}
		slices.Sort(d)
		res.MedianByte = d[len(d)/2]
	}
	return res, nil
}
