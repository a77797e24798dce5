package emu

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// scsiTypes is the registry of SCSI target models a machine can hold, by
// the name machine files and `--scsi ID=TYPE:FILE` use. A new model is its
// package plus one line here.
var scsiTypes = map[string]scsidev.Type{
	acb4000.Type.Name: acb4000.Type,
	mcd403.Type.Name:  mcd403.Type,
	scsihd.Type.Name:  scsihd.Type,
}

// SCSITypes lists the registered SCSI device type names, sorted.
func SCSITypes() []string {
	names := make([]string, 0, len(scsiTypes))
	for n := range scsiTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SCSIType returns the registered type called name.
func SCSIType(name string) (scsidev.Type, bool) {
	t, ok := scsiTypes[name]
	return t, ok
}

// SCSIKindOf returns the kind (disk or tape) of the registered type called
// name; ok is false for a name not registered.
func SCSIKindOf(name string) (k scsidev.Kind, ok bool) {
	t, ok := scsiTypes[name]
	return t.Kind, ok
}

// CheckSCSI opens s's images read-only as its type would, on a bus of its
// own, and closes them again: what a program does to refuse bad input
// before it makes anything. Nothing is written.
func CheckSCSI(s scsidev.Spec) error {
	t, ok := scsiTypes[s.Type]
	if !ok {
		return fmt.Errorf("SCSI ID %d: unknown device type %q (known: %s)", s.ID, s.Type, strings.Join(SCSITypes(), ", "))
	}
	s.ReadOnly = true
	dev, err := t.Attach(scsi.NewBus(sched.New()), s)
	if err != nil {
		return err
	}
	return dev.Close()
}

// Config is the whole machine: the board's ROM and jumpers, its options,
// the floppy drives and the SCSI devices on its bus. The serializable part
// is the TOML machine file (ReadMachineFile); the callbacks are for the
// program that runs the machine.
type Config struct {
	// ROMFile is the EPROM image's path in a machine file; ReadMachineFile
	// loads it into ROM. Empty: the caller supplies ROM (the CLI's
	// built-in monitor).
	ROMFile string `toml:"rom"`
	// ROM is the EPROM image: 4, 8, 16 or 32 KB.
	ROM []byte `toml:"-"`
	// ROMName names the image in error messages (a file name).
	ROMName string `toml:"-"`
	// SCSIID is the initiator's SCSI ID jumpered on J9 (0-7), read on port
	// 29 bits 0-2. MAME's default is 7.
	SCSIID int `toml:"scsi_id"`
	// SpareJumpers is bits 3-7 of port 29 (J9 pin pairs, 1 = open).
	SpareJumpers uint8 `toml:"spare_jumpers"`
	// Jumpers are the optional wires of the board.
	Jumpers Jumpers `toml:"jumpers"`
	// WaitOnDRQ selects hypothesis B of docs/HARDWARE.md 1.5: port 28 accesses
	// hold WAIT until the 5380 raises DRQ. Default false (hypothesis A).
	WaitOnDRQ bool `toml:"wait_on_drq"`
	// MaxWait bounds one WAIT (0 = DefaultMaxWait).
	MaxWait sched.Time `toml:"-"`
	// Console is where the front end puts DART channel A ("stdio" or
	// "tcp:PORT"); the board itself only sees ConsoleOut and ConsoleInput.
	Console string `toml:"console"`
	// Serial is where the front end puts DART channel B: "" (nothing),
	// "pty", "tcp:PORT", "tcp:HOST:PORT" or a file that takes what the
	// board sends (docs/CPM.md, Serial port and printer).
	Serial string `toml:"serial"`
	// Printer is the file the front end's printer prints to ("" = no
	// printer on the parallel port).
	Printer string `toml:"printer"`
	// Floppies are the drives on the floppy connector (select lines 0-3).
	Floppies []Floppy `toml:"floppy"`
	// SCSI are the targets on the board's SCSI bus, by ID.
	SCSI []scsidev.Spec `toml:"scsi"`
	// ConsoleOut receives each character DART channel A transmits, when its
	// stop bit ends. SerialBOut does the same for channel B. Either may be nil.
	ConsoleOut func(now sched.Time, b byte) `toml:"-"`
	SerialBOut func(now sched.Time, b byte) `toml:"-"`
	// PrinterOut, when set, is a printer on the parallel port: it receives
	// each byte the board strobes into it (board.go, the printer).
	PrinterOut func(now sched.Time, b byte) `toml:"-"`
}

// Jumpers are the board's optional wires, all open by default as in MAME
// [F MAME-ampro, docs/HARDWARE.md 1.4].
type Jumpers struct {
	// IRQToTRG2 (JMP3) routes the 5380's IRQ to CTC CLK/TRG2.
	IRQToTRG2 bool `toml:"ncr_irq_to_ctc_trg2"`
	// DRQToDCDA (JMP8) routes the 5380's DRQ to the DART's DCDA input,
	// replacing the terminal's DCD.
	DRQToDCDA bool `toml:"ncr_drq_to_dart_dcda"`
	// FDCIntrqToTRG3 routes the WD1772's INTRQ to CTC CLK/TRG3.
	FDCIntrqToTRG3 bool `toml:"fdc_intrq_to_ctc_trg3"`
	// FDCDrqToRIA routes the WD1772's DRQ to the DART's RIA input.
	FDCDrqToRIA bool `toml:"fdc_drq_to_dart_ria"`
	// TO2ToTRG3 feeds CTC ZC/TO2 to CLK/TRG3, cascading channels 2 and 3
	// into one long timer (later Ampro BIOSes use it).
	TO2ToTRG3 bool `toml:"ctc_to2_to_trg3"`
}

// Floppy is one drive on the floppy connector.
type Floppy struct {
	// Drive is its select line, 0-3.
	Drive int `toml:"drive"`
	// Type names the drive model.
	Type string `toml:"type"`
	// Image is the diskette image in the drive; empty = no diskette.
	Image    string `toml:"image"`
	ReadOnly bool   `toml:"read_only"`
	// Format names a raw image's format (amp1-amp4 or CxHxSxSIZE) when its
	// size does not tell (docs/FLOPPY.md).
	Format string `toml:"format"`
	// Convert, for a Teledisk Image (never written), names a new .imd the
	// image is converted to and mounted as, writable (fdimage.Options).
	Convert string `toml:"convert"`
}

// DefaultConfig is a board with rom, the initiator at SCSI ID 7, the spare
// jumpers open (port 29 reads FFh), hypothesis A and nothing on the SCSI
// bus but the 5380.
func DefaultConfig(rom []byte) Config {
	return Config{ROM: rom, ROMName: "ROM image", SCSIID: 7, SpareJumpers: 0xF8}
}

// ReadMachineFile reads a TOML machine file over DefaultConfig. Paths in it
// (rom, images) are relative to the file's directory. Unknown keys are
// errors, so a misspelt jumper is not silently ignored.
func ReadMachineFile(path string) (Config, error) {
	cfg := DefaultConfig(nil)
	text, err := readRegular(path, maxMachineFile, "machine file")
	if err != nil {
		return cfg, err
	}
	md, err := toml.Decode(string(text), &cfg)
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return cfg, fmt.Errorf("%s: unknown key %s", path, strings.Join(keys, ", "))
	}
	dir := filepath.Dir(path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	if cfg.ROMFile != "" {
		cfg.ROMFile = rel(cfg.ROMFile)
		if cfg.ROM, err = ReadROMFile(cfg.ROMFile); err != nil {
			return cfg, err
		}
		cfg.ROMName = cfg.ROMFile
	}
	for i := range cfg.SCSI {
		for j, p := range cfg.SCSI[i].Images {
			cfg.SCSI[i].Images[j] = rel(p)
		}
	}
	for i := range cfg.Floppies {
		cfg.Floppies[i].Image = rel(cfg.Floppies[i].Image)
	}
	cfg.Printer = rel(cfg.Printer)
	if cfg.Serial != "pty" && !strings.HasPrefix(cfg.Serial, "tcp:") {
		cfg.Serial = rel(cfg.Serial) // a file
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Validate checks what can be checked without opening anything: IDs,
// device types, the ROM size when a ROM is given.
func (c *Config) Validate() error {
	if c.SCSIID < 0 || c.SCSIID > 7 {
		return fmt.Errorf("SCSI ID %d: the J9 jumpers select 0-7", c.SCSIID)
	}
	if c.Jumpers.FDCIntrqToTRG3 && c.Jumpers.TO2ToTRG3 {
		return errors.New("jumpers fdc_intrq_to_ctc_trg3 and ctc_to2_to_trg3 both drive CTC CLK/TRG3: fit one")
	}
	var used [8]bool
	used[c.SCSIID] = true
	for _, d := range c.SCSI {
		if d.ID < 0 || d.ID > 7 {
			return fmt.Errorf("SCSI device %s: ID %d outside 0-7", d.Type, d.ID)
		}
		if used[d.ID] {
			if d.ID == c.SCSIID {
				return fmt.Errorf("SCSI ID %d (%s) is the board's own ID", d.ID, d.Type)
			}
			return fmt.Errorf("SCSI ID %d is given twice", d.ID)
		}
		used[d.ID] = true
		if _, ok := scsiTypes[d.Type]; !ok {
			return fmt.Errorf("SCSI ID %d: unknown device type %q (known: %s)", d.ID, d.Type, strings.Join(SCSITypes(), ", "))
		}
		if d.Interleave < 0 {
			return fmt.Errorf("SCSI ID %d (%s): interleave %d: want 1 (1:1) or more", d.ID, d.Type, d.Interleave)
		}
	}
	var drives [4]bool
	for _, f := range c.Floppies {
		if f.Drive < 0 || f.Drive > 3 {
			return fmt.Errorf("floppy drive %d: the board selects drives 0-3", f.Drive)
		}
		if drives[f.Drive] {
			return fmt.Errorf("floppy drive %d is given twice", f.Drive)
		}
		drives[f.Drive] = true
	}
	return nil
}

// ReadROMFile reads a ROM image and checks its size.
func ReadROMFile(path string) ([]byte, error) {
	b, err := readRegular(path, 1<<20, "ROM image") // checkROM names the sizes
	if err != nil {
		return nil, err
	}
	if err := checkROM(path, b); err != nil {
		return nil, err
	}
	return b, nil
}

// maxMachineFile bounds a machine file: a few hundred bytes in practice.
const maxMachineFile = 1 << 20

// readRegular reads a regular file of at most limit bytes. A named pipe
// would block until a writer comes and /dev/zero never ends, so anything
// but a regular file is refused before it is opened; a longer file is
// refused after limit+1 bytes.
func readRegular(path string, limit int64, what string) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	case st.IsDir():
		return nil, fmt.Errorf("%s %s: is a directory", what, path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s %s: %s, not a regular file", what, path, image.FileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s %s: larger than %d bytes", what, path, limit)
	}
	return b, nil
}

func checkROM(name string, rom []byte) error {
	if slices.Contains(romSizes, len(rom)) {
		return nil
	}
	return fmt.Errorf("%s: ROM image is %d bytes; the board takes 4, 8, 16 or 32 KB (4096, 8192, 16384 or 32768 bytes)", name, len(rom))
}
