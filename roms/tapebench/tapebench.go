// Package tapebench holds TAPEBENCH, the Z80 program that writes or reads
// consecutive 8 KB blocks on the MCD-403 as fast as the Little Board/PLUS
// allows (optionally with a host delay before each block), and the harness
// that runs it on the emulated board against the tape model: the tape half
// of seed 000's experiments, without the disk.
//
// The program uses roms/scsilib: one READ(6)/WRITE(6) of one block per
// command, byte by byte (a DRQ poll per byte, 15 us) or in INIR/OTIR bursts
// with one DRQ poll per burst; it times itself with the CTC (64 us units)
// and detects a hung transfer with scsilib's poll-count timeout. Run builds
// a fresh board, a cartridge image formatted at the interleave asked for,
// attaches the drive at SCSI ID 1 and reports the rate the program measured
// over the blocks after the first (the first includes the start from the
// load point), the drive's reposition count, and whether it hung.
//
// # Known inaccuracies / assumptions
//
//   - The program sits in RAM at 0100h and is entered through a boot stub,
//     not loaded by CP/M [A].
//   - Reads need written blocks: Run writes them into the image before the
//     board starts (the data a write run would have left).
//   - Every run starts at the load point with the cartridge retensioned, so
//     runs are deterministic.
package tapebench

import (
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/scsilib"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

//go:embed tapebench.asm
var files embed.FS

// FS holds tapebench.asm at its root.
var FS fs.FS = files

// Program is the assembled TAPEBENCH.
type Program struct {
	Org     uint16
	Bytes   []byte
	Params  uint16
	Results uint16
	Buffer  uint16
	Stack   uint16
}

// Build assembles TAPEBENCH with lbplus/asm.
func Build() (*Program, error) {
	r, err := asm.Assemble(asm.UnionFS(FS, scsilib.FS), "tapebench.asm", asm.Options{})
	if err != nil {
		return nil, fmt.Errorf("tapebench.asm: %w", err)
	}
	sym := func(n string) uint16 { return uint16(r.Symbols[n]) }
	p := &Program{Org: r.Org, Bytes: r.Bytes, Params: sym("params"), Results: sym("results"),
		Buffer: sym("BUF"), Stack: sym("stack")}
	if p.Stack > p.Buffer {
		return nil, fmt.Errorf("tapebench.asm: program ends at %04Xh, inside its buffer at %04Xh", p.Stack, p.Buffer)
	}
	return p, nil
}

// TapeID is the drive's SCSI ID; the board is ID 7.
const (
	TapeID = 1
	HostID = 7
	// TickUS is the program's time unit (CTC channel 2, prescaler 256).
	TickUS = 64
	// ParamsSize and ResultsSize are the block layouts of tapebench.asm.
	ParamsSize  = 12
	ResultsSize = 17
)

// Setup is one run.
type Setup struct {
	Interleave int        // cartridge interleave 1..16
	Burst      int        // bytes per burst 1..256; 0 = byte by byte
	Read       bool       // READ instead of WRITE
	Blocks     int        // blocks to move, >= 2
	Delay      sched.Time // host delay before each block (64 us resolution)
	Timeout    int        // scsilib timeout units (~1.5 s); 0 = 3
}

// Validate checks s.
func (s Setup) Validate() error {
	max := mcd403.DefaultParams().MaxInterleave
	switch {
	case s.Interleave < 1 || s.Interleave > max:
		return fmt.Errorf("tapebench: interleave %d outside 1..%d", s.Interleave, max)
	case s.Burst < 0 || s.Burst > 256:
		return fmt.Errorf("tapebench: burst %d bytes outside 1..256 (0 = byte by byte)", s.Burst)
	case s.Blocks < 2 || s.Blocks > 4848:
		return fmt.Errorf("tapebench: %d blocks, need 2..4848", s.Blocks)
	case s.Delay < 0 || s.Delay/(TickUS*sched.Microsecond) > 0xFFFF:
		return fmt.Errorf("tapebench: delay %v outside 0..4.19 s", s.Delay)
	case s.Timeout < 0 || s.Timeout > 254:
		return fmt.Errorf("tapebench: timeout %d units outside 0..254", s.Timeout)
	}
	return nil
}

// Encode is the parameter block for s.
func (s Setup) Encode() []byte {
	b := make([]byte, ParamsSize)
	b[0] = TapeID
	if s.Read {
		b[1] = 1
	}
	if s.Burst > 0 {
		b[2] = 2
		b[3] = byte(s.Burst) // 256 -> 0
	}
	b[4] = byte(s.Timeout)
	if s.Timeout == 0 {
		b[4] = 3
	}
	// b[5:8] first block 0
	binary.LittleEndian.PutUint16(b[8:], uint16(s.Blocks))
	binary.LittleEndian.PutUint16(b[10:], uint16(s.Delay/(TickUS*sched.Microsecond)))
	return b
}

// Results is the program's result block.
type Results struct {
	State  uint8 // 0 loaded, 1 running, 2 done, 3 failed
	Err    uint8 // scsilib SE_* code, 80h = status not GOOD
	Stage  uint8
	CSB    uint8
	Status uint8
	Xfer   uint16
	Done   uint16
	Ticks  uint32 // start -> last status
	First  uint32 // start -> first block's status
}

// DecodeResults reads a result block.
func DecodeResults(b []byte) Results {
	return Results{State: b[0], Err: b[1], Stage: b[2], CSB: b[3], Status: b[4],
		Xfer: binary.LittleEndian.Uint16(b[5:]), Done: binary.LittleEndian.Uint16(b[7:]),
		Ticks: binary.LittleEndian.Uint32(b[9:]), First: binary.LittleEndian.Uint32(b[13:])}
}

// SEHang is scsilib's "target stopped handshaking".
const SEHang = 4

// Result is what one run measured.
type Result struct {
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
	Program    Results      `json:"-"`
	Drive      mcd403.Stats `json:"-"`
}

// Options control how a run is carried out.
type Options struct {
	// Dir is where the cartridge image is made (it must exist).
	Dir string
	// Drive overrides the drive's parameters (nil = defaults).
	Drive *mcd403.Params
	// Trace, if set, receives the SCSI bus as text (scsi.TextTrace) with
	// the 5380's and the drive's events interleaved.
	Trace io.Writer
	// WaitOnDRQ selects hypothesis B of REFERENCE.md 1.5 (port 28 holds
	// WAIT until DRQ) instead of the default A.
	WaitOnDRQ bool
}

// Run carries out s on a fresh board.
func Run(s Setup, o Options) (Result, error) {
	res := Result{Interleave: s.Interleave, Burst: s.Burst, Read: s.Read, LostByte: -1,
		DelayMS: float64(s.Delay) / float64(sched.Millisecond)}
	dir, tp := o.Dir, o.Drive
	if err := s.Validate(); err != nil {
		return res, err
	}
	prog, err := Build()
	if err != nil {
		return res, err
	}
	p := mcd403.DefaultParams()
	if tp != nil {
		p = *tp
	}
	if err := p.Validate(); err != nil {
		return res, err
	}
	path := filepath.Join(dir, fmt.Sprintf("tapebench-k%d-b%d-r%v-d%d.tape", s.Interleave, s.Burst, s.Read, s.Delay/sched.Microsecond))
	if err := mcd403.Create(path, s.Interleave); err != nil {
		return res, err
	}
	if s.Read {
		if err := writeBlocks(path, prog.Buffer, s.Blocks, p.BlockSize); err != nil {
			return res, err
		}
	}

	cfg := emu.DefaultConfig(emu.StubROM(0x0100))
	cfg.ROMName = "tapebench boot stub"
	cfg.SCSIID = HostID
	cfg.WaitOnDRQ = o.WaitOnDRQ
	cfg.SCSI = []scsidev.Spec{{ID: TapeID, Type: "mcd403", Images: []string{path}, Params: p}}
	b, err := emu.New(cfg)
	if err != nil {
		return res, err
	}
	defer b.Close()
	chip, bus := b.NCR5380(), b.SCSIBus()
	drive := b.SCSIDevice(TapeID).(*mcd403.Drive)
	chip.Trace = func(now sched.Time, ev string) {
		if ev == "DACK write overwrote ODR" && res.LostByte < 0 {
			res.LostByte = drive.BytesReceived()
		}
		if o.Trace != nil {
			traceLine(o.Trace, now, "5380: "+ev)
		}
	}
	if o.Trace != nil {
		bus.Observe(scsi.NewTextTrace(o.Trace).Change)
		drive.Observe(func(now sched.Time, ev string) { traceLine(o.Trace, now, "mcd403: "+ev) })
	}
	b.LoadRAM(0, emu.Stub(0x0100))
	b.LoadRAM(prog.Org, prog.Bytes)
	b.LoadRAM(prog.Params, s.Encode())

	results := func() Results {
		buf := make([]byte, ResultsSize)
		for i := range buf {
			buf[i] = b.RAM(prog.Results + uint16(i))
		}
		return DecodeResults(buf)
	}
	finished := func() bool { return b.RAM(prog.Results) >= 2 }
	limit := sched.Time(s.Blocks)*(4*sched.Second+s.Delay) + 60*sched.Second
	if _, err := b.RunUntil(finished, limit); err != nil && !errors.Is(err, emu.ErrHung) {
		return res, err
	}
	r := results()
	res.Program = r
	res.Blocks = int(r.Done)
	res.Drive = drive.Stats()
	res.Repositions = res.Drive.Repositions
	res.Overwrites = chip.Stats.Overwrites
	res.StaleReads = chip.Stats.StaleReads
	switch r.State {
	case 2:
		res.Elapsed = sched.Time(r.Ticks-r.First) * TickUS * sched.Microsecond
		if res.Elapsed > 0 {
			res.BytesPerSec = float64((s.Blocks-1)*p.BlockSize) / res.Elapsed.Seconds()
		}
	case 3:
		res.Hung = r.Err == SEHang
		res.Failed = fmt.Sprintf("block %d: error %02Xh at stage %d, status %02Xh, %d bytes moved, bus status %02Xh",
			r.Done, r.Err, r.Stage, r.Status, r.Xfer, r.CSB)
	default:
		res.Failed = fmt.Sprintf("no result within %v of simulated time (%d blocks done)", limit, r.Done)
	}
	return res, nil
}

// writeBlocks writes blocks 0..n-1 of the cartridge at path with the bytes
// a write run would have left: each byte of the buffer at address buf is
// the low and high bytes of its address XORed.
func writeBlocks(path string, buf uint16, n, size int) error {
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
