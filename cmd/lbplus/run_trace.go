package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// floppyWires names the floppy signals the VCD records beside the SCSI bus
// (the WD1772's DRQ, INTRQ, BUSY, which every board has, and each cabled
// drive's INDEX, MOTOR, STEP, DIR, READY) and returns a function that
// starts recording them. STEP toggles on each step pulse (a VCD wire cannot
// be set in the future).
func floppyWires(b *emu.Board) ([]string, func(*scsi.VCD)) {
	fdc := b.FDC()
	wires := []string{"FDC_DRQ", "FDC_INTRQ", "FDC_BUSY"}
	index := map[string]int{"fdc/DRQ": 0, "fdc/INTRQ": 1, "fdc/BUSY": 2}
	var drives []*floppy.Drive
	for n := 0; n < 4; n++ {
		d := b.FloppyDrive(n)
		if d == nil {
			continue
		}
		drives = append(drives, d)
		for _, sig := range []string{"INDEX", "MOTOR", "STEP", "DIRECTION", "READY"} {
			index[d.Name()+"/"+sig] = len(wires)
			wires = append(wires, fmt.Sprintf("FD%d_%s", n, sig))
		}
	}
	return wires, func(v *scsi.VCD) {
		steps := map[string]bool{}
		obs := func(now sched.Time, who string, sig floppy.Signal, val int) {
			i, ok := index[who+"/"+sig.String()]
			if !ok {
				return
			}
			on := val != 0
			if sig == floppy.Step {
				steps[who] = !steps[who]
				on = steps[who]
			}
			v.Wire(now, i, on)
		}
		fdc.Observe(obs)
		for _, d := range drives {
			d.Observe(obs)
		}
	}
}

// `lbplus run --vcd FILE` and `--trace FILE` record the SCSI bus of the
// running board, the way the story's scope watched REQ and ACK: a Value
// Change Dump for GTKWave or `sigrok-cli -I vcd` (with the floppy signals
// beside the bus when drives are fitted), and a readable text trace
// (one line per bus change: time, phase, lines, data, edges). Both stamp
// changes with simulated time, so a trace taken at --speed max is the same
// as one taken in real time.

// traceOptions are --vcd and --trace.
type traceOptions struct{ vcd, text string }

func addTraceFlags(f *pflag.FlagSet, o *traceOptions) {
	f.StringVar(&o.vcd, "vcd", "", "write the SCSI bus as a VCD file (GTKWave, sigrok-cli -I vcd)")
	f.StringVar(&o.text, "trace", "", "write the SCSI bus as a readable text trace, one line per change")
}

// checkRunFiles refuses, before the machine is built (which opens and
// locks its images), an image given twice (it would be refused as locked,
// by ourselves), and a --vcd or --trace file that is one of the machine's
// inputs (ROM, machine file, disk, tape or floppy image, saved state, or a
// sidecar), any other image, or the other trace file; the same for
// --save-state, and a --load-state that is not a regular file.
func (s *runSession) checkRunFiles(cfg emu.Config) error {
	o := s.o
	type use struct{ path, where string }
	var images []use
	for _, d := range cfg.SCSI {
		for lun, p := range d.Images {
			if err := misspeltOption(p, d.Type); err != nil {
				return err
			}
			images = append(images, use{p, fmt.Sprintf("SCSI ID %d LUN %d", d.ID, lun)})
		}
	}
	for _, f := range cfg.Floppies {
		if f.Image != "" {
			images = append(images, use{f.Image, fmt.Sprintf("floppy drive %d", f.Drive)})
		}
	}
	inputs := []string{o.machine, o.rom, cfg.ROMFile}
	for i, a := range images {
		for _, b := range images[:i] {
			if sameFile(a.path, b.path) {
				return fmt.Errorf("%s: given twice (%s and %s); one image can be in one drive only", a.path, b.where, a.where)
			}
		}
		inputs = append(inputs, a.path)
	}
	// A state may be saved over the one it was loaded from (the save
	// replaces the file whole), so --load-state is an input only for the
	// traces.
	s.inputs = inputs
	if err := checkOutputs(inputs, outputFile{"--save-state", o.saveState}); err != nil {
		return err
	}
	if o.loadState != "" {
		if err := checkRegularInput(o.loadState); err != nil {
			return fmt.Errorf("--load-state %w", err)
		}
		inputs = append(inputs, o.loadState)
	}
	return checkOutputs(inputs, outputFile{"--vcd", o.trace.vcd}, outputFile{"--trace", o.trace.text},
		outputFile{"--save-state", o.saveState})
}

// misspeltOption explains an image path that does not exist but is an
// existing file with a comma and something that is not an option after
// it (FILE,rw): "no such image file" alone would hide the typo.
func misspeltOption(p, typ string) error {
	i := strings.IndexByte(p, ',')
	if i < 0 || isFile(p) || !isFile(p[:i]) {
		return nil
	}
	opts := "ro"
	if t, ok := emu.SCSIType(typ); ok && len(t.Options) > 0 {
		opts += ", " + strings.Join(t.Options, ", ")
	}
	return fmt.Errorf("%s: no such image file; %s is one, but %q is not an option of it (%s)", p, p[:i], p[i+1:], opts)
}

// attachBusTrace creates the trace files and observes the board's SCSI bus.
// The files are finished by the session's atExit: the VCD gets its closing
// timestamp, both are flushed.
func (s *runSession) attachBusTrace(b *emu.Board) error {
	tr := s.o.trace
	if tr.vcd == "" && tr.text == "" {
		return nil
	}
	bus := b.SCSIBus()
	if tr.vcd != "" {
		f, err := os.Create(tr.vcd)
		if err != nil {
			return fmt.Errorf("--vcd: %w", err)
		}
		out := &traceFile{f: f, flag: "--vcd", board: b}
		wires, watch := floppyWires(b)
		v := scsi.NewVCDWires(out, sched.Nanosecond, wires)
		watch(v)
		bus.Observe(v.Change)
		s.atExit = append(s.atExit, func() error { return out.finish(v.End(b.Now())) })
	}
	if tr.text != "" {
		f, err := os.Create(tr.text)
		if err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
		out := &traceFile{f: f, flag: "--trace", board: b}
		w := bufio.NewWriterSize(out, 64<<10)
		tt := scsi.NewTextTrace(w)
		bus.Observe(tt.Change)
		s.atExit = append(s.atExit, func() error { return out.finish(errors.Join(tt.Err(), w.Flush())) })
	}
	return nil
}

// traceFile is a trace's file. Its first write error stops the machine at
// once with one line naming the flag and the file (emu.Board.Fail), so a
// full disk is reported when it happens, not at exit; the trace writes
// nothing after it and reports it no second time.
type traceFile struct {
	f     *os.File
	flag  string
	board *emu.Board
	err   error
}

func (t *traceFile) Write(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.f.Write(p)
	if err != nil {
		t.err = fmt.Errorf("%s %s: %w", t.flag, t.f.Name(), err)
		t.board.Fail(t.err)
	}
	return n, err
}

// finish closes the file at the end of the run. It returns the file's
// first write error (the run's own error when the write stopped it, which
// is then reported once), else the trace's last error (its closing
// timestamp or flush) or the close's.
func (t *traceFile) finish(err error) error {
	cerr := t.f.Close()
	if t.err != nil {
		return t.err
	}
	if err = errors.Join(err, cerr); err != nil {
		return fmt.Errorf("%s %s: %w", t.flag, t.f.Name(), err)
	}
	return nil
}
