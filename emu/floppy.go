package emu

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"strings"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/devices/wd1772"
	"github.com/lbplus/lbplus/sched"
)

// Floppy drive types a machine file names (docs/FLOPPY.md).
var floppyTypes = map[string]int{
	"48tpi": 40, // 5.25" 40-cylinder double-sided (amp1, amp2)
	"96tpi": 80, // 5.25" or 3.5" 80-cylinder double-sided (amp3, amp4)
}

// FloppyTypes lists the drive type names.
func FloppyTypes() []string { return []string{"48tpi", "96tpi"} }

// floppyBoard is the WD1772, its drives and their images.
type floppyBoard struct {
	fdc    *wd1772.FDC
	drives [4]*floppy.Drive
	images [4]*fdimage.Image
	sel    *floppy.Drive
}

// buildFloppy fits the WD1772 behind C0-C7 and the drives Config.Floppies
// names, wired as the board wires them [F MAME-ampro, docs/HARDWARE.md 1.3-1.4]:
// port 00 selects the drive, side, density and FDC clock; the chip's motor
// output drives every drive's motor line [A]; the selected drive's READY
// goes to DART DCDB; INTRQ and DRQ go through the jumpers (FDCINTRQ,
// FDCDRQ). The WD1772 is soldered on every Little Board/PLUS [F
// MAME-ampro, docs/HARDWARE.md 1.3]; what a configuration chooses is which
// drives are cabled. An empty drive gives the chip no index pulses and no
// READY, a drive that is not cabled no TR00 either, so a boot ROM's floppy
// attempt runs into its own timeout before it tries SCSI (docs/FLOPPY.md,
// "No drive, no disk").
func (b *Board) buildFloppy() error {
	fb := &floppyBoard{}
	fb.fdc = wd1772.New(b.s, "fdc", wd1772.DefaultParams())
	fb.fdc.OnMotor = func(now sched.Time, on bool) {
		for _, d := range fb.drives {
			if d != nil {
				d.SetMotor(now, on)
			}
		}
	}
	fb.fdc.OnINTRQ = func(_ sched.Time, v bool) { b.FDCINTRQ(v) }
	fb.fdc.OnDRQ = func(_ sched.Time, v bool) { b.FDCDRQ(v) }
	fb.fdc.OnError = b.Fail
	b.floppy = fb
	for _, f := range b.cfg.Floppies {
		cyls := 0
		if f.Type != "" {
			var ok bool
			if cyls, ok = floppyTypes[f.Type]; !ok {
				return fmt.Errorf("floppy drive %d: unknown type %q (known: %s)", f.Drive, f.Type, strings.Join(FloppyTypes(), ", "))
			}
		}
		var im *fdimage.Image
		if f.Image != "" {
			var err error
			if im, err = fdimage.Open(f.Image, fdimage.Options{Format: f.Format, ReadOnly: f.ReadOnly, Convert: f.Convert}); err != nil {
				return fmt.Errorf("floppy drive %d: %w", f.Drive, err)
			}
			fb.images[f.Drive] = im
		}
		if cyls == 0 { // by the disk: more than 42 cylinders needs 96 tpi [A]
			cyls = 40
			if im != nil && im.Disk().Cylinders > 42 {
				cyls = 80
			}
		}
		d := floppy.NewDrive(b.s, fmt.Sprintf("fd%d", f.Drive), floppy.DefaultParams(cyls))
		d.Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) {
			if sig == floppy.Ready && d == fb.sel {
				b.dart.Channel(1).SetDCD(v != 0)
			}
		})
		fb.drives[f.Drive] = d
		if im != nil {
			d.Insert(b.s.Now(), floppy.NewMedia(im.Path(), im, false))
		}
	}
	b.fdc = fb.fdc
	return nil
}

// latchFloppy applies port 00's floppy bits: one-hot select (the lowest bit
// wins when several are set [A]), side 1, /DDEN and the 16 MHz clock.
func (b *Board) latchFloppy(v uint8) {
	fb := b.floppy
	now := b.s.Now()
	var d *floppy.Drive
	if sel := v & LatchDriveMask; sel != 0 {
		d = fb.drives[bits.TrailingZeros8(sel)]
	}
	side := 0
	if v&LatchSide1 != 0 {
		side = 1
	}
	for _, x := range fb.drives {
		if x != nil {
			x.SetSide(now, side)
		}
	}
	fb.fdc.SetDensity(now, v&LatchSingleDen == 0)
	fb.fdc.SetClock16(now, v&LatchFDC16MHz != 0)
	fb.fdc.Select(now, d)
	fb.sel = d
	b.dart.Channel(1).SetDCD(d != nil && d.Ready())
}

// FDC returns the board's WD1772.
func (b *Board) FDC() *wd1772.FDC { return b.floppy.fdc }

// FloppyDrive returns drive n (0-3), or nil if it is not cabled.
func (b *Board) FloppyDrive(n int) *floppy.Drive {
	if n < 0 || n > 3 {
		return nil
	}
	return b.floppy.drives[n]
}

// InsertFloppy puts the image at path in drive n, ejecting what was there
// (a disk change while running).
func (b *Board) InsertFloppy(n int, path string, o fdimage.Options) error {
	d := b.FloppyDrive(n)
	if d == nil {
		return fmt.Errorf("floppy drive %d is not cabled", n)
	}
	im, err := fdimage.Open(path, o)
	if err != nil {
		return err
	}
	if err := b.EjectFloppy(n); err != nil {
		im.Close()
		return err
	}
	b.floppy.images[n] = im
	d.Insert(b.s.Now(), floppy.NewMedia(im.Path(), im, false))
	return nil
}

// EjectFloppy takes the disk out of drive n and closes its image.
func (b *Board) EjectFloppy(n int) error {
	d := b.FloppyDrive(n)
	if d == nil {
		return fmt.Errorf("floppy drive %d is not cabled", n)
	}
	d.Eject(b.s.Now())
	im := b.floppy.images[n]
	b.floppy.images[n] = nil
	if im != nil {
		return im.Close()
	}
	return nil
}

// InsertFloppyDisk puts a disk kept in memory in drive n (tests, benches).
func (b *Board) InsertFloppyDisk(n int, name string, d *fdimage.Disk, protected bool) error {
	dr := b.FloppyDrive(n)
	if dr == nil {
		return fmt.Errorf("floppy drive %d is not cabled", n)
	}
	if err := b.EjectFloppy(n); err != nil {
		return err
	}
	dr.Insert(b.s.Now(), floppy.NewMedia(name, &floppy.MemoryStore{D: d}, protected))
	return nil
}

func (b *Board) closeFloppy() error {
	var first error
	for i, im := range b.floppy.images {
		if im != nil {
			if err := im.Close(); err != nil && first == nil {
				first = err
			}
			b.floppy.images[i] = nil
		}
	}
	return first
}

// FloppyState is the WD1772's and the drives' part of a save state.
type FloppyState struct {
	FDC    wd1772.State
	Drives []FloppyDriveState // the cabled drives
}

// FloppyDriveState is one cabled drive's state.
type FloppyDriveState struct {
	N     int
	State floppy.DriveState
}

// floppyID names the cabled drives for MachineID.
func (b *Board) floppyID() []string {
	var out []string
	for n, d := range b.floppy.drives {
		if d != nil {
			out = append(out, fmt.Sprintf("fd%d=%d", n, d.Params().Cylinders))
		}
	}
	return out
}

// floppyImages identifies the images in the drives. A disk that lives only
// in memory cannot be saved.
func (b *Board) floppyImages() ([]ImageID, error) {
	var ids []ImageID
	for n, d := range b.floppy.drives {
		if d == nil || d.Media() == nil {
			continue
		}
		im := b.floppy.images[n]
		if im == nil {
			return nil, fmt.Errorf("floppy drive %d holds a disk that is not an image file: it cannot be saved", n)
		}
		abs, err := filepath.Abs(im.Path())
		if err != nil {
			return nil, err
		}
		h, size, err := fileSum(im.Path())
		if err != nil {
			return nil, err
		}
		if h == "" {
			return nil, fmt.Errorf("%s: floppy image is missing", im.Path())
		}
		ids = append(ids, ImageID{Floppy: n + 1, Path: abs, Size: size, SHA256: h})
	}
	return ids, nil
}

func (b *Board) floppyState() (*FloppyState, error) {
	st := &FloppyState{FDC: b.floppy.fdc.State()}
	for n, d := range b.floppy.drives {
		if d != nil {
			st.Drives = append(st.Drives, FloppyDriveState{n, d.State()})
		}
	}
	return st, nil
}

// setFloppyState restores the chip and the drives; latch is the saved port
// 00, which says which drive the chip is connected to.
func (b *Board) setFloppyState(st *FloppyState, latch uint8) error {
	if st == nil {
		return fmt.Errorf("the state has no WD1772 part")
	}
	fb := b.floppy
	cabled := 0
	for _, d := range fb.drives {
		if d != nil {
			cabled++
		}
	}
	if cabled != len(st.Drives) {
		return fmt.Errorf("saved with %d floppy drives, the machine has %d", len(st.Drives), cabled)
	}
	for _, ds := range st.Drives {
		if ds.N < 0 || ds.N > 3 || fb.drives[ds.N] == nil {
			return fmt.Errorf("saved floppy drive %d is not cabled", ds.N)
		}
		if err := fb.drives[ds.N].SetState(ds.State); err != nil {
			return err
		}
	}
	var sel *floppy.Drive
	if s := latch & LatchDriveMask; s != 0 {
		sel = fb.drives[bits.TrailingZeros8(s)]
	}
	fb.sel = sel
	return fb.fdc.SetState(st.FDC, sel)
}

// FloppySignal is a signal of the WD1772 or of a floppy drive, as
// ObserveFloppy reports it (the floppy package's, named here so that an
// observer of the board needs no device package).
type FloppySignal = floppy.Signal

// The floppy signals a board's observers use most.
const (
	FloppyDRQ     = floppy.DRQ
	FloppyINTRQ   = floppy.INTRQ
	FloppyCommand = floppy.Command // the CPU wrote the command register
	FloppyIndex   = floppy.Index
	FloppyStep    = floppy.Step
)

// ObserveFloppy adds an observer of the WD1772's signals (drive -1) and of
// every cabled drive's (drive 0-3), and returns a function that removes it
// from all of them.
func (b *Board) ObserveFloppy(fn func(now sched.Time, drive int, sig FloppySignal, v int)) (remove func()) {
	removes := []func(){b.floppy.fdc.Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) { fn(now, -1, sig, v) })}
	for n := 0; n < 4; n++ {
		if d := b.FloppyDrive(n); d != nil {
			removes = append(removes, d.Observe(func(now sched.Time, _ string, sig floppy.Signal, v int) { fn(now, n, sig, v) }))
		}
	}
	return func() {
		for _, rm := range removes {
			rm()
		}
	}
}
