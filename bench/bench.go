// Package bench holds every harness that replays Bill Stubblebine's 1990
// experiments (Usenet, 20 August 1990; docs/HARDWARE.md 8) on the emulated
// Little Board/PLUS: Run (BACKUP, disk to tape), RunDisk (DISKBENCH, the
// interleave table), RunTape (TAPEBENCH), the rows of `bench seed`, the
// sweep. Each builds a fresh machine with emu.New and runs its Z80
// program from RAM through RAMProgram, which talks to the program only
// through its symbols.
//
// Run builds a fresh machine for one Setup: it creates a disk image (ST-125
// geometry, formatted at the setup's interleave) and, unless the run is
// disk-only, a tape image formatted at the tape interleave, in a directory
// of the caller's choice; puts the ACB-4000 at SCSI ID 0 and the MCD-403 at
// ID 1 in the machine's configuration; loads BACKUP (roms/backup) into RAM
// at 0100h with its parameter block filled in; boots through the stub ROM
// (emu.StubROM: map RAM in, jump there); and runs until the program reports
// done or failed, or a simulated-time limit passes. Results come from
// BACKUP's own result block: bytes copied and the elapsed time it measured
// with the CTC, so throughput is what a program on the real machine would
// have printed; for runs of SteadyMinPasses passes or more the reported
// rate leaves out the first pass (the tape's launch from its load point),
// as the story's long backups amortised it. The tape drive's reposition
// count and the board's T-state count are reported beside it.
//
// Nothing here encodes the story's figures except Rows' story column, which
// only feeds the report and the regression test.
//
// # Why the improvements work, in the emulator's terms
//
// BACKUP alternates a disk read and a tape WRITE on one buffer. The tape
// drive acknowledges a block only once it is on tape, and streams only if
// the next whole block reaches its buffer a fixed lead time before that
// block's slot (k slots later at tape interleave k); otherwise it stops,
// backs up and restarts, which costs seconds. So throughput is set by the
// host time from one WRITE's GOOD to the last data byte of the next WRITE,
// against the window the tape interleave leaves.
//
//   - BIOS calls: every 512-byte block is its own READ(6); with the command
//     overhead the next logical sector has passed the head, so each block
//     costs about a revolution, and the block cannot reach the tape in time.
//   - One 8 KB READ (or two 4 KB): the controller streams sectors as the
//     interleave brings them; the host time drops below the 6:1 window with
//     byte-by-byte handshakes (15 us a byte, so the disk needs 9:1).
//   - INIR/OTIR bursts (5.25 us a byte) let 3:1 disk interleave keep up,
//     roughly halving the disk time; two 4 KB READs lose a revolution
//     between them (the next sector passes during the first command's
//     status and the second's set-up), one 8 KB READ does not.
//   - 16-byte OTIR bursts with a DRQ poll between them never outrun the
//     drive's FIFO; 256-byte bursts overwrite the 5380's output latch when
//     the FIFO is full, and the write hangs in DATA OUT.
//
// # Known inaccuracies / assumptions
//
//   - The program is placed in RAM directly instead of being loaded by
//     CP/M; BACKUP does not depend on CP/M [A].
//   - The disk image starts as zeros; data content does not affect timing.
//   - Every run starts with the spindle index at t = 0 and the tape at its
//     load point, so runs are deterministic; the story's single runs sampled
//     a random rotational phase [A].
package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// SCSI IDs on the bus (BACKUP's defaults).
const (
	DiskID = 0
	TapeID = 1
	HostID = 7
)

// Setup is one experiment.
type Setup struct {
	Name           string
	DiskInterleave int // FORMAT UNIT interleave of the disk, 1..16
	TapeInterleave int // tape format interleave; ignored without tape
	Program        backup.Params
}

// Options control how a run is carried out (not what is measured).
type Options struct {
	// Dir is where the images are created; it must exist. Each run makes
	// its own subdirectory and removes it when done.
	Dir string
	// Limit bounds the simulated time of the run (0 = derived from the
	// amount of data: 1 KB/s worst case plus two minutes).
	Limit sched.Time
	// Progress, if set, is called about once a simulated second with the
	// bytes copied so far and the bytes the run will copy.
	Progress func(done, total int64)
	// Console, if set, receives the characters BACKUP prints.
	Console func(b byte)
	// WaitOnDRQ selects hypothesis B of docs/HARDWARE.md 1.5.
	WaitOnDRQ bool
	// DiskPattern fills the blocks the run reads with Pattern before the
	// run, so a test can check the bytes that arrived (Result.Buffer).
	DiskPattern bool
	// OnBus, if set, is called with the SCSI bus before the run starts
	// (tracers, VCD writers, edge counters).
	OnBus func(bus *scsi.Bus)
	// OnStart, if set, is called with the board once the program is in
	// RAM, before the run (the debugger's tests drive the run from here;
	// whatever they leave unfinished the harness runs to the end).
	OnStart func(b *emu.Board)
	// Disk and Tape override the device parameters (nil = defaults).
	Disk *acb4000.Params
	Tape *mcd403.Params
	// SaveAt, if not zero, saves the machine's state at the first
	// instruction boundary at or after this simulated time, into the
	// directory SaveTo with copies of the images as they are then
	// (docs/STATE.md); the run goes on.
	SaveAt sched.Time
	SaveTo string
	// LoadFrom, if set, is a directory SaveTo filled: the run continues
	// from its state on its images instead of starting afresh.
	LoadFrom string
	// DiskImage, if set, is an ST-125 image formatted at the setup's disk
	// interleave (DiskImages) that the run reads in place, opened
	// read-only, instead of formatting 10 MB of its own. BACKUP only
	// reads the disk, and a read-only drive differs only in refusing
	// WRITE and FORMAT UNIT (devices/acb4000), so the run is the same;
	// runs may share the image, also at once. Not with DiskPattern,
	// SaveAt or LoadFrom.
	DiskImage string
}

// DiskImages makes the formatted ST-125 images of Options.DiskImage, one
// per interleave, in a directory, each once (safe for concurrent use).
type DiskImages struct {
	dir  string
	mu   sync.Mutex
	made map[int]string
}

// NewDiskImages keeps its images in dir, which must exist.
func NewDiskImages(dir string) *DiskImages { return &DiskImages{dir: dir, made: map[int]string{}} }

// Path is the image formatted at interleave il, made on first use.
func (d *DiskImages) Path(il int) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p, ok := d.made[il]; ok {
		return p, nil
	}
	p := filepath.Join(d.dir, fmt.Sprintf("st125-hd%d.img", il))
	if err := acb4000.Create(p, acb4000.ST125, true, il); err != nil {
		return "", err
	}
	d.made[il] = p
	return p, nil
}

// StateFile is the name of the state file in Options.SaveTo.
const StateFile = "machine.state"

// Result is what one run measured.
type Result struct {
	Name    string
	Bytes   int64      // bytes BACKUP reports copied
	Elapsed sched.Time // BACKUP's own CTC measurement
	// BytesPerSec is the steady rate: bytes and time after the first pass
	// (see SteadyMinPasses); WholeBytesPerSec is Bytes / Elapsed.
	BytesPerSec      float64
	WholeBytesPerSec float64
	Repositions      int        // tape stop/back-up/restart cycles
	Hung             bool       // a command stopped handshaking (scsilib SE_HANG)
	Failed           string     // non-empty when BACKUP reported a failure or timed out
	BoardTime        sched.Time // simulated time from reset to the end of the run
	TStates          uint64     // CPU T-states executed
	TraceHash        uint64     // the machine's trace hash at the end (emu.Board.TraceHash)
	Program          BackupResults
	Buffer           []byte // BACKUP's buffer at the end: the last pass's data
}

// Pattern is the content DiskPattern gives byte i of disk block lba.
func Pattern(lba, i int) byte { return byte(lba*7+i) ^ byte(lba>>8) ^ byte(i>>8) }

func writePattern(path string, first, blocks int) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	buf := make([]byte, backup.SectorSize)
	for lba := first; lba < first+blocks; lba++ {
		for i := range buf {
			buf[i] = Pattern(lba, i)
		}
		if _, err := f.WriteAt(buf, int64(lba)*backup.SectorSize); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// SteadyMinPasses: runs of at least this many passes report throughput
// without the first pass. The first pass carries one-time costs (the tape
// moving off its load point and launching; the disk's first seek) that the
// story's long backups (10 MB, 1221 blocks) amortised, so a shortened run
// measured whole would understate them by several percent [D].
const SteadyMinPasses = 4

// consoleDrain lets the DART finish the characters still in its transmit
// buffer when the program halts: 3 characters at 9615 baud [D].
const consoleDrain = 5 * sched.Millisecond

// Run carries out one setup on a fresh board.
func Run(s Setup, o Options) (Result, error) {
	res := Result{Name: s.Name}
	p := s.Program
	if err := p.Validate(); err != nil {
		return res, fmt.Errorf("%s: %w", s.Name, err)
	}
	if s.DiskInterleave < 1 || s.DiskInterleave > acb4000.ST125.Sectors-1 {
		return res, fmt.Errorf("%s: disk interleave %d outside 1..%d", s.Name, s.DiskInterleave, acb4000.ST125.Sectors-1)
	}
	if o.Dir == "" {
		return res, errors.New("bench: no directory for the images")
	}
	if o.DiskImage != "" && (o.DiskPattern || o.SaveAt != 0 || o.LoadFrom != "") {
		return res, fmt.Errorf("%s: a shared disk image cannot take a pattern or save or load a state", s.Name)
	}

	// Each run gets its own directory, removed at the end: the images are
	// throwaway and the same setup may run again in the same Dir.
	runDir, err := os.MkdirTemp(o.Dir, safeName(s.Name)+"-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(runDir)
	imgDir := runDir
	if o.LoadFrom != "" {
		imgDir = o.LoadFrom
	}
	base := filepath.Join(imgDir, fmt.Sprintf("%s-hd%d", safeName(s.Name), s.DiskInterleave))
	diskPath := base + ".img"
	if o.DiskImage != "" {
		diskPath = o.DiskImage
	} else if o.LoadFrom != "" {
		// The images are the ones saved with the state.
	} else if err := acb4000.Create(diskPath, acb4000.ST125, true, s.DiskInterleave); err != nil {
		return res, err
	}
	if o.DiskPattern && o.LoadFrom == "" {
		if err := writePattern(diskPath, int(p.StartLBA), p.Passes*p.BufSectors); err != nil {
			return res, err
		}
	}

	cfg := emu.DefaultConfig(nil)
	cfg.SCSIID = HostID
	cfg.WaitOnDRQ = o.WaitOnDRQ
	if o.Console != nil {
		cfg.ConsoleOut = func(_ sched.Time, b byte) { o.Console(b) }
	}
	// The images are the run's (or the evaluator's, read-only) and go
	// when it ends; a saved state copies them mid-run.
	scratch := o.SaveTo == ""
	disk := scsidev.Spec{ID: DiskID, Type: "acb4000", Images: []string{diskPath}, Params: o.Disk, Scratch: scratch}
	if o.DiskImage != "" {
		// The sidecar must say the setup's interleave (scsidev.Spec).
		disk.ReadOnly, disk.Interleave = true, s.DiskInterleave
	}
	cfg.SCSI = []scsidev.Spec{disk}
	if p.TapeID != backup.NoTape {
		tapePath := base + ".tape"
		if o.LoadFrom == "" {
			if err := mcd403.Create(tapePath, s.TapeInterleave); err != nil {
				return res, err
			}
		}
		cfg.SCSI = append(cfg.SCSI, scsidev.Spec{ID: TapeID, Type: "mcd403", Images: []string{tapePath}, Params: o.Tape, Scratch: scratch})
	}
	asmProg, err := backup.Build()
	if err != nil {
		return res, err
	}
	prog, err := LoadRAMProgram("backup.asm", asmProg, cfg, needs(backupSymbols, p.Fields())...)
	if err != nil {
		return res, err
	}
	defer prog.Close()
	b := prog.Board
	tape, _ := b.SCSIDevice(TapeID).(*mcd403.Drive)
	if o.OnBus != nil {
		o.OnBus(b.SCSIBus())
	}
	if o.LoadFrom != "" {
		if err := loadState(b, filepath.Join(o.LoadFrom, StateFile)); err != nil {
			return res, err
		}
	} else {
		prog.WriteFields(p.Fields())
	}
	saveAt := o.SaveAt

	if o.OnStart != nil {
		o.OnStart(b)
	}
	total := p.Bytes()
	limit := o.Limit
	if limit == 0 {
		limit = sched.Time(total/1000+120) * sched.Second
	}
	end := limit // from power-on, also when continuing from a saved state
	for !prog.Finished() && b.Now() < end {
		step := min(sched.Second, end-b.Now())
		if saveAt > b.Now() {
			step = min(step, saveAt-b.Now())
		} else if saveAt > 0 {
			if err := saveState(b, o.SaveTo, cfg); err != nil {
				return res, err
			}
			saveAt = 0
			continue
		}
		// No condition: the program's final write stops the machine
		// (LoadRAMProgram), and a run without one lets the SCSI handshake
		// run at the CPU's I/O accesses (emu.Board.quietMayRunLate).
		if err := b.RunFor(step); err != nil {
			res.Failed = err.Error()
			res.Hung = errors.Is(err, emu.ErrHung)
			break
		}
		if o.Progress != nil {
			o.Progress(int64(prog.U32("r_bytes")), total)
		}
	}
	res.BoardTime = b.Now()
	res.TStates = b.CPU().T()
	res.TraceHash = b.TraceHash()
	if o.Console != nil && res.Failed == "" {
		// Let the report reach the console: the program halts after it.
		b.RunUntil(b.CPU().Halted, 5*sched.Second)
		b.RunFor(consoleDrain)
	}
	r := readBackupResults(prog)
	res.Program = r
	res.Buffer = prog.Read("BUF", p.BufSectors*backup.SectorSize)
	res.Bytes = int64(r.Bytes)
	tick := sched.Time(prog.Const("TM_UNIT_US")) * sched.Microsecond
	res.Elapsed = sched.Time(r.Ticks) * tick
	if res.Elapsed > 0 {
		res.WholeBytesPerSec = float64(res.Bytes) / res.Elapsed.Seconds()
		res.BytesPerSec = res.WholeBytesPerSec
	}
	first := sched.Time(r.First) * tick
	if r.Passes >= SteadyMinPasses && res.Elapsed > first && first > 0 {
		perPass := int64(p.BufSectors) * backup.SectorSize
		res.BytesPerSec = float64(res.Bytes-perPass) / (res.Elapsed - first).Seconds()
	}
	if tape != nil {
		res.Repositions = tape.Repositions()
	}
	switch {
	case res.Failed != "":
	case r.Failed:
		res.Hung = r.Hung
		res.Failed = r.describe(prog)
	case !r.Done:
		res.Failed = fmt.Sprintf("no result within %v of simulated time (%d of %d bytes copied)", limit, r.Bytes, total)
	}
	return res, nil
}

// backupSymbols are the labels and constants of backup.asm (and scsilib)
// the harness uses besides the parameters' labels.
var backupSymbols = []string{"r_err", "r_dev", "r_stage", "r_csb", "r_stat", "r_bytes",
	"r_time", "r_pass", "r_sense", "r_first", "BUF", "TM_UNIT_US", "SE_HANG", "SE_BUSY", "SE_SELTO",
	"SE_PHASE", "SE_STATUS", "STG_SEL", "STG_CMD", "STG_DATA", "STG_STAT", "STG_DONE", "DEV_DISK", "DEV_TAPE"}

// BackupResults is BACKUP's result block, read by the program's symbols.
type BackupResults struct {
	Done, Failed bool
	Hung         bool   // a command stopped handshaking (r_err = SE_HANG)
	Err          uint8  // SE_* code
	Device       uint8  // DEV_DISK or DEV_TAPE
	Stage        uint8  // STG_*
	CSB          uint8  // 5380 current bus status at the failure
	Status       uint8  // SCSI status of the failing command
	Bytes        uint32 // bytes copied
	Ticks        uint32 // elapsed, in TM_UNIT_US
	Passes       uint16
	Sense        []byte
	First        uint32 // Ticks when the first pass ended
}

func readBackupResults(r *RAMProgram) BackupResults {
	return BackupResults{Done: r.Done(), Failed: r.Failed(), Hung: r.Failed() && int64(r.U8("r_err")) == r.Const("SE_HANG"),
		Err: r.U8("r_err"), Device: r.U8("r_dev"), Stage: r.U8("r_stage"), CSB: r.U8("r_csb"), Status: r.U8("r_stat"),
		Bytes: r.U32("r_bytes"), Ticks: r.U32("r_time"), Passes: r.U16("r_pass"), Sense: r.Read("r_sense", 4),
		First: r.U32("r_first")}
}

// describe names a failure in words, by the program's own constants.
func (br BackupResults) describe(r *RAMProgram) string {
	return fmt.Sprintf("%s: %s in %s phase (CSB %02Xh, status %02Xh, sense % X) after %d bytes",
		symbolWord(r, br.Device, map[string]string{"DEV_DISK": "disk", "DEV_TAPE": "tape"}),
		errorWord(r, br.Err), stageWord(r, br.Stage), br.CSB, br.Status, br.Sense, br.Bytes)
}

// symbolWord is the word for the constant among words whose value is v.
func symbolWord(r *RAMProgram, v uint8, words map[string]string) string {
	for sym, w := range words {
		if r.Const(sym) == int64(v) {
			return w
		}
	}
	return fmt.Sprintf("%02Xh", v)
}

func errorWord(r *RAMProgram, v uint8) string {
	return symbolWord(r, v, map[string]string{"SE_BUSY": "bus not free", "SE_SELTO": "selection timeout",
		"SE_PHASE": "unexpected phase", "SE_HANG": "hung (no REQ)", "SE_STATUS": "status not GOOD"})
}

func stageWord(r *RAMProgram, v uint8) string {
	return symbolWord(r, v, map[string]string{"STG_SEL": "selection", "STG_CMD": "command",
		"STG_DATA": "data", "STG_STAT": "status", "STG_DONE": "done"})
}

func safeName(s string) string {
	out := []byte(s)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			out[i] = '_'
		}
	}
	if len(out) == 0 {
		return "run"
	}
	return string(out)
}

// saveState writes the machine's state into dir with copies of its images
// as they are now.
func saveState(b *emu.Board, dir string, cfg emu.Config) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, spec := range cfg.SCSI {
		for _, p := range spec.Images {
			for _, f := range []string{p, image.SidecarPath(p)} {
				if err := copyFile(f, filepath.Join(dir, filepath.Base(f))); err != nil {
					return err
				}
			}
		}
	}
	f, err := os.Create(filepath.Join(dir, StateFile))
	if err != nil {
		return err
	}
	if err := b.SaveState(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func loadState(b *emu.Board, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return b.LoadState(f, path)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
