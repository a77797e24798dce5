package bench

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/roms/tapebench"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// TapeSetup is one run of TAPEBENCH (roms/tapebench): consecutive 8 KB
// blocks written or read on the MCD-403 as fast as the board allows.
type TapeSetup struct {
	Interleave int        // cartridge interleave 1..16
	Burst      int        // bytes per burst 1..256; 0 = byte by byte
	Read       bool       // READ instead of WRITE
	Blocks     int        // blocks to move, >= 2
	Delay      sched.Time // host delay before each block (the program's timer resolution)
	Timeout    int        // scsilib timeout units (~1.5 s); 0 = 3
}

// tapeSymbols are the labels and constants of tapebench.asm the harness uses.
var tapeSymbols = []string{"p_tgt", "p_read", "p_mode", "p_burst", "p_tmo", "p_blk", "p_n", "p_delay",
	"r_err", "r_stage", "r_csb", "r_stat", "r_xfer", "r_done", "r_time", "r_t1", "BUF",
	"TM_UNIT_US", "SE_HANG", "SL_BURST"}

// tapeTick is TAPEBENCH's time unit, from its source.
func tapeTick() (sched.Time, error) {
	r, err := tapebench.Build()
	if err != nil {
		return 0, err
	}
	us, ok := r.Symbols["TM_UNIT_US"]
	if !ok {
		return 0, errors.New("tapebench.asm: symbol TM_UNIT_US is not defined")
	}
	return sched.Time(us) * sched.Microsecond, nil
}

// Validate checks s.
func (s TapeSetup) Validate() error {
	tick, err := tapeTick()
	if err != nil {
		return err
	}
	max := mcd403.DefaultParams().MaxInterleave
	switch {
	case s.Interleave < 1 || s.Interleave > max:
		return fmt.Errorf("tapebench: interleave %d outside 1..%d", s.Interleave, max)
	case s.Burst < 0 || s.Burst > 256:
		return fmt.Errorf("tapebench: burst %d bytes outside 1..256 (0 = byte by byte)", s.Burst)
	case s.Blocks < 2 || s.Blocks > 4848:
		return fmt.Errorf("tapebench: %d blocks, need 2..4848", s.Blocks)
	case s.Delay < 0 || s.Delay/tick > 0xFFFF:
		return fmt.Errorf("tapebench: delay %v outside 0..%v", s.Delay, 0xFFFF*tick)
	case s.Timeout < 0 || s.Timeout > 254:
		return fmt.Errorf("tapebench: timeout %d units outside 0..254", s.Timeout)
	}
	return nil
}

// writeParams fills the program's parameter block, label by label.
func (s TapeSetup) writeParams(r *RAMProgram) {
	r.Put8("p_tgt", TapeID)
	r.Put8("p_read", 0)
	if s.Read {
		r.Put8("p_read", 1)
	}
	r.Put8("p_mode", 0)
	r.Put8("p_burst", 0)
	if s.Burst > 0 {
		r.Put8("p_mode", uint8(r.Const("SL_BURST")))
		r.Put8("p_burst", byte(s.Burst)) // 256 -> 0
	}
	tmo := s.Timeout
	if tmo == 0 {
		tmo = 3
	}
	r.Put8("p_tmo", byte(tmo))
	r.Write("p_blk", []byte{0, 0, 0})
	r.Put16("p_n", uint16(s.Blocks))
	r.Put16("p_delay", uint16(s.Delay/(sched.Time(r.Const("TM_UNIT_US"))*sched.Microsecond)))
}

// TapeResults is TAPEBENCH's result block, read by the program's symbols.
type TapeResults struct {
	Done, Failed bool
	Err          uint8 // SE_* code (SE_STATUS: a status other than GOOD)
	Stage        uint8 // STG_*
	CSB          uint8
	Status       uint8
	Xfer         uint16 // bytes moved in the failing command's data phase
	Blocks       uint16 // blocks completed
	Ticks        uint32 // start -> last status, in TM_UNIT_US
	First        uint32 // start -> first block's status
}

// TapeResult is what one run measured.
type TapeResult struct {
	Interleave  int        `json:"interleave"`
	Burst       int        `json:"burst"` // 0 = byte by byte
	BytesPerSec float64    `json:"bytes_per_sec"`
	Repositions int        `json:"repositions"`
	Hung        bool       `json:"hung"`
	Read        bool       `json:"read"`
	DelayMS     float64    `json:"delay_ms"`
	Blocks      int        `json:"blocks"` // blocks completed
	Failed      string     `json:"failed,omitempty"`
	Elapsed     sched.Time `json:"-"` // program's time over blocks 2..n
	Overwrites  uint64     `json:"-"` // 5380 DACK writes that overwrote a byte
	// LostByte is the index within its block of the first byte lost in the
	// 5380's output latch (the byte waiting there when the next DACK write
	// replaced it); -1 when none was lost.
	LostByte   int          `json:"-"`
	StaleReads uint64       `json:"-"`
	Program    TapeResults  `json:"-"`
	Drive      mcd403.Stats `json:"-"`
	// TStates is what the CPU executed, from reset to the end of the run.
	TStates uint64 `json:"-"`
}

// TapeOptions control how a run is carried out.
type TapeOptions struct {
	// Dir is where the cartridge image is made (it must exist).
	Dir string
	// Drive overrides the drive's parameters (nil = defaults).
	Drive *mcd403.Params
	// Trace, if set, receives the SCSI bus as text (scsi.TextTrace) with
	// the 5380's and the drive's events interleaved.
	Trace io.Writer
	// WaitOnDRQ selects hypothesis B of docs/HARDWARE.md 1.5 (port 28
	// holds WAIT until DRQ) instead of the default A.
	WaitOnDRQ bool
}

// RunTape carries out s on a fresh machine: a cartridge image formatted at
// the interleave asked for (its blocks written first for a read run), the
// drive at SCSI ID TapeID, TAPEBENCH in RAM. The rate is the program's own
// over the blocks after the first (the first includes the start from the
// load point).
func RunTape(s TapeSetup, o TapeOptions) (TapeResult, error) {
	res := TapeResult{Interleave: s.Interleave, Burst: s.Burst, Read: s.Read, LostByte: -1,
		DelayMS: float64(s.Delay) / float64(sched.Millisecond)}
	if err := s.Validate(); err != nil {
		return res, err
	}
	asmProg, err := tapebench.Build()
	if err != nil {
		return res, err
	}
	p := mcd403.DefaultParams()
	if o.Drive != nil {
		p = *o.Drive
	}
	if err := p.Validate(); err != nil {
		return res, err
	}
	path := filepath.Join(o.Dir, fmt.Sprintf("tapebench-k%d-b%d-r%v-d%d.tape", s.Interleave, s.Burst, s.Read, s.Delay/sched.Microsecond))
	if err := mcd403.Create(path, s.Interleave); err != nil {
		return res, err
	}
	if s.Read {
		buf, ok := asmProg.Symbols["BUF"]
		if !ok {
			return res, errors.New("tapebench.asm: symbol BUF is not defined")
		}
		if err := writeTapeBlocks(path, uint16(buf), s.Blocks, p.BlockSize); err != nil {
			return res, err
		}
	}

	cfg := emu.DefaultConfig(nil)
	cfg.SCSIID = HostID
	cfg.WaitOnDRQ = o.WaitOnDRQ
	cfg.SCSI = []scsidev.Spec{{ID: TapeID, Type: "mcd403", Images: []string{path}, Params: p, Scratch: true}}
	prog, err := LoadRAMProgram("tapebench.asm", asmProg, cfg, tapeSymbols...)
	if err != nil {
		return res, err
	}
	defer prog.Close()
	b := prog.Board
	chip, bus := b.NCR5380(), b.SCSIBus()
	drive := b.SCSIDevice(TapeID).(*mcd403.Drive)
	// The first DACK write that finds the output latch still full (the
	// 5380 counts it) replaced a byte the drive had not taken: that byte's
	// index in its block is the drive's count of bytes taken.
	chip.Observe(func(_ sched.Time, a ncr5380.Access) {
		if a.Reg == ncr5380.RegDACK && a.Write && res.LostByte < 0 && chip.Stats.Overwrites > 0 {
			res.LostByte = drive.BytesReceived()
		}
	})
	if o.Trace != nil {
		chip.ObserveEvents(func(now sched.Time, ev string) { traceLine(o.Trace, now, "5380: "+ev) })
		bus.Observe(scsi.NewTextTrace(o.Trace).Change)
		drive.Observe(func(now sched.Time, ev string) { traceLine(o.Trace, now, "mcd403: "+ev) })
	}
	s.writeParams(prog)

	limit := sched.Time(s.Blocks)*(4*sched.Second+s.Delay) + 60*sched.Second
	// No condition: the program's final write stops the machine (see
	// Run).
	err = b.RunFor(limit)
	res.TStates = b.CPU().T()
	if err != nil && !errors.Is(err, emu.ErrHung) {
		return res, err
	}
	r := TapeResults{Done: prog.Done(), Failed: prog.Failed(), Err: prog.U8("r_err"), Stage: prog.U8("r_stage"),
		CSB: prog.U8("r_csb"), Status: prog.U8("r_stat"), Xfer: prog.U16("r_xfer"), Blocks: prog.U16("r_done"),
		Ticks: prog.U32("r_time"), First: prog.U32("r_t1")}
	res.Program = r
	res.Blocks = int(r.Blocks)
	res.Drive = drive.Stats()
	res.Repositions = res.Drive.Repositions
	res.Overwrites = chip.Stats.Overwrites
	res.StaleReads = chip.Stats.StaleReads
	switch {
	case r.Done:
		res.Elapsed = sched.Time(r.Ticks-r.First) * sched.Time(prog.Const("TM_UNIT_US")) * sched.Microsecond
		if res.Elapsed > 0 {
			res.BytesPerSec = float64((s.Blocks-1)*p.BlockSize) / res.Elapsed.Seconds()
		}
	case r.Failed:
		res.Hung = int64(r.Err) == prog.Const("SE_HANG")
		res.Failed = fmt.Sprintf("block %d: error %02Xh at stage %d, status %02Xh, %d bytes moved, bus status %02Xh",
			r.Blocks, r.Err, r.Stage, r.Status, r.Xfer, r.CSB)
	default:
		res.Failed = fmt.Sprintf("no result within %v of simulated time (%d blocks done)", limit, r.Blocks)
	}
	return res, nil
}

// writeTapeBlocks writes blocks 0..n-1 of the cartridge at path with the
// bytes a write run would have left: each byte of the program's buffer at
// address buf is the low and high bytes of its address XORed.
func writeTapeBlocks(path string, buf uint16, n, size int) error {
	tape, err := mcd403.Open(path, false)
	if err != nil {
		return err
	}
	blk := make([]byte, size)
	for i := range blk {
		a := int(buf) + i
		blk[i] = byte(a) ^ byte(a>>8)
	}
	for b := 0; b < n; b++ {
		if err := tape.WriteBlock(b, blk); err != nil {
			tape.Close()
			return err
		}
	}
	return tape.Close()
}

// traceLine writes an event in scsi.TextTrace's time format, so events and
// bus changes read as one time line.
func traceLine(w io.Writer, now sched.Time, ev string) {
	ns := int64(now / sched.Nanosecond)
	fmt.Fprintf(w, "%10d.%03d us  ** %s\n", ns/1000, ns%1000, ev)
}
