package emu

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lbplus/lbplus/devices/ctc"
	"github.com/lbplus/lbplus/devices/dart"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/ncr5380"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
	"github.com/lbplus/lbplus/scsi/scsidev"
	"github.com/lbplus/lbplus/z80host"
)

// StateVersion is the version of the save-state format (docs/STATE.md).
// A file of another version is refused.
const StateVersion = 2

// stateMagic opens every save-state file.
const stateMagic = "lbplus machine state\n"

// ImageID identifies an attached image: where it was and what it held.
// Loading a state against an image whose content differs is an error: the
// machine's state (a head's position, a tape's written blocks, a buffer
// the program already read) describes that content.
type ImageID struct {
	SCSIID  int
	LUN     int
	Path    string // absolute, as attached when the state was saved
	Size    int64
	SHA256  string // of the image file
	Sidecar string // SHA-256 of its TOML sidecar; "" when it has none
	Floppy  int    // floppy drive number + 1 (SCSIID and LUN unused); 0 for a SCSI image
}

// MachineID is what a machine must match to take a state: the ROM, the
// jumpers and options, and the SCSI devices by ID and type.
type MachineID struct {
	ROMSHA256    string
	SCSIID       int
	SpareJumpers uint8
	Jumpers      Jumpers
	WaitOnDRQ    bool
	SCSI         []string // "ID=TYPE" in ID order
	Floppies     []string // "fdN=CYLINDERS" of the cabled drives, in drive order
}

// DeviceState is one SCSI device's state in the device's own encoding.
type DeviceState struct {
	ID   int
	Type string
	Data []byte
}

// MachineState is the whole machine at an instruction boundary: the file
// format (gob after the magic line).
type MachineState struct {
	Version int
	Machine MachineID
	Images  []ImageID

	CPU           z80host.State
	RAM           []byte
	Latch         uint8
	PrinterData   uint8
	PrinterStrobe bool
	Hash, IOCount uint64

	Sched   sched.State
	Bus     scsi.BusState
	NCR5380 ncr5380.State
	CTC     ctc.State
	DART    dart.State
	Devices []DeviceState
	Floppy  *FloppyState // the WD1772 and the cabled drives
}

// ErrRunning is returned by SaveState and LoadState inside a run (from an
// observer): the CPU is in the middle of an instruction. Stop the machine
// and save once the run has returned.
var ErrRunning = errors.New("the machine is running: save or load between runs (Stop, then save)")

func (b *Board) machineID() MachineID {
	id := MachineID{ROMSHA256: sum(b.rom), SCSIID: b.cfg.SCSIID, SpareJumpers: b.cfg.SpareJumpers,
		Jumpers: b.cfg.Jumpers, WaitOnDRQ: b.cfg.WaitOnDRQ}
	for i, d := range b.devs {
		if d != nil {
			id.SCSI = append(id.SCSI, fmt.Sprintf("%d=%s", i, b.specOf(i).Type))
		}
	}
	id.Floppies = b.floppyID()
	return id
}

func (b *Board) specOf(id int) scsidev.Spec {
	for _, s := range b.cfg.SCSI {
		if s.ID == id {
			return s
		}
	}
	return scsidev.Spec{}
}

func sum(p []byte) string {
	h := sha256.Sum256(p)
	return hex.EncodeToString(h[:])
}

// fileSum hashes the file at path; "" with no error when it does not exist.
func fileSum(path string) (string, int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// images identifies every image attached to the machine now.
func (b *Board) images() ([]ImageID, error) {
	var ids []ImageID
	for i, d := range b.devs {
		if d == nil {
			continue
		}
		for lun, p := range b.specOf(i).Images {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			h, n, err := fileSum(p)
			if err != nil {
				return nil, err
			}
			if h == "" {
				return nil, fmt.Errorf("%s: image is missing", p)
			}
			side, _, err := fileSum(image.SidecarPath(p))
			if err != nil {
				return nil, err
			}
			ids = append(ids, ImageID{SCSIID: i, LUN: lun, Path: abs, Size: n, SHA256: h, Sidecar: side})
		}
	}
	fl, err := b.floppyImages()
	if err != nil {
		return nil, err
	}
	return append(ids, fl...), nil
}

// State returns the whole machine's state. It fails inside a run, on a
// hung machine, and when a device or a pending event cannot be saved.
func (b *Board) State() (*MachineState, error) {
	if b.running {
		return nil, ErrRunning
	}
	if b.err != nil {
		return nil, fmt.Errorf("cannot save a stopped machine: %w", b.err)
	}
	fs, err := b.floppyState()
	if err != nil {
		return nil, err
	}
	ss, err := b.s.State()
	if err != nil {
		return nil, err
	}
	imgs, err := b.images()
	if err != nil {
		return nil, err
	}
	st := &MachineState{Version: StateVersion, Machine: b.machineID(), Images: imgs,
		CPU: b.cpu.State(), RAM: append([]byte(nil), b.ram[:]...), Latch: b.latch, PrinterData: b.printerData,
		PrinterStrobe: b.printerStrob, Hash: b.trace.Hash, IOCount: b.trace.Count,
		Sched: ss, Bus: b.bus.State(), NCR5380: b.ncr.State(), CTC: b.ctc.State(), DART: b.dart.State(), Floppy: fs}
	for i, d := range b.devs {
		if d == nil {
			continue
		}
		sv, ok := d.(scsidev.Saver)
		if !ok {
			return nil, fmt.Errorf("SCSI ID %d (%s) cannot be saved", i, b.specOf(i).Type)
		}
		data, err := sv.SaveState()
		if err != nil {
			return nil, fmt.Errorf("SCSI ID %d: %w", i, err)
		}
		st.Devices = append(st.Devices, DeviceState{ID: i, Type: b.specOf(i).Type, Data: data})
	}
	return st, nil
}

// SaveState writes the machine's state to w (docs/STATE.md). The machine
// must be between runs: after Run*/Step returned, for instance after an
// observer called Stop.
func (b *Board) SaveState(w io.Writer) error {
	st, err := b.State()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(stateMagic); err != nil {
		return err
	}
	if err := gob.NewEncoder(bw).Encode(st); err != nil {
		return err
	}
	return bw.Flush()
}

// MaxStateBytes bounds a save state file, which is read whole: a machine
// state is its 64 KB of RAM and a few kilobytes of chips and devices.
const MaxStateBytes = 16 << 20

// ReadState reads a state file written by SaveState. name labels errors.
// The file is read whole (at most MaxStateBytes) and the length of every
// gob message in it checked against what is there, so a damaged length
// cannot make the decoder allocate up to a gigabyte for it.
func ReadState(r io.Reader, name string) (*MachineState, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !bytes.HasPrefix(data, []byte(stateMagic)) {
		return nil, fmt.Errorf("%s: not an lbplus save state", name)
	}
	if len(data) > MaxStateBytes {
		return nil, fmt.Errorf("%s: more than %d bytes: not an lbplus save state", name, MaxStateBytes)
	}
	body := data[len(stateMagic):]
	if err := gobLengthsFit(body); err != nil {
		return nil, fmt.Errorf("%s: damaged save state: %v", name, err)
	}
	var st MachineState
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&st); err != nil {
		return nil, fmt.Errorf("%s: damaged save state: %v", name, err)
	}
	if st.Version != StateVersion {
		return nil, fmt.Errorf("%s: save state version %d, this lbplus reads version %d", name, st.Version, StateVersion)
	}
	return &st, nil
}

// gobLengthsFit walks a gob stream's messages (each an unsigned length,
// then that many bytes) and refuses one longer than the bytes left. A gob
// unsigned integer is one byte below 128, else the negated count (1-8) of
// the big-endian bytes that follow.
func gobLengthsFit(b []byte) error {
	for len(b) > 0 {
		var n uint64
		c := b[0]
		b = b[1:]
		if c < 0x80 {
			n = uint64(c)
		} else {
			k := int(-int8(c))
			if k < 1 || k > 8 || k > len(b) {
				return errors.New("bad message length")
			}
			for _, x := range b[:k] {
				n = n<<8 | uint64(x)
			}
			b = b[k:]
		}
		if n > uint64(len(b)) {
			return fmt.Errorf("a message of %d bytes where %d are left", n, len(b))
		}
		b = b[n:]
	}
	return nil
}

// LoadState reads a state from r (see ReadState) and puts the machine in
// it (see SetState).
func (b *Board) LoadState(r io.Reader, name string) error {
	st, err := ReadState(r, name)
	if err != nil {
		return err
	}
	if err := b.SetState(st); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// SetState puts the machine in state st. The machine must be built from
// the same configuration (ROM, jumpers, SCSI devices by ID and type) with
// images of the same content as when the state was saved; the images may
// have moved. Nothing is changed when a check fails.
func (b *Board) SetState(st *MachineState) error {
	if b.running {
		return ErrRunning
	}
	if st.Version != StateVersion {
		return fmt.Errorf("save state version %d, this lbplus reads version %d", st.Version, StateVersion)
	}
	if err := sameMachine(st.Machine, b.machineID()); err != nil {
		return err
	}
	now, err := b.images()
	if err != nil {
		return err
	}
	if err := sameImages(st.Images, now); err != nil {
		return err
	}
	if len(st.RAM) != len(b.ram) {
		return fmt.Errorf("saved RAM of %d bytes", len(st.RAM))
	}
	if len(st.Devices) != len(st.Machine.SCSI) {
		return fmt.Errorf("saved %d SCSI device states for %d devices", len(st.Devices), len(st.Machine.SCSI))
	}
	// The chips check their own states; the first failure leaves the
	// machine half restored, so it is not to be run: report it as hung.
	fail := func(err error) error {
		b.err = fmt.Errorf("save state not loaded: %w", err)
		return err
	}
	if err := b.s.SetState(st.Sched); err != nil {
		return fail(err)
	}
	if err := b.bus.SetState(st.Bus); err != nil {
		return fail(err)
	}
	if err := b.ncr.SetState(st.NCR5380); err != nil {
		return fail(err)
	}
	if err := b.ctc.SetState(st.CTC); err != nil {
		return fail(err)
	}
	if err := b.dart.SetState(st.DART); err != nil {
		return fail(err)
	}
	if err := b.setFloppyState(st.Floppy, st.Latch); err != nil {
		return fail(err)
	}
	for _, ds := range st.Devices {
		d := b.SCSIDevice(ds.ID)
		sv, ok := d.(scsidev.Saver)
		if !ok {
			return fail(fmt.Errorf("SCSI ID %d cannot be restored", ds.ID))
		}
		if err := sv.LoadState(ds.Data); err != nil {
			return fail(fmt.Errorf("SCSI ID %d: %w", ds.ID, err))
		}
	}
	b.cpu.SetState(st.CPU)
	copy(b.ram[:], st.RAM)
	b.writeLatch(st.Latch)
	b.printerData, b.printerStrob = st.PrinterData, st.PrinterStrobe
	b.trace.Hash, b.trace.Count = st.Hash, st.IOCount
	b.err, b.stop = nil, false
	return nil
}

func sameMachine(saved, now MachineID) error {
	switch {
	case saved.ROMSHA256 != now.ROMSHA256:
		return errors.New("saved with another ROM image")
	case saved.SCSIID != now.SCSIID || saved.SpareJumpers != now.SpareJumpers || saved.Jumpers != now.Jumpers:
		return errors.New("saved with other jumpers (J9 SCSI ID, spare jumpers or wires)")
	case saved.WaitOnDRQ != now.WaitOnDRQ:
		return fmt.Errorf("saved with wait_on_drq %v, the machine has %v", saved.WaitOnDRQ, now.WaitOnDRQ)
	case fmt.Sprint(saved.SCSI) != fmt.Sprint(now.SCSI):
		return fmt.Errorf("saved with SCSI devices %v, the machine has %v", saved.SCSI, now.SCSI)
	case fmt.Sprint(saved.Floppies) != fmt.Sprint(now.Floppies):
		return fmt.Errorf("saved with floppy drives %v, the machine has %v", saved.Floppies, now.Floppies)
	}
	return nil
}

func sameImages(saved, now []ImageID) error {
	if len(saved) != len(now) {
		return fmt.Errorf("saved with %d images, the machine has %d", len(saved), len(now))
	}
	for i, s := range saved {
		n := now[i]
		if s.Floppy != n.Floppy {
			return fmt.Errorf("saved image %s is in floppy drive %d, the machine's %s in drive %d (0: SCSI)", s.Path, s.Floppy-1, n.Path, n.Floppy-1)
		}
		if s.Floppy != 0 {
			if s.SHA256 != n.SHA256 || s.Size != n.Size {
				return fmt.Errorf("%s (floppy drive %d) has changed since the state was saved from %s: restore the image as it was then", n.Path, n.Floppy-1, s.Path)
			}
			continue
		}
		if s.SCSIID != n.SCSIID || s.LUN != n.LUN {
			return fmt.Errorf("saved image %s is SCSI ID %d LUN %d, the machine's is ID %d LUN %d", s.Path, s.SCSIID, s.LUN, n.SCSIID, n.LUN)
		}
		if s.SHA256 != n.SHA256 || s.Size != n.Size || s.Sidecar != n.Sidecar {
			return fmt.Errorf("%s (SCSI ID %d LUN %d) has changed since the state was saved from %s: restore the image as it was then", n.Path, n.SCSIID, n.LUN, s.Path)
		}
	}
	return nil
}
